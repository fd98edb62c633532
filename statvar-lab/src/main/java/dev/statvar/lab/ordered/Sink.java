package dev.statvar.lab.ordered;

import dev.statvar.Histogram;

import java.util.concurrent.CountDownLatch;

/**
 * One ordered stream's output, the same for every {@link Design}: it checks that tickets come in
 * order (0, 1, 2, ...), folds each task's result into a checksum in output order, records the
 * task's end-to-end latency (creation to output) and counts down the phase's latch at the phase's
 * last ticket. Its plain fields are touched only inside the design's ordered section, one task at a
 * time, each seeing the previous one's writes: a design that broke that shows as out-of-order
 * outputs or a checksum different from {@link #expectedChecksum}.
 */
final class Sink {
    /** A phase of the run: its last ticket per stream, and the latch its streams count down. */
    record Phase(long lastTicket, CountDownLatch done) {
    }

    private final Histogram latency;
    /** The current phase (volatile: written by the runner's main thread before it releases the workers). */
    volatile Phase phase;
    private long expected;
    private long outOfOrder;
    private long checksum = 17;

    Sink(Histogram latency) {
        this.latency = latency;
    }

    /** The ordered output of ticket {@code t}: called in ticket order by the design's ordered section. */
    void output(long t, long created, long result) {
        if (t != expected) {
            outOfOrder++;
        }
        expected = t + 1;
        checksum = checksum * 31 + result;
        latency.record(System.nanoTime() - created);
        Phase p = phase;
        if (t == p.lastTicket()) {
            p.done().countDown();
        }
    }

    /** Read after the run (its latch happens-after every output). */
    long outOfOrder() {
        return outOfOrder;
    }

    long checksum() {
        return checksum;
    }

    /** The checksum of the outputs 0 .. n - 1 of stream {@code stream}, in order: what every design must produce. */
    static long expectedChecksum(int stream, long n) {
        long c = 17;
        for (long t = 0; t < n; t++) {
            c = c * 31 + result(stream, t);
        }
        return c;
    }

    /** The result of task {@code t} of stream {@code s}: a fixed function, so every design outputs the same. */
    static long result(int s, long t) {
        long x = (s + 1) * 0x9E3779B97F4A7C15L ^ t;
        x ^= x >>> 33;
        x *= 0xff51afd7ed558ccdL;
        return x ^ (x >>> 33);
    }
}
