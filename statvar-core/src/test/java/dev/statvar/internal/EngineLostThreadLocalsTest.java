package dev.statvar.internal;

import dev.statvar.Counter;
import dev.statvar.StatRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static dev.statvar.internal.EngineUpdatePathTest.engine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A pool that erases its threads' ThreadLocals (the common pool does after every task on JDK
 * 21+) costs a lookup, never a second block: a worker that collided in the table with another
 * live thread finds its one spilled block again, and counts stay exact.
 */
@EnabledForJreRange(min = JRE.JAVA_21)
class EngineLostThreadLocalsTest {
    private static final ThreadLocal<Boolean> MARK = new ThreadLocal<>();

    @Test
    void aCollidedWorkerWhoseThreadLocalsWereErasedKeepsItsOneBlock() throws Exception {
        StatRegistry r = StatRegistry.create();
        Counter c = r.counter("c");
        Engine e = engine(r);
        ForkJoinPool pool = ForkJoinPool.commonPool();
        Thread worker = pool.submit(() -> {
            MARK.set(true);
            return Thread.currentThread();
        }).get(10, TimeUnit.SECONDS);
        // A live platform thread holding the worker's table slot.
        Thread holder = null;
        for (int i = 0; i < 10_000 && holder == null; i++) {
            Thread t = EngineUpdatePathTest.newThread();
            if (((Threads.id(t) ^ Threads.id(worker)) & 63) == 0) {
                holder = t;
            }
        }
        assumeTrue(holder != null, "no thread id colliding with the worker's");
        EngineUpdatePathTest.Parked parked = EngineUpdatePathTest.Parked.start(holder, () -> c.add(1));
        try {
            int onWorker = 0;
            boolean erased = false;
            for (int attempt = 0; attempt < 200 && onWorker < 3; attempt++) {
                AtomicReference<Boolean> sawMark = new AtomicReference<>();
                boolean ran = pool.submit(() -> {
                    if (Thread.currentThread() != worker) {
                        return false;
                    }
                    sawMark.set(MARK.get());
                    c.add(1); // collides with the holder: spilled; later, found again without its ThreadLocal
                    return true;
                }).get(10, TimeUnit.SECONDS);
                if (ran) {
                    onWorker++;
                    erased |= sawMark.get() == null;
                }
            }
            assumeTrue(onWorker >= 2 && erased, "the common pool did not rerun on its worker with ThreadLocals erased");
            assertEquals(2, e.threadBlocks(), "one block for the holder and one for the worker");
            assertEquals(1 + onWorker, r.collect().counter("c"));
        } finally {
            parked.finish();
        }
    }
}
