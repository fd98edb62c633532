package dev.statvar.internal;

/**
 * statvar-jcstress's door to the min/max protocol's own classes ({@link MinMaxSlots},
 * {@link GaugeCells}), which are package-private: the jcstress test {@code RetagVsRead} runs them
 * on one gauge's cells, laid out as the engine lays out a thread's gauge array. Not a copy of the
 * protocol: every step below calls statvar's code. On the class path only (jcstress runs there).
 */
public final class MinMaxSlotsAccess {
    /** The gauge's offset in the array: the first gauge of a thread's gauge array. */
    public static final int OFF = Layout.DATA_START;
    /** The interval the collector closes in the race (it has switched the array to CLOSING + 1). */
    public static final long CLOSING = 2;
    /** The writer's count the collector read before the race: reports 1 .. 4. */
    public static final long COUNT = 4;

    private MinMaxSlotsAccess() {
    }

    /**
     * One writer's gauge cells just before the race, built with the engine's own calls:
     * reports 1 and 100 in interval 1, which the collector reads (its G_SEEN: 2); then report 50,
     * which read epoch 1 before that switch and stored after that read (a writer preempted
     * mid-report), and report 60 of epoch 2, whose retag makes the slot holding 1, 100 and 50 the
     * previous one; then the collector switches to epoch 3 and reads the count, 4. So interval 2
     * counts reports 3 and 4 (50 and 60), and 50 is only in the previous slot.
     */
    public static long[] inFlightThenSwitched() {
        long[] c = CellArrays.create(Layout.DATA_START + Layout.GAUGE_CELLS + Layout.PAD, 1, 1);
        GaugeCells.report(c, OFF, 1);
        GaugeCells.report(c, OFF, 100);
        CellArrays.switchEpoch(c, 2);
        MinMaxSlots.MinMax m = new MinMaxSlots.MinMax();
        MinMaxSlots.read(c, OFF, GaugeCells.readCount(c, OFF), 1, m);
        c[Layout.EPOCH] = 1; // the next report read the epoch before the switch ...
        GaugeCells.report(c, OFF, 50);
        c[Layout.EPOCH] = 2; // ... and stored after the read
        GaugeCells.report(c, OFF, 60);
        CellArrays.switchEpoch(c, CLOSING + 1);
        if (GaugeCells.readCount(c, OFF) != COUNT) {
            throw new IllegalStateException("the cells were not built as documented");
        }
        return c;
    }

    /** The writer's report of {@code v} into its cells (the fast path's body). */
    public static void report(long[] c, long v) {
        GaugeCells.report(c, OFF, v);
    }

    /**
     * The collector's read of interval {@link #CLOSING}, counting reports up to {@link #COUNT}.
     *
     * @return {min, max, 1 if exact else 0}; {0, 0, -1} when it found no min/max
     */
    public static long[] read(long[] c) {
        MinMaxSlots.MinMax m = new MinMaxSlots.MinMax();
        MinMaxSlots.read(c, OFF, COUNT, CLOSING, m);
        return m.has ? new long[]{m.min, m.max, m.inexact ? 0 : 1} : new long[]{0, 0, -1};
    }

    /** After the race: 1 if the writer's retag dropped the previous slot (ADJACENT set), 0 if it merged it. */
    public static long droppedPrevious(long[] c) {
        return c[OFF + Layout.G_PLAST] < 0 ? 1 : 0;
    }
}
