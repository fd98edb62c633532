package dev.statvar;

import dev.statvar.testsupport.LogCapture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.LogRecord;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bad input, each with the exact exception and message it gets, and the documented behaviour at the edges
 * (overflow, caps, concurrent collects, odd sinks). Complements StatRegistryTest, StatFamilyTest, HistogramTest,
 * OverflowTest and CollectorTest, which cover the counter/gauge basics; this file covers the rest.
 * Every wait is bounded; the concurrent tests run well under a second each.
 */
class BadInputTest {

    // ------------------------------------------------------------------ names, help, labels

    @ParameterizedTest
    @ValueSource(strings = {"1abc", "a-b", "a b", "x{y}", "é", "rate%"})
    void invalidNamesFailForHistogramsAndEveryFamily(String name) {
        StatRegistry r = StatRegistry.create();
        int at = 0;
        while (at < name.length() && (Character.isLetter(name.charAt(at)) && name.charAt(at) < 128 || name.charAt(at) == '_')) {
            at++;
        }
        String expected = "invalid stat name '" + name + "': character " + (at + 1) + " ('" + name.charAt(at)
                + "') is not allowed; names must match [a-zA-Z_:][a-zA-Z0-9_:]*";
        assertMessage(expected, () -> r.histogram(name));
        assertMessage(expected, () -> r.counterFamily(name, "", "a"));
        assertMessage(expected, () -> r.gaugeFamily(name, "", "a"));
        assertMessage(expected, () -> r.histogramFamily(name, "", HistogramPrecision.DEFAULT, "a"));
        assertEquals(0, r.size(), "nothing registered");
    }

    @Test
    void nullAndEmptyNamesAndNullHelpFailForEveryKind() {
        StatRegistry r = StatRegistry.create();
        assertMessage("stat name must not be null", () -> r.histogram(null));
        assertMessage("stat name must not be null", () -> r.counterFamily(null, "", "a"));
        assertMessage("stat name must not be empty", () -> r.histogram(""));
        assertMessage("stat name must not be empty", () -> r.gaugeFamily("", "", "a"));
        assertMessage("help of 'h' must not be null (use \"\" for none)", () -> r.histogram("h", null));
        assertMessage("help of 'f' must not be null (use \"\" for none)", () -> r.counterFamily("f", null, "a"));
        NullPointerException npe = assertThrows(NullPointerException.class, () -> r.histogram("h", "", null));
        assertEquals("precision", npe.getMessage());
        npe = assertThrows(NullPointerException.class, () -> r.counterFamily("f", "", (String[]) null));
        assertEquals("labelNames", npe.getMessage());
        assertEquals(0, r.size());
    }

    @Test
    void badLabelNamesFailNamingTheName() {
        StatRegistry r = StatRegistry.create();
        assertMessage("counter family f1[a, null]: label name 2 is null", () -> r.counterFamily("f1", "", "a", null));
        assertMessage("counter family f2[]: label name 1 is empty", () -> r.counterFamily("f2", "", ""));
        assertMessage("gauge family f3[a-b]: invalid label name 'a-b': character 2 ('-') is not allowed; label names"
                + " must match [a-zA-Z_][a-zA-Z0-9_]*", () -> r.gaugeFamily("f3", "", "a-b"));
        assertMessage("labels: invalid label name '1a': character 1 ('1') is not allowed; label names must match"
                + " [a-zA-Z_][a-zA-Z0-9_]*", () -> Labels.of("1a", "v"));
        assertMessage("labels come in name, value pairs; got 3 strings", () -> Labels.of("a", "1", "b"));
        assertMessage("labels: the value of label 'a' is null", () -> Labels.of("a", null));
        assertMessage("labels: label name 'x' is given twice", () -> Labels.of("x", "1", "x", "2"));
    }

    @Test
    void badLabelValuesFailNamingTheFamilyAndTheLabel() {
        StatRegistry r = StatRegistry.create();
        StatFamily<Counter> f = r.counterFamily("fam", "", "a", "b");
        // fixed in StatFamily.labels: a null array used to give the JDK's "Cannot read the array length" NPE
        assertMessage("counter family 'fam': the array of label values is null; expected 2 value(s) for [a, b]",
                () -> f.labels((String[]) null));
        assertMessage("counter family 'fam': expected 2 label value(s) for [a, b], got 3", () -> f.labels("x", "y", "z"));
        assertMessage("counter family 'fam': expected 2 label value(s) for [a, b], got 0", () -> f.labels());
        assertMessage("counter family 'fam': the value of label 'a' is null", () -> f.labels(null, "y"));
        assertMessage("counter family 'fam': the value of label 'b' has an unpaired surrogate at index 0 (not"
                + " encodable as UTF-8)", () -> f.labels("x", "\uDC00"));
        assertMessage("counter family 'fam': the value of label 'b' has an unpaired surrogate at index 2 (not"
                + " encodable as UTF-8)", () -> f.labels("x", "ab\uD800"));
        assertEquals(0, f.size(), "failed calls create nothing");
        // odd but valid values are accepted as they are
        for (String v : new String[]{"", " ", "\n", "\"", "\\", "{}", "\uD83D\uDE00", "é"}) {
            f.labels("x", v).add();
        }
        assertEquals(8, f.size());
        assertEquals(1, r.collect().counter("fam", Labels.of("a", "x", "b", "\n")));
    }

    // ------------------------------------------------------------------ kind conflicts

    @Test
    void everyKindConflictNamesBothKinds() {
        String[] kinds = {"counter", "gauge", "histogram"};
        for (String first : kinds) {
            for (String second : kinds) {
                if (first.equals(second)) {
                    continue;
                }
                StatRegistry r = StatRegistry.create();
                register(r, first, "x");
                assertMessage("'x' is already registered as a " + first + "; cannot register it as a " + second,
                        () -> register(r, second, "x"));
                assertEquals(1, r.size());
            }
        }
        StatRegistry r = StatRegistry.create();
        Histogram h = r.histogram("h");
        assertMessage("histogram 'h' is already registered with HistogramPrecision[subBucketBits=6]; cannot register"
                + " it with HistogramPrecision[subBucketBits=4]", () -> r.histogram("h", "", HistogramPrecision.ofSubBucketBits(4)));
        assertSame(h, r.histogram("h", "", HistogramPrecision.DEFAULT), "same precision: the same histogram");
        r.histogramFamily("hf", "", HistogramPrecision.DEFAULT, "a");
        assertMessage("'hf' is already registered as histogram family hf[a] with HistogramPrecision[subBucketBits=6];"
                + " cannot register a counter of that name without labels", () -> r.counter("hf"));
        assertMessage("'h' is already registered as a histogram without labels; cannot register it as gauge family"
                + " h[a]", () -> r.gaugeFamily("h", "", "a"));
    }

    private static void register(StatRegistry r, String kind, String name) {
        switch (kind) {
            case "counter" -> r.counter(name);
            case "gauge" -> r.gauge(name);
            default -> r.histogram(name);
        }
    }

    // ------------------------------------------------------------------ negative amounts

    @Test
    void negativeAmountsFailOnEveryPathAndLeaveNoTrace() throws Exception {
        StatRegistry r = StatRegistry.create();
        Counter c = r.counter("c");
        Histogram h = r.histogram("h");
        Counter series = r.counterFamily("cf", "", "k").labels("v");
        Histogram hseries = r.histogramFamily("hf", "", HistogramPrecision.DEFAULT, "k").labels("v");
        Counter cView = c.localView();
        Histogram hView = h.localView();
        assertMessage("counter 'c': cannot add a negative amount (-1)", () -> c.add(-1));
        assertMessage("counter 'c': cannot add a negative amount (-9223372036854775808)", () -> cView.add(Long.MIN_VALUE));
        assertMessage("counter 'cf': cannot add a negative amount (-7)", () -> series.add(-7));
        assertMessage("counter 'cf': cannot add a negative amount (-7)", () -> series.localView().add(-7));
        assertMessage("histogram 'h': values must be >= 0, was -1", () -> h.record(-1));
        assertMessage("histogram 'h': values must be >= 0, was -9223372036854775808", () -> hView.record(Long.MIN_VALUE));
        assertMessage("histogram 'hf': values must be >= 0, was -3", () -> hseries.record(-3));
        // a view used from another thread takes the shared path: still checked
        AtomicReference<Throwable> other = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                cView.add(-2);
            } catch (Throwable e) {
                other.set(e);
            }
        });
        t.start();
        t.join(10_000);
        assertEquals("counter 'c': cannot add a negative amount (-2)", other.get().getMessage());
        Snapshot s = r.collect();
        assertEquals(0, s.counter("c"));
        assertEquals(0, s.counter("cf", Labels.of("k", "v")));
        assertTrue(s.histogram("h").isEmpty());
        assertTrue(s.histogram("hf", Labels.of("k", "v")).isEmpty());
    }

    // ------------------------------------------------------------------ near Long.MAX_VALUE

    /**
     * Documented (README "Overflow", CounterValue, GaugeValue, HistogramValue): cumulative totals and sums are
     * exact modulo 2^64; an interval value is exact while the interval's own value fits in a long. OverflowTest
     * covers one thread; here the interval's value is made by two threads and local views.
     */
    @Test
    void aCounterIntervalOfExactlyLongMaxValueFromTwoThreadsIsExactAndItsTotalWraps() throws Exception {
        StatRegistry r = StatRegistry.create();
        Counter c = r.counter("c");
        Thread a = new Thread(() -> c.localView().add(Long.MAX_VALUE / 2));
        Thread b = new Thread(() -> c.add(Long.MAX_VALUE / 2 + 1));
        a.start();
        b.start();
        a.join(10_000);
        b.join(10_000);
        CounterValue v = r.collect().counterValue("c");
        assertEquals(Long.MAX_VALUE, v.value(), "the interval fits in a long: exact");
        assertEquals(Long.MAX_VALUE, v.total());
        c.add(3);
        v = r.collect().counterValue("c");
        assertEquals(3, v.value(), "exact after the total wrapped");
        assertEquals(Long.MIN_VALUE + 2, v.total(), "the total wraps modulo 2^64; the exporter writes it unsigned");
        assertEquals("9223372036854775810", Long.toUnsignedString(v.total()));
    }

    @Test
    void histogramValuesNearLongMaxValueAreExactAndTheSumIsUnsignedModulo2To64() {
        StatRegistry r = StatRegistry.create();
        Histogram h = r.histogram("h");
        h.record(Long.MAX_VALUE);
        h.record(Long.MAX_VALUE - 1);
        h.record(0);
        HistogramValue v = r.collect().histogram("h");
        assertEquals(3, v.count());
        assertEquals(0, v.min());
        assertEquals(Long.MAX_VALUE, v.max());
        assertEquals(Long.MAX_VALUE, v.valueAtPercentile(100));
        assertEquals(-3, v.sum(), "2^64 - 3 as a signed long: the sum is exact modulo 2^64");
        assertEquals("18446744073709551613", Long.toUnsignedString(v.sum()), "which is the true sum, read unsigned");
        // mean() reads the sum unsigned (records are >= 0): exact while the true sum is below 2^64
        assertEquals((Math.pow(2, 64) - 3) / 3, v.mean(), 1e3, "(2^64 - 3) / 3, not the signed -3 / 3");
        h.record(Long.MAX_VALUE);
        h.record(Long.MAX_VALUE);
        h.record(2);
        v = r.collect().histogram("h");
        assertEquals(0, v.sum(), "2^64 exactly: wrapped to 0; the count and buckets stay exact");
        assertEquals(0.0, v.mean(), "past 2^64 the mean follows the wrapped sum, as documented");
        assertEquals(3, v.count());
        assertEquals(Long.MAX_VALUE, v.valueAtPercentile(99));
    }

    @Test
    void gaugeReportsAtBothEndsOfTheLongRange() {
        StatRegistry r = StatRegistry.create();
        Gauge g = r.gauge("g");
        g.report(Long.MIN_VALUE);
        g.localView().report(Long.MAX_VALUE);
        g.report(Long.MIN_VALUE);
        GaugeValue v = r.collect().gauge("g");
        assertEquals(3, v.count());
        assertEquals(Long.MIN_VALUE, v.min());
        assertEquals(Long.MAX_VALUE, v.max());
        assertEquals(Long.MAX_VALUE, v.sum(), "MIN + MAX + MIN = MAX modulo 2^64 (the true sum is MIN - 1)");
        assertEquals(Long.MAX_VALUE / 3.0, v.mean(), "the mean follows the wrapped sum, as documented");
    }

    // ------------------------------------------------------------------ caps

    @Test
    void theStatCapHoldsUnderConcurrentRegistrationOfEveryKind() throws Exception {
        int cap = 50;
        StatRegistry r = StatRegistry.builder().maxStats(cap).build();
        StatFamily<Gauge> fam = r.gaugeFamily("fam", "", "k"); // a family takes no slot; each series does
        int threads = 4;
        int per = 30;
        AtomicInteger ok = new AtomicInteger();
        List<String> counters = new CopyOnWriteArrayList<>();
        List<String> messages = new CopyOnWriteArrayList<>();
        runTogether(threads, t -> {
            for (int i = 0; i < per; i++) {
                String name = "s" + t + "_" + i;
                try {
                    switch (i % 4) {
                        case 0 -> {
                            r.counter(name);
                            counters.add(name);
                        }
                        case 1 -> r.gauge(name);
                        case 2 -> r.histogram(name);
                        default -> fam.labels(name);
                    }
                    ok.incrementAndGet();
                } catch (IllegalArgumentException e) {
                    messages.add(e.getMessage());
                }
            }
        });
        assertEquals(cap + fam.overflowCount(), ok.get(), "exactly the cap registered, and the family's overflow");
        assertEquals(cap, r.size(), "the overflow series is exempt");
        assertEquals(threads * per - ok.get(), messages.size());
        for (String m : messages) {
            assertTrue(m.matches("cannot register 's\\d+_\\d+': this registry holds its"
                    + " maximum of 50 stats \\(set a larger maxStats with StatRegistry.builder\\(\\)\\)"), m);
        }
        // full: existing stats still resolve and count
        String held = counters.get(0);
        r.counter(held).add(4);
        assertEquals(4, r.collect().counter(held));
        assertMessage("maxSeriesPerFamily must be in 1..1000000, was 1000001",
                () -> StatRegistry.builder().maxSeriesPerFamily(1_000_001));
        assertMessage("maxStats must be in 1..10000000, was -1", () -> StatRegistry.builder().maxStats(-1));
    }

    @Test
    void theSeriesCapHoldsUnderConcurrentCreation() throws Exception {
        int cap = 10;
        StatRegistry r = StatRegistry.builder().maxSeriesPerFamily(cap).build();
        StatFamily<Counter> f = r.counterFamily("by_user", "", "user");
        int threads = 4;
        ConcurrentHashMap<String, Counter> got = new ConcurrentHashMap<>();
        runTogether(threads, t -> {
            for (int i = 0; i < 25; i++) {
                String user = "u" + ((t * 7 + i) % 40); // overlapping values across threads
                Counter c = f.labels(user);
                Counter before = got.putIfAbsent(user, c);
                assertTrue(before == null || before == c, "one series per value");
                c.add();
            }
        });
        assertEquals(cap, f.size(), "never more series than the cap");
        assertEquals(cap, r.size(), "the overflow series is exempt from maxStats");
        assertTrue(f.overflowCount() > 0);
        long sum = 0;
        Snapshot s = r.collect();
        for (StatValue v : s) {
            sum += ((CounterValue) v).value();
        }
        assertEquals(cap + 1, s.values().size(), "the series and the one overflow series");
        assertEquals(4 * 25, sum, "every add counted: none lost to the cap");
    }

    // ------------------------------------------------------------------ collect() and collectors

    /** collect() from several threads at once: serialised, so the intervals tile time and add up exactly. */
    @Test
    void concurrentCollectsAreSerialisedAndAddUpExactly() throws Exception {
        StatRegistry r = StatRegistry.create();
        Counter c = r.counter("c");
        Gauge g = r.gauge("g");
        Histogram h = r.histogram("h");
        StatFamily<Counter> f = r.counterFamily("f", "", "k");
        int writers = 2;
        int collectors = 3;
        long perWriter = 300_000;
        List<Snapshot> snaps = new CopyOnWriteArrayList<>();
        AtomicBoolean writing = new AtomicBoolean(true);
        List<Thread> cs = new ArrayList<>();
        for (int i = 0; i < collectors; i++) {
            Thread t = new Thread(() -> {
                for (int k = 0; k < 5_000 && writing.get(); k++) { // bounded: each snapshot is kept
                    snaps.add(r.collect());
                }
            });
            cs.add(t);
            t.start();
        }
        runTogether(writers, t -> {
            Counter local = c.localView();
            for (long i = 0; i < perWriter; i++) {
                if ((i & 1) == 0) {
                    local.add();
                } else {
                    c.add();
                }
                g.report(i);
                h.record(i);
                f.labels(i % 3 == 0 ? "a" : "b").add();
            }
        });
        writing.set(false);
        for (Thread t : cs) {
            t.join(30_000);
            assertFalse(t.isAlive());
        }
        snaps.add(r.collect());
        assertTrue(snaps.size() > collectors, "the collectors ran: " + snaps.size());
        List<Snapshot> sorted = new ArrayList<>(snaps);
        sorted.sort(Comparator.comparing(Snapshot::start).thenComparing(Snapshot::end));
        for (int i = 1; i < sorted.size(); i++) {
            assertEquals(sorted.get(i - 1).end(), sorted.get(i).start(), "interval " + i + " starts where the one before ended");
        }
        long counted = 0;
        long reports = 0;
        long reportSum = 0;
        long records = 0;
        long recordSum = 0;
        long series = 0;
        for (Snapshot s : snaps) {
            counted += s.counter("c");
            reports += s.gauge("g").count();
            reportSum += s.gauge("g").sum();
            records += s.histogram("h").count();
            recordSum += s.histogram("h").sum();
            for (String k : new String[]{"a", "b"}) {
                Labels l = Labels.of("k", k);
                if (s.values().stream().anyMatch(v -> v.labels().equals(l))) {
                    series += s.counter("f", l);
                }
            }
        }
        long n = writers * perWriter;
        long valueSum = writers * (perWriter * (perWriter - 1) / 2);
        assertEquals(n, counted);
        assertEquals(n, reports);
        assertEquals(valueSum, reportSum);
        assertEquals(n, records);
        assertEquals(valueSum, recordSum);
        assertEquals(n, series);
    }

    /** A manual collect() while a collector runs takes its interval out of the one sequence; together they add up. */
    @Test
    void aManualCollectWhileACollectorRunsSharesTheOneIntervalSequence() throws Exception {
        StatRegistry r = StatRegistry.create();
        Counter c = r.counter("c");
        List<Snapshot> sink = new CopyOnWriteArrayList<>();
        List<Snapshot> manual = new ArrayList<>();
        StatCollector collector = r.startCollector(Duration.ofMillis(5), sink::add);
        try {
            for (int i = 0; i < 2_000; i++) {
                c.add(i);
                if (i % 100 == 0) {
                    manual.add(r.collect());
                }
                if (i % 10 == 0) {
                    Thread.sleep(0, 200_000);
                }
            }
        } finally {
            collector.close();
        }
        long total = 0;
        for (Snapshot s : sink) {
            total += s.counter("c");
        }
        for (Snapshot s : manual) {
            total += s.counter("c");
        }
        assertEquals(2_000L * 1_999 / 2, total);
        assertTrue(!sink.isEmpty() && !manual.isEmpty());
    }

    @Test
    void closingACollectorTwiceOrFromSeveralThreadsDeliversTheLastIntervalOnce() throws Exception {
        StatRegistry r = StatRegistry.create();
        Counter c = r.counter("c");
        List<Snapshot> got = new CopyOnWriteArrayList<>();
        StatCollector collector = r.startCollector(Duration.ofHours(1), got::add); // only close() delivers
        c.add(5);
        runTogether(3, t -> collector.close());
        collector.close();
        collector.close();
        assertEquals(1, got.size(), "one last interval, delivered once");
        assertEquals(5, got.get(0).counter("c"));
        c.add(2);
        collector.close();
        assertEquals(1, got.size(), "nothing after close");
        // the registry takes a new collector, which delivers what came since
        List<Snapshot> next = new CopyOnWriteArrayList<>();
        r.startCollector(Duration.ofHours(1), next::add).close();
        assertEquals(2, next.get(0).counter("c"));
        NullPointerException npe = assertThrows(NullPointerException.class, () -> r.startCollector(null, s -> { }));
        assertEquals("interval", npe.getMessage());
        npe = assertThrows(NullPointerException.class, () -> r.startCollector(Duration.ofSeconds(1), null));
        assertEquals("sink", npe.getMessage());
        IllegalStateException ise;
        try (StatCollector running = r.startCollector(Duration.ofHours(1), s -> { })) {
            ise = assertThrows(IllegalStateException.class, () -> r.startCollector(Duration.ofSeconds(1), s -> { }));
            assertNotNull(running);
        }
        assertEquals("a collector is already running on this registry; close it first", ise.getMessage());
    }

    /**
     * A sink that throws (a RuntimeException or an Error other than a VirtualMachineError): logged at WARNING on
     * "dev.statvar" once per interval, and collection goes on. The interval it threw on was handed over and is not
     * delivered again: what the sink did not keep of it is gone for the sink (the registry's totals keep it).
     */
    @Test
    void aThrowingSinkIsLoggedAndOnlyTheIntervalsItThrewOnAreDropped() throws Exception {
        StatRegistry r = StatRegistry.create();
        Counter c = r.counter("c");
        LogCapture capture = new LogCapture();
        List<LogRecord> logged = capture.records();
        AtomicInteger calls = new AtomicInteger();
        List<Long> kept = new CopyOnWriteArrayList<>();
        List<Long> thrownAway = new CopyOnWriteArrayList<>();
        CountDownLatch six = new CountDownLatch(6);
        try {
            StatCollector collector = r.startCollector(Duration.ofMillis(5), s -> {
                int n = calls.incrementAndGet();
                six.countDown();
                if (n % 3 == 1) {
                    thrownAway.add(s.counter("c"));
                    throw new IllegalStateException("sink failure " + n + " (expected by the test)");
                }
                if (n % 3 == 2) {
                    thrownAway.add(s.counter("c"));
                    throw new AssertionError("sink error " + n + " (expected by the test)");
                }
                kept.add(s.counter("c"));
            });
            for (int i = 0; i < 100 && six.getCount() > 0; i++) {
                c.add(1);
                Thread.sleep(2);
            }
            assertTrue(six.await(10, TimeUnit.SECONDS), "collection went on after the sink threw");
            collector.close();
        } finally {
            capture.close();
        }
        long handedOver = kept.stream().mapToLong(Long::longValue).sum() + thrownAway.stream().mapToLong(Long::longValue).sum();
        assertEquals(r.collect().counterValue("c").total(), handedOver, "every interval was handed to the sink once");
        int threw = calls.get() - kept.size();
        assertEquals(threw, logged.size(), "one log record per interval the sink threw on");
        for (LogRecord rec : logged) {
            assertEquals(Level.WARNING, rec.getLevel());
            assertEquals("statvar: the interval sink threw; the interval is dropped, collection goes on", rec.getMessage());
            assertNotNull(rec.getThrown());
        }
    }

    /**
     * A VirtualMachineError from the sink (here StackOverflowError) is not swallowed: it ends the collector thread
     * through the uncaught-exception handler. close() still returns, the registry accepts a new collector, and
     * updates made afterwards are collected as usual.
     */
    @Test
    void aVirtualMachineErrorFromTheSinkEndsTheCollectorLoudly() throws Exception {
        StatRegistry r = StatRegistry.create();
        Counter c = r.counter("c");
        Thread.UncaughtExceptionHandler saved = Thread.getDefaultUncaughtExceptionHandler();
        List<Throwable> uncaught = new CopyOnWriteArrayList<>();
        CountDownLatch died = new CountDownLatch(1);
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> {
            if (t.getName().equals("statvar-collector")) {
                uncaught.add(e);
                died.countDown();
            } else if (saved != null) {
                saved.uncaughtException(t, e);
            }
        });
        try {
            StatCollector collector = r.startCollector(Duration.ofMillis(5), s -> {
                throw new StackOverflowError("sink overflow (expected by the test)");
            });
            assertTrue(died.await(10, TimeUnit.SECONDS), "the error reached the uncaught-exception handler");
            assertEquals("sink overflow (expected by the test)", uncaught.get(0).getMessage());
            collector.close(); // returns: the thread has ended
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(saved);
        }
        c.add(9);
        List<Snapshot> next = new CopyOnWriteArrayList<>();
        r.startCollector(Duration.ofHours(1), next::add).close();
        assertEquals(9, next.get(0).counter("c"));
    }

    /**
     * A sink slower than the interval (60 ms for a 20 ms interval): the collector runs it on its own thread, so
     * the next collect waits for it and then one interval more (ticks are skipped, never bunched). Intervals get
     * longer, fewer are delivered, none is lost or overlaps, and close() waits for the sink before it delivers
     * the last one.
     */
    @Tag("stress")
    @Test
    void aSlowSinkStretchesTheIntervalsAndLosesNothing() throws Exception {
        StatRegistry r = StatRegistry.create();
        Counter c = r.counter("c");
        List<Snapshot> got = new CopyOnWriteArrayList<>();
        long t0 = System.nanoTime();
        StatCollector collector = r.startCollector(Duration.ofMillis(20), s -> {
            got.add(s);
            try {
                Thread.sleep(60);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        long added = 0;
        while (System.nanoTime() - t0 < 500_000_000L) {
            c.add(3);
            added += 3;
            Thread.sleep(1);
        }
        collector.close();
        long elapsedMs = (System.nanoTime() - t0) / 1_000_000;
        long sum = got.stream().mapToLong(s -> s.counter("c")).sum();
        assertEquals(added, sum, "no count lost");
        for (int i = 1; i < got.size(); i++) {
            assertEquals(got.get(i - 1).end(), got.get(i).start(), "contiguous intervals");
        }
        for (int i = 1; i < got.size() - 1; i++) { // between two slow sink calls: 60 ms of sink + a 20 ms interval
            assertTrue(got.get(i).duration().toMillis() >= 75, "interval " + i + " lasted " + got.get(i).duration());
        }
        assertTrue(got.size() <= elapsedMs / 80 + 2, got.size() + " intervals in " + elapsedMs + " ms: not bunched");
        assertTrue(got.size() >= 3, "several intervals: " + got.size());
    }

    // ------------------------------------------------------------------ helpers

    private interface Body {
        void run(int thread) throws Exception;
    }

    /** Runs {@code body} on {@code n} threads started together; rethrows the first failure; bounded. */
    private static void runTogether(int n, Body body) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> ts = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int id = i;
            Thread t = new Thread(() -> {
                try {
                    go.await();
                    body.run(id);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            ts.add(t);
            t.start();
        }
        go.countDown();
        for (Thread t : ts) {
            t.join(60_000);
            assertFalse(t.isAlive(), t.getName() + " did not finish");
        }
        if (failure.get() instanceof Exception e) {
            throw e;
        }
        if (failure.get() instanceof Error e) {
            throw e;
        }
    }

    private static void assertMessage(String message, Executable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertEquals(message, e.getMessage());
    }
}
