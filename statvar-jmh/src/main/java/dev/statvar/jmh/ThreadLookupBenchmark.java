package dev.statvar.jmh;

import dev.statvar.StatRegistry;
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
import java.util.concurrent.atomic.LongAdder;

/**
 * Where the any-thread counter update's time goes (issue 14): the same single-writer increment
 * (plain read, opaque store) reached through different lookups of the calling thread's storage,
 * each holder in an ordinary field of the benchmark state, beside statvar's {@code add()} and
 * LongAdder. Stand-alone replicas, not statvar's classes:
 * <ul>
 *   <li>{@code blockTable}: statvar's design (a per-registry table of per-thread blocks behind the
 *       engine, slot by thread id, owner compared, the cell at a run-time offset in the block's
 *       array, a length check): handle, engine, table, block, array, cell;</li>
 *   <li>{@code blockTableInHandle}: the same table referenced from the handle itself (one hop less);</li>
 *   <li>{@code pairTableBehindEngine}: (owner, array) pairs in the table instead of blocks (one hop less);</li>
 *   <li>{@code pairHandle}: both: handle, table, array, cell;</li>
 *   <li>{@code tidHandle}: as {@code pairHandle}, the owner checked by a thread id stored in the array
 *       (sound only where thread ids cannot be spoofed: JDK 19+'s final {@code threadId()});</li>
 *   <li>{@code statTableCell}: a per-stat table of per-thread cell objects (owner, value): handle, table,
 *       cell; the value at a constant field offset, no length check, one object per (thread, stat);</li>
 *   <li>{@code statTablePaddedCell}: the same padded by 64 bytes on either side (a moving collector
 *       may place two threads' unpadded cells on one line);</li>
 *   <li>{@code statTablePaddedCellViaInterface}: the same called through an interface, as a
 *       {@code Counter} is (the inlined call is guarded by a check of the receiver's class);</li>
 *   <li>{@code statTableSlot}: the same with a padded one-stat array per (thread, stat), like a local view.</li>
 * </ul>
 * And a thread's own view of a stat, held in a thread-confined field (what {@code localView()}
 * returns), beside statvar's {@code localView().add()}:
 * <ul>
 *   <li>{@code viewOwnerChecked}: a padded cell object, its owner compared with the current thread,
 *       then the increment (one load of the view, then the owner and the value);</li>
 *   <li>{@code viewOwnerCheckedViaInterface}: the same called through an interface, as statvar's view
 *       is a {@code Counter}.</li>
 * </ul>
 * Figures and their reading: docs/PERFORMANCE.md, "Why the layout is what it is: lookup and addressing".
 * Run with {@code -t 1} and {@code -t 2}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
public class ThreadLookupBenchmark {
    static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    static final VarHandle OBJECTS = MethodHandles.arrayElementVarHandle(Object[].class);
    static final VarHandle BLOCKS = MethodHandles.arrayElementVarHandle(Block[].class);
    static final VarHandle VALUE;
    static final VarHandle STAT_TABLE;
    static final VarHandle BLOCK_TABLE;
    /** A cell's place in a padded array: after 128 bytes of padding and two header cells, as statvar's Layout. */
    static final int CELL = 18;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            VALUE = l.findVarHandle(Cell.class, "value", long.class);
            STAT_TABLE = l.findVarHandle(StatTable.class, "table", Object[].class);
            BLOCK_TABLE = l.findVarHandle(BlockEngine.class, "table", Block[].class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The block-table update: true if the calling thread's block is in {@code tab} and covers the cell. */
    static boolean addInBlockTable(Block[] tab, int off, int limit, long n) {
        Thread t = Thread.currentThread();
        Block b = (Block) BLOCKS.getAcquire(tab, (int) t.getId() & (tab.length - 1));
        if (b != null && b.owner == t) {
            long[] c = b.cells;
            if (limit <= c.length) {
                LONGS.setOpaque(c, off, c[off] + n);
                return true;
            }
        }
        return false;
    }

    /** The pair-table update: true if {@code tab} holds the calling thread's (owner, cells) pair covering the cell. */
    static boolean addInPairTable(Object[] tab, int off, int limit, long n) {
        Thread t = Thread.currentThread();
        int i = ((int) t.getId() << 1) & (tab.length - 1);
        if (OBJECTS.getAcquire(tab, i) == t) {
            long[] c = (long[]) tab[i + 1];
            if (limit <= c.length) {
                LONGS.setOpaque(c, off, c[off] + n);
                return true;
            }
        }
        return false;
    }

    /** Installs a pair for thread {@code t} in {@code table}. Caller synchronises. */
    static void installPair(Object[] table, Thread t) {
        int i = ((int) t.getId() << 1) & (table.length - 1);
        table[i + 1] = new long[64];
        OBJECTS.setRelease(table, i, t);
    }

    /** One thread's cell of one stat, as an object. */
    static final class Cell {
        final Thread owner;
        long value;

        Cell(Thread owner) {
            this.owner = owner;
        }
    }

    /** Padding before a padded cell's fields (superclass fields are laid out first). */
    abstract static class PadBefore {
        long p0, p1, p2, p3, p4, p5, p6, p7;
    }

    /** One thread's cell of one stat. */
    abstract static class PaddedCellFields extends PadBefore {
        Thread owner;
        long value;
    }

    /**
     * As {@link Cell}, padded by 64 bytes on either side: a collector that moves objects may put
     * two threads' unpadded cells side by side (false sharing); these cannot share a line.
     */
    static final class PaddedCell extends PaddedCellFields {
        long q0, q1, q2, q3, q4, q5, q6, q7;

        PaddedCell(Thread owner) {
            this.owner = owner;
        }
    }

    static final VarHandle PADDED_VALUE;

    static {
        try {
            PADDED_VALUE = MethodHandles.lookup().findVarHandle(PaddedCellFields.class, "value", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** An update called through an interface, as statvar's {@code Counter}: C2 guards the inlined call with a type check. */
    interface Adder {
        void add();
    }

    /** {@link StatTable#addPaddedCell} behind {@link Adder}. */
    static final class PaddedCellAdder implements Adder {
        final StatTable table = new StatTable();

        @Override
        public void add() {
            table.addPaddedCell(1);
        }
    }

    /** A second implementation, loaded and used once, so that the call site cannot be bound by class hierarchy analysis alone. */
    static final class OtherAdder implements Adder {
        long n;

        @Override
        public void add() {
            n++;
        }
    }

    /** A padded cell as its owner's view: {@link Adder}, owner-checked; another thread falls back to a shared LongAdder. */
    static final class PaddedCellView extends PaddedCellFields implements Adder {
        long q0, q1, q2, q3, q4, q5, q6, q7;
        final LongAdder fallback = new LongAdder();

        PaddedCellView(Thread owner) {
            this.owner = owner;
        }

        @Override
        public void add() {
            if (Thread.currentThread() == owner) {
                PADDED_VALUE.setOpaque(this, value + 1); // plain read of our own cell, opaque store
            } else {
                fallback.increment();
            }
        }
    }

    /** One thread's padded one-stat array. */
    static final class Slot {
        final Thread owner;
        final long[] cells = new long[2 * CELL - 1];

        Slot(Thread owner) {
            this.owner = owner;
        }
    }

    /** A per-stat table of per-thread cells (Cell or Slot objects). */
    static final class StatTable {
        Object[] table = new Object[64];

        void addCell(long n) {
            Thread t = Thread.currentThread();
            Object[] tab = (Object[]) STAT_TABLE.getAcquire(this);
            Object o = OBJECTS.getAcquire(tab, (int) t.getId() & (tab.length - 1));
            if (o instanceof Cell c && c.owner == t) {
                VALUE.setOpaque(c, c.value + n);
                return;
            }
            install(new Cell(t), t);
            addCell(n);
        }

        void addPaddedCell(long n) {
            Thread t = Thread.currentThread();
            Object[] tab = (Object[]) STAT_TABLE.getAcquire(this);
            Object o = OBJECTS.getAcquire(tab, (int) t.getId() & (tab.length - 1));
            if (o instanceof PaddedCell c && c.owner == t) {
                PADDED_VALUE.setOpaque(c, c.value + n);
                return;
            }
            install(new PaddedCell(t), t);
            addPaddedCell(n);
        }

        void addSlot(long n) {
            Thread t = Thread.currentThread();
            Object[] tab = (Object[]) STAT_TABLE.getAcquire(this);
            Object o = OBJECTS.getAcquire(tab, (int) t.getId() & (tab.length - 1));
            if (o instanceof Slot s && s.owner == t) {
                long[] a = s.cells;
                LONGS.setOpaque(a, CELL, a[CELL] + n);
                return;
            }
            install(new Slot(t), t);
            addSlot(n);
        }

        synchronized void install(Object cell, Thread t) {
            OBJECTS.setRelease(table, (int) t.getId() & (table.length - 1), cell);
        }
    }

    /** statvar's design, replicated: per-thread blocks in a per-registry table. */
    static final class Block {
        final Thread owner;
        long[] cells = new long[64];

        Block(Thread owner) {
            this.owner = owner;
        }
    }

    static final class BlockEngine {
        Block[] table = new Block[64];

        void add(int off, int limit, long n) {
            if (!addInBlockTable((Block[]) BLOCK_TABLE.getAcquire(this), off, limit, n)) {
                install(Thread.currentThread());
                add(off, limit, n);
            }
        }

        synchronized void install(Thread t) {
            BLOCKS.setRelease(table, (int) t.getId() & (table.length - 1), new Block(t));
        }
    }

    /**
     * The thread table in the handle itself: interleaved (owner, cells) pairs in one Object[]
     * field of a (non-record) handle, replaced on growth; the cells array shared by all stats
     * of the thread, as statvar's. Loads: handle.table, owner and cells (same line), the cell.
     */
    static final class PairHandle {
        static final VarHandle TABLE;

        static {
            try {
                TABLE = MethodHandles.lookup().findVarHandle(PairHandle.class, "table", Object[].class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        Object[] table = new Object[128];
        final int offset;
        final int limit;

        PairHandle(int offset, int limit) {
            this.offset = offset;
            this.limit = limit;
        }

        void add(long n) {
            if (!addInPairTable((Object[]) TABLE.getAcquire(this), offset, limit, n)) {
                install(Thread.currentThread());
                add(n);
            }
        }

        synchronized void install(Thread t) {
            installPair(table, t);
        }
    }

    /** As PairHandle, the owner checked by the thread id stored in the cells (sound only where ids cannot be spoofed). */
    static final class TidHandle {
        static final VarHandle TABLE;

        static {
            try {
                TABLE = MethodHandles.lookup().findVarHandle(TidHandle.class, "table", long[][].class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        long[][] table = new long[64][];
        final int offset;
        final int limit;

        TidHandle(int offset, int limit) {
            this.offset = offset;
            this.limit = limit;
        }

        void add(long n) {
            long tid = Thread.currentThread().getId();
            long[][] tab = (long[][]) TABLE.getAcquire(this);
            long[] c = (long[]) CELLS.getAcquire(tab, (int) tid & (tab.length - 1));
            if (c != null && c[0] == tid && limit <= c.length) {
                LONGS.setOpaque(c, offset, c[offset] + n);
                return;
            }
            install(tid);
            add(n);
        }

        synchronized void install(long tid) {
            long[] c = new long[64];
            c[0] = tid;
            CELLS.setRelease(table, (int) tid & (table.length - 1), c);
        }
    }

    static final VarHandle CELLS = MethodHandles.arrayElementVarHandle(long[][].class);

    /** statvar's block table, the table field in the (non-record) handle instead of behind the engine. */
    static final class BlockTableHandle {
        static final VarHandle TABLE;

        static {
            try {
                TABLE = MethodHandles.lookup().findVarHandle(BlockTableHandle.class, "table", Block[].class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        Block[] table = new Block[64];
        final int offset;
        final int limit;

        BlockTableHandle(int offset, int limit) {
            this.offset = offset;
            this.limit = limit;
        }

        void add(long n) {
            if (!addInBlockTable((Block[]) TABLE.getAcquire(this), offset, limit, n)) {
                install(Thread.currentThread());
                add(n);
            }
        }

        synchronized void install(Thread t) {
            BLOCKS.setRelease(table, (int) t.getId() & (table.length - 1), new Block(t));
        }
    }

    /** Pairs (owner, cells) in a table behind the engine, as statvar's record handle reaches it. */
    static final class PairEngine {
        Object[] table = new Object[128];

        void add(int offset, int limit, long n) {
            if (!addInPairTable((Object[]) PAIR_ENGINE_TABLE.getAcquire(this), offset, limit, n)) {
                install(Thread.currentThread());
                add(offset, limit, n);
            }
        }

        synchronized void install(Thread t) {
            installPair(table, t);
        }
    }

    static final VarHandle PAIR_ENGINE_TABLE;

    static {
        try {
            PAIR_ENGINE_TABLE = MethodHandles.lookup().findVarHandle(PairEngine.class, "table", Object[].class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    record PairEngineHandle(PairEngine engine, int offset, int limit) {
        void add() {
            engine.add(offset, limit, 1);
        }
    }

    /** A handle as statvar's: a record holding the engine and the cell's place. */
    record BlockHandle(BlockEngine engine, int offset, int limit) {
        void add() {
            engine.add(offset, limit, 1);
        }
    }

    @State(Scope.Benchmark)
    public static class Shared {
        StatRegistry registry;
        dev.statvar.Counter counter;
        BlockHandle block = new BlockHandle(new BlockEngine(), CELL, CELL + 17);
        StatTable cells = new StatTable();
        StatTable slots = new StatTable();
        StatTable paddedCells = new StatTable();
        Adder paddedCellAdder = new PaddedCellAdder();

        @Setup(Level.Trial)
        public void loadOtherAdder() {
            new OtherAdder().add();
        }
        LongAdder adder = new LongAdder();
        PairHandle pair = new PairHandle(CELL, CELL + 17);
        TidHandle tid = new TidHandle(CELL, CELL + 17);
        BlockTableHandle blockInHandle = new BlockTableHandle(CELL, CELL + 17);
        PairEngineHandle pairEngine = new PairEngineHandle(new PairEngine(), CELL, CELL + 17);

        @Setup(Level.Trial)
        public void setup() {
            registry = StatRegistry.create();
            counter = registry.counter("c");
        }
    }

    @State(Scope.Thread)
    public static class Confined {
        long[] cells = new long[2 * CELL - 1];
    }

    /** The benchmark thread's views, made by that thread (JMH runs a thread-scoped state's setup on its thread). */
    @State(Scope.Thread)
    public static class Views {
        PaddedCellView cell;
        Adder cellAsAdder;
        dev.statvar.Counter statvarView;

        @Setup(Level.Trial)
        public void setup(Shared shared) {
            cell = new PaddedCellView(Thread.currentThread());
            cellAsAdder = new PaddedCellView(Thread.currentThread());
            statvarView = shared.counter.localView();
        }
    }

    /** The reference: a plain read and an opaque store to a cell only this thread writes. */
    @Benchmark
    public void confined(Confined s) {
        long[] a = s.cells;
        LONGS.setOpaque(a, CELL, a[CELL] + 1);
    }

    @Benchmark
    public void statvarAdd(Shared s) {
        s.counter.add();
    }

    @Benchmark
    public void blockTable(Shared s) {
        s.block.add();
    }

    @Benchmark
    public void statTableCell(Shared s) {
        s.cells.addCell(1);
    }

    @Benchmark
    public void statTablePaddedCell(Shared s) {
        s.paddedCells.addPaddedCell(1);
    }

    @Benchmark
    public void statTablePaddedCellViaInterface(Shared s) {
        s.paddedCellAdder.add();
    }

    @Benchmark
    public void statTableSlot(Shared s) {
        s.slots.addSlot(1);
    }

    @Benchmark
    public void pairHandle(Shared s) {
        s.pair.add(1);
    }

    @Benchmark
    public void tidHandle(Shared s) {
        s.tid.add(1);
    }

    @Benchmark
    public void blockTableInHandle(Shared s) {
        s.blockInHandle.add(1);
    }

    @Benchmark
    public void pairTableBehindEngine(Shared s) {
        s.pairEngine.add();
    }

    @Benchmark
    public void viewOwnerChecked(Views v) {
        v.cell.add();
    }

    @Benchmark
    public void viewOwnerCheckedViaInterface(Views v) {
        v.cellAsAdder.add();
    }

    @Benchmark
    public void statvarLocalViewAdd(Views v) {
        v.statvarView.add();
    }

    @Benchmark
    public void longAdder(Shared s) {
        s.adder.increment();
    }
}
