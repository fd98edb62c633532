import dev.statvar.*;
import java.util.concurrent.*;
public class Harness {
    public static void main(String[] a) throws Exception {
        int stats = Integer.parseInt(a[0]), threads = Integer.parseInt(a[1]), loops = Integer.parseInt(a[2]);
        StatRegistry r = StatRegistry.builder().build();
        Counter[] c = new Counter[stats / 2]; Gauge[] g = new Gauge[stats / 2];
        for (int i = 0; i < stats / 2; i++) { c[i] = r.counter("c" + i); g[i] = r.gauge("g" + i); }
        CountDownLatch done = new CountDownLatch(threads), stop = new CountDownLatch(1);
        for (int t = 0; t < threads; t++) {
            Thread th = new Thread(() -> {
                for (int i = 0; i < c.length; i++) { c[i].add(); g[i].report(i); }
                done.countDown();
                try { stop.await(); } catch (InterruptedException e) { }
            });
            th.setDaemon(true); th.start();
        }
        done.await();
        long[] t = new long[loops];
        for (int l = 0; l < loops; l++) {
            for (int i = 0; i < c.length; i++) { c[i].add(); g[i].report(l); }
            long t0 = System.nanoTime();
            Snapshot s = r.collect();
            t[l] = System.nanoTime() - t0;
            if (s.values().size() != stats) throw new AssertionError();
        }
        java.util.Arrays.sort(t, loops / 2, loops); // the second half: warmed up
        System.out.printf("second half: median %.3f ms, p10 %.3f ms%n", t[loops / 2 + loops / 4] / 1e6, t[loops / 2 + loops / 20] / 1e6);
    }
}
