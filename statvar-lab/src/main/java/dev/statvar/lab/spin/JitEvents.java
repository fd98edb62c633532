package dev.statvar.lab.spin;

import dev.statvar.lab.kit.JfrStream;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedMethod;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the JIT did to the barrier's wait loop while a cell ran, from JFR in the child JVM: every
 * {@code jdk.Compilation} of a method of {@link FlagBarrier} (tier, on-stack replacement or not, at
 * which bytecode) and every {@code jdk.Deoptimization} in it (reason, action, bytecode). A run that
 * hung and one that did not can then be set side by side: whether the loop that spins forever is the
 * compiled code a deoptimisation never left. Enabled for {@code PLAIN_LOCAL} only (the design whose
 * hang is in question); JFR's own thread runs beside the workers in that JVM.
 *
 * <p>The stream's thread appends (under this object's monitor); the main thread reads under it after
 * {@link #drain}, which waits for a flush that began after the cell ended ({@link JfrStream}).
 */
final class JitEvents {
    private final JfrStream jfr = new JfrStream();
    private final List<Event> events = new ArrayList<>();

    /** One compilation or deoptimisation: when it began, what it was. */
    record Event(Instant at, String line) {
    }

    JitEvents() {
        jfr.stream().enable("jdk.Compilation").withThreshold(Duration.ZERO);
        jfr.stream().enable("jdk.Deoptimization");
        jfr.stream().onEvent("jdk.Compilation", e -> {
            RecordedMethod m = e.getValue("method");
            if (ours(m)) {
                add(e, String.format(Locale.ROOT, "compiled %s tier %d%s%s", name(m), e.getInt("compileLevel"),
                        e.getBoolean("isOsr") ? " OSR" : "", e.getBoolean("succeded") ? "" : " FAILED"));
            }
        });
        jfr.stream().onEvent("jdk.Deoptimization", e -> {
            RecordedMethod m = e.getValue("method");
            if (ours(m)) {
                add(e, String.format(Locale.ROOT, "deoptimized %s at bci %d (%s): reason %s, action %s", name(m), e.getInt("bci"),
                        e.getString("instruction"), e.getString("reason"), e.getString("action")));
            }
        });
        jfr.start();
    }

    private static boolean ours(RecordedMethod m) {
        return m != null && m.getType().getName().startsWith(FlagBarrier.class.getName());
    }

    private static String name(RecordedMethod m) {
        String t = m.getType().getName();
        return t.substring(t.lastIndexOf('.') + 1) + "::" + m.getName();
    }

    private synchronized void add(RecordedEvent e, String line) {
        events.add(new Event(e.getStartTime(), line));
    }

    /** Every event so far, once JFR has handed over those up to now; then the stream is closed. */
    List<Event> drain() throws InterruptedException {
        jfr.stopAfterFlush();
        synchronized (this) {
            return new ArrayList<>(events);
        }
    }
}
