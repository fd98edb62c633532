package dev.statvar.internal;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * Test-only switches, each removing ONE synchronisation step from one of statvar's cross-thread
 * protocols, so that the jcstress module (statvar-jcstress) can run statvar's own classes with
 * that step gone and show that its tests catch the regression. Never set in production.
 *
 * <p>The system property {@value #PROPERTY} names the switches to turn on, separated by commas;
 * unset or empty, all are off. It is read once, when this class initialises (a jcstress test sets
 * it in a static initialiser of its own, before statvar's first update or collect in its JVM).
 * The switches are {@code static final}: the JIT folds each {@code if (Broken.X)} to nothing
 * when X is off, so they cost production code nothing. An unknown name fails the initialisation
 * of this class, so that a misspelt switch cannot pass for a working one. When any switch is on,
 * initialising this class logs one WARNING ({@link System.Logger}, logger {@value #LOGGER})
 * naming the switches and saying that synchronisation is removed, so that a stray
 * {@code -D}{@value #PROPERTY} in a production launch cannot go unnoticed; with none on, nothing
 * is logged and no logger is looked up.
 *
 * <p>Threading: every field is written once, by class initialisation, and read by any thread
 * after it (the JVM's class-initialisation lock orders the two); nothing here changes afterwards.
 * This package is not exported by the module {@code dev.statvar} (module-info): on the module
 * path no other module can reach this class; statvar-jcstress uses it from the class path.
 *
 * <p>What each switch removes (the access it names carries a one-line comment where it is tested):
 * <ul>
 *   <li>{@link #NO_ISALIVE}: {@code Engine.collect()} folds (reads, retires and drops) a thread's
 *       block without first checking that its owner has terminated ({@code Thread.isAlive()},
 *       which happens-after every write of that thread). A live thread's later updates go into
 *       a block nobody reads.</li>
 *   <li>{@link #COUNT_FIRST}: {@code GaugeCells.report()} publishes the report's count before
 *       its min/max and sum stores instead of after them (release). That is the reordering a
 *       plain count store allows a weakly ordered CPU; x86 never reorders stores, so the store is
 *       moved in program order to make it happen here. The writer's own numbering of its
 *       reports is unchanged.</li>
 *   <li>{@link #BUCKET_FIRST}: the same for a histogram record: {@code HistogramCells.record()}
 *       publishes the bucket count (release) before the record's min/max and sum.</li>
 *   <li>{@link #VIEW_ANY_THREAD}: {@code LocalCounter.add()} (a counter's local view) skips its owner check, so a thread
 *       that is not the view's owner writes the owner's single-writer cell.</li>
 *   <li>{@link #GROW_UNLOCKED}: {@code ThreadTable.grow()} copies a thread's cell array into a longer
 *       one without the engine lock, which otherwise excludes the collector's writes to that
 *       array (EPOCH, G_SEEN) while they are copied.</li>
 *   <li>{@link #SEEN_FIRST}: {@code MinMaxSlots.read()} stores G_SEEN, the count it attributes to
 *       the interval, before it reads the writer's min/max slots instead of after them (release).
 *       A writer retagging meanwhile sees it and drops its previous slot, which still holds
 *       reports this read counts: they are missing from the interval's min/max.</li>
 *   <li>{@link #BUCKETS_UPWARD}: {@code HistogramCells.readBuckets()} reads a histogram array's
 *       buckets from the lowest up instead of from the highest down, so a record stored into a
 *       bucket the read has passed can be missed while the writer's later record in a higher
 *       bucket is counted.</li>
 *   <li>{@link #CARDS_CLEARED_LAST}: {@code Stripes.read()} clears the dirty cards it took after
 *       reading the cells under them (at the next read) instead of before, so an update stored
 *       after the read finds its card still dirty, does not mark it, and is left under a clean
 *       card by the late clear: no later collect reads it.</li>
 *   <li>{@link #REUSE_HELD}: {@code Engine.collect()} reclaims a removed counter's or gauge's
 *       cells without waiting for its handle to become unreachable, and a reclaimed histogram's
 *       slow paths ({@code ThreadTable.histogram}, {@code Stripes.record}) write into its slot's
 *       current arrays instead of dropping the record, so a stale handle's updates count into
 *       the series that reuses the slot.</li>
 * </ul>
 */
public final class Broken {
    /** The system property naming the switches to turn on. */
    public static final String PROPERTY = "statvar.broken";
    /** Every switch name. */
    public static final List<String> NAMES = List.of("NO_ISALIVE", "COUNT_FIRST", "BUCKET_FIRST", "VIEW_ANY_THREAD",
            "GROW_UNLOCKED", "REUSE_HELD", "SEEN_FIRST", "BUCKETS_UPWARD", "CARDS_CLEARED_LAST");
    /** The property's value when this class initialised ("" when unset). */
    public static final String ORDERING = System.getProperty(PROPERTY, "");
    /** The switches turned on. */
    public static final Set<String> ON = parse(ORDERING);
    /** The name of the System.Logger the WARNING goes to. */
    public static final String LOGGER = "dev.statvar";

    static {
        warnIfAnyOn(ON, () -> System.getLogger(LOGGER));
    }

    /** Collect folds a block without its owner's {@code isAlive()} check (see the class comment). */
    public static final boolean NO_ISALIVE = ON.contains("NO_ISALIVE");
    /** A gauge report publishes its count before its min/max and sum (see the class comment). */
    public static final boolean COUNT_FIRST = ON.contains("COUNT_FIRST");
    /** A histogram record publishes its bucket count before its min/max and sum (see the class comment). */
    public static final boolean BUCKET_FIRST = ON.contains("BUCKET_FIRST");
    /** A counter's local view skips its owner check (see the class comment). */
    public static final boolean VIEW_ANY_THREAD = ON.contains("VIEW_ANY_THREAD");
    /** A thread's cell array grows without the engine lock (see the class comment). */
    public static final boolean GROW_UNLOCKED = ON.contains("GROW_UNLOCKED");
    /** Collect reclaims a removed stat's cells while its handle is still reachable (see the class comment). */
    public static final boolean REUSE_HELD = ON.contains("REUSE_HELD");
    /** The collector records a writer's reports as read before reading its min/max slots (see the class comment). */
    public static final boolean SEEN_FIRST = ON.contains("SEEN_FIRST");
    /** The collector reads a histogram array's buckets upwards (see the class comment). */
    public static final boolean BUCKETS_UPWARD = ON.contains("BUCKETS_UPWARD");
    /** The collector clears the stripes' dirty cards after reading the cells under them (see the class comment). */
    public static final boolean CARDS_CLEARED_LAST = ON.contains("CARDS_CLEARED_LAST");

    private Broken() {
    }

    /**
     * The switch names in {@code value} (comma-separated, blanks ignored).
     *
     * @throws IllegalArgumentException on a name that is not a switch
     */
    static Set<String> parse(String value) {
        Set<String> on = new TreeSet<>();
        for (String s : value.split(",")) {
            String name = s.trim();
            if (name.isEmpty()) {
                continue;
            }
            if (!NAMES.contains(name)) {
                throw new IllegalArgumentException("-D" + PROPERTY + "=" + value + ": unknown switch '" + name
                        + "'; the switches are " + NAMES);
            }
            on.add(name);
        }
        return Collections.unmodifiableSet(on);
    }

    /**
     * Logs the WARNING to the logger {@code logger} supplies when {@code on} is not empty; looks
     * no logger up otherwise.
     *
     * @return whether it logged
     */
    static boolean warnIfAnyOn(Set<String> on, Supplier<System.Logger> logger) {
        if (on.isEmpty()) {
            return false;
        }
        logger.get().log(System.Logger.Level.WARNING, warning(on));
        return true;
    }

    /** The WARNING logged when the switches {@code on} (not empty) are on. */
    static String warning(Set<String> on) {
        return "statvar test switches " + on + " are on (-D" + PROPERTY + "): synchronisation is removed from"
                + " statvar's cross-thread protocols and its counts may be wrong; this process must not be used"
                + " for anything but tests";
    }

    /**
     * For error messages: the switches turned on.
     *
     * @return e.g. {@code [NO_ISALIVE]}; {@code []} when none is on
     */
    public static String describe() {
        return Arrays.toString(ON.toArray(new String[0]));
    }
}
