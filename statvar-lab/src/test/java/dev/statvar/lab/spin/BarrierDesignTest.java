package dev.statvar.lab.spin;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Each barrier the study measures is a barrier: no thread leaves episode e before every thread
 * has arrived at it. PLAIN_LOCAL is left out: it may hang once compiled, which is what the study
 * shows. Spinning designs run with 2 threads (no more than this machine's CPUs), the others with 3.
 */
class BarrierDesignTest {
    private static final int EPISODES = 2_000;

    @ParameterizedTest
    @EnumSource(value = BarrierDesign.class, names = "PLAIN_LOCAL", mode = EnumSource.Mode.EXCLUDE)
    void noThreadLeavesAnEpisodeBeforeAllArrived(BarrierDesign d) throws Exception {
        int n = d.spinsOnly() ? 2 : 3;
        BarrierDesign.Barrier b = d.create(n);
        AtomicLongArray arrived = new AtomicLongArray(n);
        AtomicReference<String> wrong = new AtomicReference<>();
        Thread[] ts = new Thread[n];
        for (int t = 0; t < n; t++) {
            int tid = t;
            ts[t] = new Thread(() -> {
                try {
                    for (long e = 1; e <= EPISODES; e++) {
                        arrived.set(tid, e);
                        b.await(tid, e);
                        for (int i = 0; i < n; i++) {
                            if (arrived.get(i) < e) {
                                wrong.compareAndSet(null, "thread " + tid + " left episode " + e + " before thread " + i + " arrived");
                            }
                        }
                    }
                } catch (InterruptedException x) {
                    wrong.compareAndSet(null, x.toString());
                }
            });
            b.register(t, ts[t]);
        }
        for (Thread t : ts) {
            t.start();
        }
        for (Thread t : ts) {
            t.join(60_000);
            assertEquals(false, t.isAlive(), d + " did not finish " + EPISODES + " episodes in 60 s");
        }
        assertNull(wrong.get());
    }
}
