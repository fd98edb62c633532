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
 * Where the any-thread counter update's time goes (issue 14): the same thread-confined increment
 * reached through different lookups of the calling thread's storage, beside statvar's
 * {@code add()} and LongAdder. Stand-alone replicas, not statvar's classes:
 * <ul>
 *   <li>{@code blockTable}: statvar's design (a per-registry table of per-thread blocks, slot by
 *       thread id, owner compared, the cell at a run-time offset in the block's array, a length check);</li>
 *   <li>{@code statTableCell}: a per-stat table of per-thread cell objects (owner, value): fewer
 *       dependent loads, the cell at a constant field offset, but one unpadded object per (thread, stat);</li>
 *   <li>{@code statTableSlot}: the same with a padded one-stat array per (thread, stat), like a local view.</li>
 * </ul>
 * A first look (AMD EPYC, 2 cores, JDK 17, -f 1, under load, so indicative only): confined 0.8,
 * statTableCell 1.7-1.9, statTableSlot 2.1-2.4, blockTable and statvar 3.0-3.3, LongAdder 2.6 ns.
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

    /** One thread's cell of one stat, as an object. */
    static final class Cell {
        final Thread owner;
        long value;

        Cell(Thread owner) {
            this.owner = owner;
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
            Thread t = Thread.currentThread();
            Block[] tab = (Block[]) BLOCK_TABLE.getAcquire(this);
            Block b = (Block) BLOCKS.getAcquire(tab, (int) t.getId() & (tab.length - 1));
            if (b != null && b.owner == t) {
                long[] c = b.cells;
                if (limit <= c.length) {
                    LONGS.setOpaque(c, off, c[off] + n);
                    return;
                }
            }
            install(t);
            add(off, limit, n);
        }

        synchronized void install(Thread t) {
            BLOCKS.setRelease(table, (int) t.getId() & (table.length - 1), new Block(t));
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
        LongAdder adder = new LongAdder();

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
    public void statTableSlot(Shared s) {
        s.slots.addSlot(1);
    }

    @Benchmark
    public void longAdder(Shared s) {
        s.adder.increment();
    }
}
