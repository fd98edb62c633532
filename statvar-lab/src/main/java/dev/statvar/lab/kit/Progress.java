package dev.statvar.lab.kit;

import java.io.PrintStream;
import java.util.Locale;

/**
 * The progress line of a long study, on standard error: runs done of the total, what ran last,
 * time elapsed and an estimate of the time left; rewritten in place ({@code \r}).
 */
public final class Progress {
    private final PrintStream out;
    private final long total;
    private final long started = System.nanoTime();
    private long done;

    public Progress(PrintStream out, long total) {
        this.out = out;
        this.total = total;
    }

    /** One run done; {@code what} names it. */
    public void step(String what) {
        done++;
        double el = elapsedSeconds();
        out.printf(Locale.ROOT, "\r[run %d/%d] %s   %4.0f s elapsed, ~%4.0f s left   ", done, total, what, el,
                el / done * (total - done));
    }

    /** A line of its own above the progress line (e.g. a run made again, and why). */
    public void note(String line) {
        out.printf(Locale.ROOT, "\r%s%n", line);
    }

    public double elapsedSeconds() {
        return (System.nanoTime() - started) / 1e9;
    }

    /** Ends the line: "done in N s". */
    public void finish() {
        out.printf(Locale.ROOT, "%ndone in %.0f s%n", elapsedSeconds());
    }
}
