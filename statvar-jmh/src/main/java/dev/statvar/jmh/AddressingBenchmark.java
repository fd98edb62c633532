package dev.statvar.jmh;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;

/**
 * Why statvar's local views own a one-stat array and its handles are records: the same
 * thread-confined increment (plain read, opaque store) of one cell in a tight loop, addressed
 * five ways. A constant index or a field compiles to [base + disp]; an index loaded at run time
 * compiles to [base + index*8 + disp]. On CPUs that forward a store to a following load with
 * zero latency only for the first form, the second pays the full store-to-load latency per
 * increment. Run with {@code -t 1}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
public class AddressingBenchmark {
    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle VALUE;
    private static final int INDEX = 18;

    static {
        try {
            VALUE = MethodHandles.lookup().findVarHandle(Cell.class, "value", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** A cell object (the MutableCounterValue of "Statistical variables in Java: not quite legal but very fast"). */
    static final class Cell {
        long value;
    }

    /** An offset in a record: C2 trusts record final fields, so a static final instance folds. */
    record RecordOffset(int index) {
    }

    /** The same offset in an ordinary final field: not trusted, loaded at run time. */
    static final class ClassOffset {
        final int index;

        ClassOffset(int index) {
            this.index = index;
        }
    }

    static final RecordOffset STATIC_RECORD = new RecordOffset(INDEX);
    static final ClassOffset STATIC_CLASS = new ClassOffset(INDEX);

    @State(Scope.Thread)
    public static class Cells {
        long[] cells;
        Cell cell;
        int index;

        @Setup(Level.Trial)
        public void setup() {
            cells = new long[64];
            cell = new Cell();
            index = INDEX;
        }
    }

    /** [base + disp]: a literal index. */
    @Benchmark
    public void constantIndex(Cells s) {
        long[] a = s.cells;
        LONGS.setOpaque(a, INDEX, a[INDEX] + 1);
    }

    /** [base + disp]: a field of a cell object. */
    @Benchmark
    public void fieldCell(Cells s) {
        Cell c = s.cell;
        VALUE.setOpaque(c, c.value + 1);
    }

    /** [base + index*8 + disp]: the index is a run-time value. */
    @Benchmark
    public void runtimeIndex(Cells s) {
        long[] a = s.cells;
        int i = s.index;
        LONGS.setOpaque(a, i, a[i] + 1);
    }

    /** The index from a static final record: folded to a constant by C2. */
    @Benchmark
    public void staticRecordIndex(Cells s) {
        long[] a = s.cells;
        int i = STATIC_RECORD.index();
        LONGS.setOpaque(a, i, a[i] + 1);
    }

    /** The index from a static final ordinary object's final field: not folded. */
    @Benchmark
    public void staticClassIndex(Cells s) {
        long[] a = s.cells;
        int i = STATIC_CLASS.index;
        LONGS.setOpaque(a, i, a[i] + 1);
    }
}
