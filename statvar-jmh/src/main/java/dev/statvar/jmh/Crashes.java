package dev.statvar.jmh;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Records exceptions that kill non-benchmark threads (the statvar collector thread, the
 * {@link CollectBenchmark} writer threads) so that a trial tear-down can fail the run instead of
 * letting a dead background thread go unnoticed. JMH itself reports exceptions of its own
 * benchmark threads.
 */
final class Crashes {
    private static final Queue<Throwable> SEEN = new ConcurrentLinkedQueue<>();

    static {
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> {
            SEEN.add(new IllegalStateException("thread '" + t.getName() + "' died", e));
            if (previous != null) {
                previous.uncaughtException(t, e);
            } else {
                System.err.print("Exception in thread \"" + t.getName() + "\" ");
                e.printStackTrace();
            }
        });
    }

    /** Installs the handler (class initialisation does it; this only forces it). */
    static void install() {
        // the static initialiser has run
    }

    /** Throws if any background thread has died since the JVM started. */
    static void check() {
        Throwable e = SEEN.peek();
        if (e != null) {
            throw new IllegalStateException("a background thread crashed during the trial", e);
        }
    }

    private Crashes() {
    }
}
