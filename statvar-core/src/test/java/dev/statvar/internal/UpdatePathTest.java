package dev.statvar.internal;

import org.junit.jupiter.api.Test;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * No locked instruction (CAS, getAndAdd, synchronized, volatile store, full fence) on the update
 * path of a platform thread: checked on the bytecode of everything reachable from the public
 * update methods, except the documented slow paths (first use by a thread, growth after new
 * registrations, table collisions, virtual threads), which carry {@link SlowPath}.
 */
class UpdatePathTest {
    /** Every public update method of every handle. */
    private static final List<String> ENTRIES = List.of(
            "dev/statvar/internal/CounterImpl.add.()V",
            "dev/statvar/internal/CounterImpl.add.(J)V",
            "dev/statvar/internal/LocalCounter.add.()V",
            "dev/statvar/internal/LocalCounter.add.(J)V",
            "dev/statvar/internal/GaugeImpl.report.(J)V",
            "dev/statvar/internal/LocalGauge.report.(J)V",
            "dev/statvar/internal/HistogramImpl.record.(J)V",
            "dev/statvar/internal/LocalHistogram.record.(J)V");

    @Test
    void updatePathsHaveNoLockedInstruction() {
        UpdatePathScanner scanner = new UpdatePathScanner("dev/statvar/", true);
        assertEquals(List.of(), scanner.scan(ENTRIES));
        // What was left out is exactly the annotated slow paths the design comment names; a new
        // @SlowPath on the way shows up here and must be justified.
        assertEquals(Set.of(
                "dev/statvar/internal/CounterImpl.negative.(Ljava/lang/String;J)Ljava/lang/IllegalArgumentException;",
                "dev/statvar/internal/HistogramImpl.negative.(Ljava/lang/String;J)Ljava/lang/IllegalArgumentException;",
                "dev/statvar/internal/Writers.addSlow.(Ldev/statvar/internal/CounterImpl;Ljava/lang/Thread;J)V",
                "dev/statvar/internal/Writers.reportSlow.(Ldev/statvar/internal/GaugeImpl;Ljava/lang/Thread;J)V",
                "dev/statvar/internal/Writers.recordSlow.(Ldev/statvar/internal/HistogramImpl;Ljava/lang/Thread;J)V",
                "dev/statvar/internal/LocalHistogram.recordOwn.(J)V"), scanner.slowPathsReached());
    }

    @Test
    void theSlowPathsAreWhatTheScannerSkips() {
        // Without honouring @SlowPath the scanner must find the locks of the slow paths: proves it looks.
        UpdatePathScanner all = new UpdatePathScanner("dev/statvar/", false);
        List<String> violations = all.scan(List.of("dev/statvar/internal/CounterImpl.add.(J)V"));
        assertTrue(violations.stream().anyMatch(v -> v.contains("monitorenter")), violations.toString());
        violations = all.scan(List.of("dev/statvar/internal/LocalHistogram.record.(J)V"));
        assertTrue(violations.stream().anyMatch(v -> v.contains("monitorenter")), violations.toString());
        assertEquals(Set.of(), all.slowPathsReached());
    }

    @Test
    void onlyTheAnnotatedMethodIsLeftOut() {
        UpdatePathScanner s = new UpdatePathScanner("dev/statvar/", true);
        String b = "dev/statvar/internal/UpdatePathTest$Broken";
        // The annotated method is skipped; the same lock in an unannotated callee is still found.
        assertEquals(List.of(), s.scan(List.of(b + ".callsSlowPath.()V")));
        assertEquals(Set.of(b + ".slowPath.()V"), s.slowPathsReached());
        assertTrue(s.scan(List.of(b + ".indirect.()V")).stream().anyMatch(v -> v.contains("compareAndSet")));
    }

    @Test
    void theScannerCatchesEveryKindOfLockedInstruction() {
        UpdatePathScanner s = new UpdatePathScanner("dev/statvar/", false);
        String b = "dev/statvar/internal/UpdatePathTest$Broken";
        assertTrue(s.scan(List.of(b + ".cas.()V")).stream().anyMatch(v -> v.contains("compareAndSet")));
        assertTrue(s.scan(List.of(b + ".getAndAdd.()V")).stream().anyMatch(v -> v.contains("getAndAdd")));
        assertTrue(s.scan(List.of(b + ".volatileMode.()V")).stream().anyMatch(v -> v.contains("setVolatile")));
        assertTrue(s.scan(List.of(b + ".monitor.()V")).stream().anyMatch(v -> v.contains("monitorenter")));
        assertTrue(s.scan(List.of(b + ".syncMethod.()V")).stream().anyMatch(v -> v.contains("synchronized")));
        assertTrue(s.scan(List.of(b + ".atomic.()V")).stream().anyMatch(v -> v.contains("AtomicLong")));
        assertTrue(s.scan(List.of(b + ".volatileField.()V")).stream().anyMatch(v -> v.contains("volatile store")));
        assertTrue(s.scan(List.of(b + ".indirect.()V")).stream().anyMatch(v -> v.contains("compareAndSet")));
        assertEquals(List.of(), s.scan(List.of(b + ".clean.()V")));
    }

    /** Deliberately broken update paths: each must be caught. */
    @SuppressWarnings("unused")
    static final class Broken {
        static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
        final long[] cells = new long[8];
        final AtomicLong atomic = new AtomicLong();
        volatile long v;

        void cas() {
            LONGS.compareAndSet(cells, 0, 0L, 1L);
        }

        void getAndAdd() {
            long unused = (long) LONGS.getAndAdd(cells, 0, 1L);
        }

        void volatileMode() {
            LONGS.setVolatile(cells, 0, 1L);
        }

        void monitor() {
            synchronized (this) {
                cells[0]++;
            }
        }

        synchronized void syncMethod() {
            cells[0]++;
        }

        void atomic() {
            atomic.incrementAndGet();
        }

        void volatileField() {
            v = 1;
        }

        void indirect() {
            cas();
        }

        void callsSlowPath() {
            slowPath();
        }

        @SlowPath("test: a deliberate lock, allowed because annotated")
        void slowPath() {
            synchronized (this) {
                cells[0]++;
            }
        }

        void clean() {
            LONGS.setOpaque(cells, 0, cells[0] + 1);
        }
    }
}
