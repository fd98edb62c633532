package dev.statvar.internal;

import dev.statvar.Counter;

/**
 * One platform thread's cell of one counter, and that thread's local view of the counter: the
 * cumulative total of the thread's adds. Written only by {@link #owner} ({@link #add}, or the
 * counter's any-thread path through {@link CounterCells#add(CounterCell, long)}), read by the
 * collector ({@link CounterCells#read(CounterCell)}). Found on the any-thread path through the
 * counter's table ({@link CounterImpl}), by the collector through the owner's {@link Block}.
 * Used as a view from another thread, it adds through the shared counter instead.
 *
 * <pre>
 * Design
 * ------
 * A per-(thread, counter) object, not a cell in the thread's flat array: the any-thread update
 * reaches the value in three dependent loads from the handle (table, cell, value; the owner is on
 * the value's line), where the flat array needs five (thread table, block, array, cell, plus
 * the array's length check); ThreadLookupBenchmark measured that difference as the one between
 * beating LongAdder by about 1.5x and not beating it (docs/PERFORMANCE.md). As a view, the cell
 * is the handle: one load of the view, then the owner and the value on one line. The price is
 * memory: one padded object per thread per counter it adds to (152 bytes with compressed
 * references, against 8 in the flat array).
 *
 * Padding. The value is the first long field and Layout.FALSE_SHARING_BYTES - 8 bytes of padding
 * fields follow it (HotSpot lays out fields of one size in declaration order after the header
 * gap, which the owner reference fills; CounterCellLayoutTest checks it on every JDK the build
 * runs). So two cells' values are at least FALSE_SHARING_BYTES apart in any order a moving
 * collector leaves them in; only the header bytes before a value can share its line with the
 * end of another object.
 * </pre>
 */
final class CounterCell extends PerThread implements Counter {
    /** The cumulative total: owner writes (opaque), collector reads (opaque); pairing COUNT. */
    long value;
    // Padding after the value: Layout.FALSE_SHARING_BYTES - 8 bytes (15 longs). Never read or written.
    @SuppressWarnings("unused")
    private long p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
    /** The counter, for other threads using this view. */
    private final CounterImpl shared;

    /** Padding longs after the value; must cover {@link Layout#FALSE_SHARING_BYTES} - 8 bytes. */
    static final int PADDING_LONGS = 15;

    static {
        if (PADDING_LONGS * Long.BYTES != Layout.FALSE_SHARING_BYTES - Long.BYTES) {
            throw new ExceptionInInitializerError("CounterCell padding does not match Layout.FALSE_SHARING_BYTES");
        }
    }

    CounterCell(Thread owner, CounterImpl shared) {
        super(owner);
        this.shared = shared;
    }

    @Override
    public void add() {
        if (Thread.currentThread() == owner || Broken.VIEW_ANY_THREAD) { // test-only switch: VIEW_ANY_THREAD skips the owner check
            CounterCells.add(this, 1);
        } else {
            shared.add(1);
        }
    }

    @Override
    public void add(long n) {
        if (n < 0) {
            throw CounterImpl.negative(shared.name, n);
        }
        if (Thread.currentThread() == owner || Broken.VIEW_ANY_THREAD) { // test-only switch: see add()
            CounterCells.add(this, n);
        } else {
            shared.add(n);
        }
    }

    @Override
    public Counter localView() {
        return Thread.currentThread() == owner ? this : shared.localView();
    }

    @Override
    public String name() {
        return shared.name;
    }

    @Override
    public String toString() {
        return "Counter[" + shared.name + ", local to " + owner.getName() + "]";
    }
}
