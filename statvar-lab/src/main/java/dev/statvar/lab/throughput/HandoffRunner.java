package dev.statvar.lab.throughput;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The child JVM of the handoff runs ({@link ThroughputStudy} starts a fresh one per run):
 * <ul>
 *   <li>{@code alone IMPL SECONDS}: one implementation, the honest way (its own JVM);</li>
 *   <li>{@code together IMPL IMPL SECONDS}: two implementations one after the other in this JVM
 *       through the same call sites ({@link Pipeline}), as the harness of Cliff Click's
 *       "A Pair of (somebody else's) Concurrency Bugs" did (pitfall 1);</li>
 *   <li>{@code throttled RATE SECONDS}: the self-check, a ring whose producer is held to RATE
 *       values per second ({@link Pipeline#produceAt}).</li>
 * </ul>
 * Each run prints {@link TimedRun}'s lines (the self-check also {@code HELDUP run=self-check
 * from=<ns> to=<ns>} for each time its producer was held up, {@link Pipeline#produceAt}), named {@code IMPL}, {@code together-A-B/IMPL} or
 * {@code self-check}. Exit 0, or 1 when a run's counts do not add up or a value came out of order.
 */
public final class HandoffRunner {
    static final String PRODUCER = "tp-producer";
    static final String CONSUMER = "tp-consumer";

    private HandoffRunner() {
    }

    public static void main(String[] args) throws Exception {
        boolean ok = true;
        switch (args[0]) {
            case "alone" -> {
                Handoff.Impl impl = Handoff.Impl.valueOf(args[1]);
                ok = pipeline(impl.label(), impl.create(), Integer.parseInt(args[2]), 0, System.out);
            }
            case "together" -> {
                Handoff.Impl a = Handoff.Impl.valueOf(args[1]);
                Handoff.Impl b = Handoff.Impl.valueOf(args[2]);
                String prefix = "together-" + a.label() + "-" + b.label() + "/";
                int seconds = Integer.parseInt(args[3]);
                ok = pipeline(prefix + a.label(), a.create(), seconds, 0, System.out);
                ok &= pipeline(prefix + b.label(), b.create(), seconds, 0, System.out);
            }
            case "throttled" -> ok = pipeline("self-check", Handoff.Impl.RING.create(), Integer.parseInt(args[2]),
                    Long.parseLong(args[1]), System.out);
            default -> throw new IllegalArgumentException("unknown mode " + args[0]);
        }
        System.exit(ok ? 0 : 1);
    }

    /** One producer/consumer run, its lines printed to {@code out}; {@code rate} 0: unthrottled. */
    static boolean pipeline(String label, Handoff h, int seconds, long rate, PrintStream out) throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        long[] disorder = new long[1];
        List<long[]> holdUps = new ArrayList<>(); // the producer's; read here after the join

        boolean exact = TimedRun.run(label, seconds, stop, List.of(
                new TimedRun.Job(PRODUCER, "tp_produced", false,
                        c -> rate > 0 ? Pipeline.produceAt(h, c, stop, rate, holdUps) : Pipeline.produce(h, c, stop)),
                new TimedRun.Job(CONSUMER, "tp_consumed", true, c -> {
                    long[] r = Pipeline.consume(h, c);
                    disorder[0] = r[1];
                    return r[0];
                })), out);
        if (disorder[0] != 0) {
            out.println("NOTE " + label + " " + disorder[0] + " values came out of order");
        }
        for (long[] u : holdUps) {
            out.println("HELDUP run=" + label + " from=" + u[0] + " to=" + u[1]);
        }
        return exact && disorder[0] == 0;
    }
}
