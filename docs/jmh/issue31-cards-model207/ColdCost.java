import dev.statvar.Counter;
import dev.statvar.Gauge;
import dev.statvar.StatRegistry;

/**
 * The stripes' update cost, public API: (1) a cold platform thread's gauge report (hotAfter
 * 65,535: every report of a batch below it goes to the stripes; a collect between batches,
 * not timed, starts the thread's count again); (2) a virtual thread's counter add (an atomic add
 * on its stripe). ns per update, median of the batches after warm-up.
 */
public class ColdCost {
    static volatile long sink;

    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(args.length > 0 ? args[0] : "200");
        StatRegistry r = StatRegistry.builder().hotAfter(65_535).build();
        Gauge[] gs = new Gauge[64];
        for (int i = 0; i < gs.length; i++) {
            gs[i] = r.gauge("g" + i);
        }
        int batch = 60_000;
        long[] gauge = new long[rounds];
        for (int k = 0; k < rounds; k++) {
            Gauge g = gs[k & 63];
            long t0 = System.nanoTime();
            for (int i = 0; i < batch - 1; i++) {
                g.report(i);
            }
            gauge[k] = System.nanoTime() - t0;
            r.collect();
        }
        Counter c = r.counter("c");
        long[] counter = new long[rounds];
        int adds = 1_000_000;
        Thread v = Thread.ofVirtual().start(() -> {
            for (int k = 0; k < rounds; k++) {
                long t0 = System.nanoTime();
                for (int i = 0; i < adds; i++) {
                    c.add();
                }
                counter[k] = System.nanoTime() - t0;
            }
        });
        v.join();
        System.out.printf("cold gauge report: %.2f ns; virtual counter add: %.2f ns; (total %d)%n",
                median(gauge, rounds / 2) / (batch - 1), median(counter, rounds / 2) / adds, r.collect().counter("c"));
    }

    static double median(long[] a, int from) {
        long[] b = java.util.Arrays.copyOfRange(a, from, a.length);
        java.util.Arrays.sort(b);
        return b[b.length / 2];
    }
}
