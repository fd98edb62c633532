package dev.statvar.probes.internal;

import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Test-only switches of statvar-probes, each removing ONE synchronisation step from one of the
 * probes' cross-thread protocols, so that statvar-jcstress can run the probes' own classes with
 * that step gone and show that its tests catch the regression (the pattern of statvar-core's
 * {@code dev.statvar.internal.Broken}). Never set in production. Not exported by the module.
 *
 * <p>The system property {@value #PROPERTY} names the switches to turn on, comma-separated; unset
 * or empty, all are off. It is read once, when this class initialises; the switches are
 * {@code static final}, so the JIT folds each {@code if (Broken.X)} away when X is off. An unknown
 * name fails the initialisation of this class, so that a misspelt switch cannot pass for a working one.
 *
 * <ul>
 *   <li>{@link #HANDOFF_NO_RECHECK}: {@code OrderedScheduler.run} leaves its task in the ring
 *       without re-reading {@code next} after publishing it. When the previous ticket's thread
 *       advanced {@code next} and looked at the slot just before the task landed, nobody runs
 *       the task: the hand-off race of the scheduler, lost.</li>
 * </ul>
 */
public final class Broken {
    /** The system property naming the switches to turn on. */
    public static final String PROPERTY = "statvar.probes.broken";
    /** Every switch name. */
    public static final List<String> NAMES = List.of("HANDOFF_NO_RECHECK");
    /** The property's value when this class initialised ("" when unset). */
    public static final String ORDERING = System.getProperty(PROPERTY, "");
    /** The switches turned on. */
    public static final Set<String> ON = parse(ORDERING);

    public static final boolean HANDOFF_NO_RECHECK = ON.contains("HANDOFF_NO_RECHECK");

    private Broken() {
    }

    /** The switch names in {@code value}; an unknown one throws IllegalArgumentException naming it. */
    static Set<String> parse(String value) {
        Set<String> on = new TreeSet<>();
        for (String s : value.split(",")) {
            String name = s.trim();
            if (!name.isEmpty() && !NAMES.contains(name)) {
                throw new IllegalArgumentException("-D" + PROPERTY + "=" + value + ": unknown switch '" + name
                        + "'; the switches are " + NAMES);
            }
            if (!name.isEmpty()) {
                on.add(name);
            }
        }
        return Collections.unmodifiableSet(on);
    }
}
