package dev.statvar.internal;

import dev.statvar.StatRegistry;

import java.lang.ref.WeakReference;
import java.lang.reflect.Field;
import java.util.Map;

/** Reflective access to an engine's private state, for tests of its lookup structures. */
final class EngineProbe {
    private EngineProbe() {
    }

    static Engine engine(StatRegistry r) {
        return (Engine) get(StatRegistry.class, r, "engine");
    }

    /** Stat slots the engine has made (registered, removed and not yet reused): its StatList's size. */
    static int slots(Engine e) {
        return ((Registrations) get(Engine.class, e, "registrations")).stats().size();
    }

    /** Reclaimed slots waiting for a registration of their kind. */
    static int freeSlots(Engine e) {
        synchronized (lock(e)) {
            Registrations r = (Registrations) get(Engine.class, e, "registrations");
            return ((java.util.Collection<?>) get(Registrations.class, r, "freeCounters")).size()
                    + ((java.util.Collection<?>) get(Registrations.class, r, "freeGauges")).size();
        }
    }

    /** Histogram slots the engine has made (registered, removed, free): its histograms' list size. */
    static int histogramSlots(Engine e) {
        synchronized (lock(e)) {
            Registrations r = (Registrations) get(Engine.class, e, "registrations");
            return r.histograms().length;
        }
    }

    /** The engine's lock (registration, blocks, the collector's reading of live arrays). */
    static Object lock(Engine e) {
        return get(Engine.class, e, "lock");
    }

    /** The engine lock of a histogram's registry (its table and slots are written under it). */
    static Object lock(HistogramImpl h) {
        ThreadTable threads = (ThreadTable) get(Writers.class, h.writers(), "threads");
        return get(ThreadTable.class, threads, "engineLock");
    }

    /** Slots of the engine's thread lookup table. */
    static int tableLength(Engine e) {
        synchronized (lock(e)) {
            return ((Block[]) get(ThreadTable.class, threads(e), "table")).length;
        }
    }

    /** Whether live thread {@code t}'s block is held in the map of threads that collided in the table. */
    static boolean spilled(Engine e, Thread t) {
        synchronized (lock(e)) {
            return ((Map<?, ?>) get(ThreadTable.class, threads(e), "spilled")).containsKey(t);
        }
    }

    /** Number of blocks in the map of threads that collided in the table. */
    static int spilledCount(Engine e) {
        synchronized (lock(e)) {
            return ((Map<?, ?>) get(ThreadTable.class, threads(e), "spilled")).size();
        }
    }

    /**
     * Forgets the calling thread's ThreadLocal reference to its block, as a pool that erases
     * ThreadLocals after each task does (the JDK 21+ common pool).
     */
    @SuppressWarnings("unchecked")
    static void eraseThreadLocal(Engine e) {
        ((ThreadLocal<WeakReference<Block>>) get(ThreadTable.class, threads(e), "ownBlock")).remove();
    }

    /** The calling thread's Block in {@code r}'s engine, or null if it has none in the table. */
    static Block myBlock(StatRegistry r) {
        return threads(engine(r)).lookup(Thread.currentThread());
    }

    /** Number of stripes (the cells of virtual threads) of the engine. */
    static int stripeCount(Engine e) {
        return ((Object[]) get(Stripes.class, get(Engine.class, e, "stripes"), "stripes")).length;
    }

    /** The stripes of the engine (the cells of virtual and cold threads). */
    static Stripe[] stripes(Engine e) {
        return (Stripe[]) get(Stripes.class, get(Engine.class, e, "stripes"), "stripes");
    }

    /** The engine's thread table. */
    static ThreadTable threads(Engine e) {
        return (ThreadTable) get(Engine.class, e, "threads");
    }

    /** The stat of registration index {@code i}. */
    static Stat stat(Engine e, int i) {
        return ((Registrations) get(Engine.class, e, "registrations")).stats().get(i);
    }

    private static Object get(Class<?> c, Object o, String name) {
        try {
            Field f = c.getDeclaredField(name);
            f.setAccessible(true);
            return f.get(o);
        } catch (ReflectiveOperationException ex) {
            throw new AssertionError(ex);
        }
    }
}
