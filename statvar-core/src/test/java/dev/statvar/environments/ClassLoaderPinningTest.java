package dev.statvar.environments;

import dev.statvar.StatRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.ref.WeakReference;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A web application or plugin: statvar-core's classes loaded by a class loader of their own (a
 * URLClassLoader over target/classes whose parent is the platform loader, so that the classes
 * are that loader's, not the application loader's), used from a long-lived pool thread that
 * outlives the application (a container's shared pool). Once every reference to the registry,
 * its stats and the loader is dropped, the loader must be collectable while the pool thread
 * is still alive: nothing statvar leaves on that thread (a ThreadLocal value of a statvar
 * class, say) may pin it.
 */
@Tag("stress")
@Tag(Env.TAG)
class ClassLoaderPinningTest {
    /** System.gc() at most this many times, {@value #GC_PAUSE_MS} ms apart, waiting for the loader to go. */
    static final int GC_ATTEMPTS = 50;
    static final long GC_PAUSE_MS = 20;

    /** Created by the test from the application loader; outlives every registry. */
    private ExecutorService pool;
    private Thread poolThread;

    @BeforeEach
    void startPool() throws Exception {
        pool = Executors.newSingleThreadExecutor(r -> new Thread(r, "long-lived-pool-thread"));
        poolThread = pool.submit(Thread::currentThread).get(10, TimeUnit.SECONDS);
    }

    @AfterEach
    void stopPool() throws Exception {
        pool.shutdown();
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aLoaderWhoseStatsWereUsedOnALiveThreadIsCollectable() throws Exception {
        WeakReference<ClassLoader> loader = useInOwnLoader(true, true);
        assertCollectable(loader, "counter, gauge, histogram and their local views updated and collected on the pool thread");
    }

    /** As above without a histogram: what the thread's own storage (a ThreadLocal value, say) does alone. */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aLoaderWhoseCountersAndGaugesWereUpdatedOnALiveThreadIsCollectable() throws Exception {
        WeakReference<ClassLoader> loader = useInOwnLoader(true, false);
        assertCollectable(loader, "counter, gauge and their local views updated and collected on the pool thread");
    }

    /**
     * A histogram registered and collected, never updated: nothing is left on the pool thread,
     * but collect() calls the generated equals() of a record (HistogramPrecision, in
     * HistogramValue.withTotals), whose bootstrap leaves the record class in the asType cache
     * of a JDK-wide method handle in java.lang.runtime.ObjectMethods, strongly on JDK 17 and
     * softly on JDK 25, until some other record's equals() is linked.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aLoaderWhoseHistogramWasCollectedIsCollectable() throws Exception {
        WeakReference<ClassLoader> loader = useInOwnLoader(false, true);
        assertCollectable(loader, "a histogram registered and collected on the pool thread, never updated");
    }

    /**
     * The control: the same loader, registry, counter and gauge, registered and collected on the
     * pool thread but never updated. It shows that the harness (loader, reflection, pool, GC loop)
     * lets the loader go, so that a failure of the tests above is statvar's.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void controlALoaderWhoseCounterAndGaugeWereOnlyRegisteredIsCollectable() throws Exception {
        WeakReference<ClassLoader> loader = useInOwnLoader(false, false);
        assertCollectable(loader, "control: counter and gauge registered and collected on the pool thread, never updated");
    }

    private void assertCollectable(WeakReference<ClassLoader> loader, String what) throws InterruptedException {
        int gcs = 0;
        while (loader.get() != null && gcs < GC_ATTEMPTS) {
            System.gc();
            gcs++;
            Thread.sleep(GC_PAUSE_MS);
        }
        boolean cleared = loader.get() == null;
        System.out.printf("ClassLoaderPinningTest (JDK %s), %s: loader %s after %d System.gc() calls; pool thread alive: %s%n",
                Runtime.version(), what, cleared ? "collected" : "NOT collected", gcs, poolThread.isAlive());
        assertTrue(poolThread.isAlive(), "the pool thread must still be alive for the check to mean anything");
        assertTrue(cleared, "the class loader of statvar-core (" + what + ") is still reachable after " + gcs
                + " System.gc() calls while the pool thread that used it is alive: something statvar left on that"
                + " thread pins it");
    }

    /**
     * Loads statvar-core in a fresh loader, creates a registry through reflection and uses it on
     * the pool thread: registers a counter and a gauge (and a histogram if {@code histogram}),
     * updates them if {@code update} (add/report/record, also through local views), collects;
     * returns only a weak reference to the loader: everything else becomes unreachable here.
     */
    private WeakReference<ClassLoader> useInOwnLoader(boolean update, boolean histogram) throws Exception {
        URL classes = StatRegistry.class.getProtectionDomain().getCodeSource().getLocation();
        URLClassLoader loader = new URLClassLoader("statvar-app", new URL[]{classes}, ClassLoader.getPlatformClassLoader());
        Class<?> registryClass = Class.forName("dev.statvar.StatRegistry", true, loader);
        assertNotSame(StatRegistry.class, registryClass);
        assertEquals(loader, registryClass.getClassLoader(), "statvar's classes must be the new loader's own");
        String result = pool.submit(() -> exercise(registryClass, update, histogram)).get(30, TimeUnit.SECONDS);
        System.out.println("  on the pool thread: " + result);
        loader.close(); // closes the jar/dir handles; the loader object stays until unreachable
        return new WeakReference<>(loader);
    }

    /** On the pool thread: a registry of the loaded classes, its stats used, a collect. Returns a summary. */
    private static String exercise(Class<?> registryClass, boolean update, boolean withHistogram) throws Exception {
        Object registry = registryClass.getMethod("create").invoke(null);
        Object counter = registryClass.getMethod("counter", String.class).invoke(registry, "c");
        Object gauge = registryClass.getMethod("gauge", String.class).invoke(registry, "g");
        Object histogram = withHistogram ? registryClass.getMethod("histogram", String.class).invoke(registry, "h") : null;
        Class<?> counterType = registryClass.getClassLoader().loadClass("dev.statvar.Counter");
        Class<?> gaugeType = registryClass.getClassLoader().loadClass("dev.statvar.Gauge");
        Class<?> histogramType = registryClass.getClassLoader().loadClass("dev.statvar.Histogram");
        if (update) {
            Method add = counterType.getMethod("add");
            Method report = gaugeType.getMethod("report", long.class);
            Method record = histogramType.getMethod("record", long.class);
            Object cv = counterType.getMethod("localView").invoke(counter);
            Object gv = gaugeType.getMethod("localView").invoke(gauge);
            Object hv = withHistogram ? histogramType.getMethod("localView").invoke(histogram) : null;
            for (int i = 1; i <= 1_000; i++) {
                add.invoke(counter);
                add.invoke(cv);
                report.invoke(gauge, (long) i);
                report.invoke(gv, (long) i);
                if (withHistogram) {
                    record.invoke(histogram, (long) i);
                    record.invoke(hv, (long) i);
                }
            }
        }
        Object snapshot = registryClass.getMethod("collect").invoke(registry);
        Object c = snapshot.getClass().getMethod("counter", String.class).invoke(snapshot, "c");
        long expected = update ? 2_000 : 0;
        if (((Long) c) != expected) {
            throw new AssertionError("counter " + c + ", expected " + expected);
        }
        return "counter " + c + " (" + (update ? "updated" : "never updated") + (withHistogram ? ", with a histogram" : "") + ")";
    }
}
