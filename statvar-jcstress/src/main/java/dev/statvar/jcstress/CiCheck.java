package dev.statvar.jcstress;

import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.infra.StateCase;
import org.openjdk.jcstress.infra.TestInfo;
import org.openjdk.jcstress.infra.Status;
import org.openjdk.jcstress.infra.collectors.DiskReadCollector;
import org.openjdk.jcstress.infra.collectors.TestResult;
import org.openjdk.jcstress.infra.grading.GradingResult;
import org.openjdk.jcstress.infra.grading.ReportUtils;
import org.openjdk.jcstress.infra.grading.TestGrading;
import org.openjdk.jcstress.infra.runners.TestList;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The CI gate over a jcstress run of this module (not a test): reads the run's result blob with
 * jcstress's own reader and grader, prints one line per test, and exits 1 when
 * <ul>
 *   <li>a test of this package (matching the selection) has no result: it did not run (jcstress
 *       silently skips, for example, a test with more actors than CPUs);</li>
 *   <li>a test ended in an error (test exception, VM crash, timeout, API mismatch);</li>
 *   <li>a FORBIDDEN outcome was observed;</li>
 *   <li>a deliberately broken variant (a test class named {@code Broken*}: one of statvar's own
 *       test shapes run with one {@code dev.statvar.internal.Broken} switch on, or one
 *       {@code dev.statvar.probes.internal.Broken} switch for the probes) never showed an
 *       ACCEPTABLE_INTERESTING outcome. In a broken variant only the regression's signature is
 *       INTERESTING (documented races are plain ACCEPTABLE there), so it must be seen at least
 *       once, or the run proves nothing about the test's power to catch that regression;</li>
 *   <li>a regression outcome a broken variant observed would not be FORBIDDEN in the ok test whose
 *       shape it runs (graded by that test's own outcomes): the ok test would let the regression pass;</li>
 *   <li>in a whole-suite run (no TEST_REGEX), a broken variant of {@link #BROKEN_VARIANTS} did not
 *       run, or a test named {@code Broken*} is not listed there.</li>
 * </ul>
 * It ends with the line {@code jcstress: N passed, M failed}.
 *
 * <p>Usage: {@code java -cp jcstress.jar dev.statvar.jcstress.CiCheck RESULT.bin.gz [TEST_REGEX]},
 * with the same regexp as jcstress's {@code -t} (default: all tests).
 */
public final class CiCheck {
    private static final String PACKAGE = "dev.statvar.jcstress.";
    /**
     * The broken variant of each subject, the one {@code dev.statvar.internal.Broken} (or, for the
     * probes, {@code dev.statvar.probes.internal.Broken}) switch it
     * turns on, and the ok test whose shape it runs (docs/RELIABILITY.md has the table): every
     * subject has one.
     */
    static final Map<String, String[]> BROKEN_VARIANTS = new TreeMap<>(Map.ofEntries(
            Map.entry("CounterVsCollect.BrokenNoIsAlive", new String[]{"NO_ISALIVE", "CounterVsCollect.Exact"}),
            Map.entry("GaugeVsCollect.BrokenCountFirst", new String[]{"COUNT_FIRST", "GaugeVsCollect.Stream"}),
            Map.entry("HistogramVsCollect.BrokenBucketFirst", new String[]{"BUCKET_FIRST", "HistogramVsCollect.Exact"}),
            Map.entry("LocalViewForeignThread.BrokenViewAnyThread", new String[]{"VIEW_ANY_THREAD", "LocalViewForeignThread.CounterView"}),
            Map.entry("RegisterWhileUpdating.BrokenGrowUnlocked", new String[]{"GROW_UNLOCKED", "RegisterWhileUpdating.Gauges"}),
            Map.entry("FoldTerminatedThread.BrokenNoIsAlive", new String[]{"NO_ISALIVE", "FoldTerminatedThread.CounterFold"}),
            Map.entry("OrderedSchedulerHandOff.BrokenNoRecheck", new String[]{"HANDOFF_NO_RECHECK", "OrderedSchedulerHandOff.Adjacent"}),
            Map.entry("SlotReuse.BrokenReuseHeld", new String[]{"REUSE_HELD", "SlotReuse.StaleVsNewOwner"}),
            Map.entry("SlotReuse.BrokenHistogramReuseHeld", new String[]{"REUSE_HELD", "SlotReuse.StaleHistogramVsNewOwner"}),
            Map.entry("RetagVsRead.BrokenSeenFirst", new String[]{"SEEN_FIRST", "RetagVsRead.Handoff"}),
            Map.entry("HistogramVsCollect.BrokenBucketsUpward", new String[]{"BUCKETS_UPWARD", "HistogramVsCollect.Ordered"}),
            Map.entry("StripeCards.BrokenCardsClearedLast", new String[]{"CARDS_CLEARED_LAST", "StripeCards.Spread"})));

    private CiCheck() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1 || args.length > 2) {
            System.err.println("usage: CiCheck RESULT.bin.gz [TEST_REGEX]");
            System.exit(2);
        }
        Pattern selection = Pattern.compile(args.length == 2 ? args[1] : ".*");
        List<TestResult> raw = new ArrayList<>();
        DiskReadCollector reader = new DiskReadCollector(args[0], raw::add);
        try {
            reader.dump();
        } finally {
            reader.close();
        }
        Map<String, Integer> runs = new TreeMap<>();
        for (TestResult r : raw) {
            runs.merge(r.getName(), 1, Integer::sum);
        }
        Map<String, TestResult> merged = new TreeMap<>();
        for (TestResult r : ReportUtils.mergedByName(raw)) {
            merged.put(r.getName(), r);
        }

        TreeSet<String> expected = new TreeSet<>();
        for (String name : TestList.tests()) {
            if (name.startsWith(PACKAGE) && selection.matcher(name).find()) {
                expected.add(name);
            }
        }
        expected.addAll(merged.keySet());

        int passed = 0;
        int failed = 0;
        for (String name : expected) {
            String shortName = name.startsWith(PACKAGE) ? name.substring(PACKAGE.length()) : name;
            boolean broken = shortName.substring(shortName.lastIndexOf('.') + 1).startsWith("Broken");
            TestResult r = merged.get(name);
            List<String> problems = new ArrayList<>();
            String outcomes = "";
            long samples = 0;
            if (r == null) {
                problems.add("NOT RUN (no result: skipped by jcstress, e.g. more actors than CPUs)");
            } else {
                samples = r.getTotalCount();
                if (r.status() != Status.NORMAL) {
                    problems.add("status " + r.status() + messages(r));
                }
                if (samples == 0) {
                    problems.add("no samples");
                }
                TestGrading g = TestGrading.grade(r);
                long interesting = 0;
                StringBuilder sb = new StringBuilder();
                for (GradingResult gr : g.gradingResults.values()) {
                    if (gr.count == 0) {
                        continue;
                    }
                    sb.append(String.format("  [%s] %,d %s", gr.id, gr.count, label(gr.expect)));
                    if (gr.expect == Expect.FORBIDDEN) {
                        problems.add(String.format("FORBIDDEN outcome [%s] seen %,d times: %s", gr.id, gr.count, gr.description));
                    } else if (gr.expect == Expect.ACCEPTABLE_INTERESTING) {
                        interesting += gr.count;
                        String[] variant = BROKEN_VARIANTS.get(shortName);
                        if (variant != null) {
                            StateCase c = gradeBy(PACKAGE + variant[1], gr.id);
                            if (c == null || c.expect() != Expect.FORBIDDEN) {
                                problems.add(String.format("the regression outcome [%s] is not FORBIDDEN in %s (%s): that test would let it pass",
                                        gr.id, variant[1], c == null ? "no such test" : c.expect() + ": " + c.description()));
                            }
                        }
                    } else if (gr.expect == Expect.UNKNOWN) {
                        problems.add(String.format("outcome [%s] of unknown grading seen %,d times", gr.id, gr.count));
                    }
                }
                outcomes = sb.toString();
                if (broken && interesting == 0 && samples > 0) {
                    problems.add("the broken variant's bad (interesting) outcome was never observed: the run did not show the test can fail");
                }
            }
            if (broken && !BROKEN_VARIANTS.containsKey(shortName)) {
                problems.add("a broken variant not listed in CiCheck.BROKEN_VARIANTS (with its switch)");
            }
            boolean ok = problems.isEmpty();
            if (ok) {
                passed++;
            } else {
                failed++;
            }
            String label = BROKEN_VARIANTS.containsKey(shortName) ? shortName + " [" + BROKEN_VARIANTS.get(shortName)[0] + "]" : shortName;
            System.out.printf("%-6s %-58s %,14d samples in %2d runs%s%n", ok ? "OK" : "FAIL", label, samples,
                    runs.getOrDefault(name, 0), outcomes);
            for (String p : problems) {
                System.out.println("         " + p);
            }
        }
        if (args.length == 1) { // a whole-suite run only: a selection may leave them out
            for (Map.Entry<String, String[]> e : BROKEN_VARIANTS.entrySet()) {
                if (!merged.containsKey(PACKAGE + e.getKey())) {
                    failed++;
                    System.out.printf("FAIL   %s (switch %s): this broken variant did not run%n", e.getKey(), e.getValue()[0]);
                }
            }
        }
        if (expected.isEmpty()) {
            failed++;
            System.out.println("FAIL   no test matched the selection");
        }
        System.out.println("jcstress: " + passed + " passed, " + failed + " failed");
        System.exit(failed == 0 ? 0 : 1);
    }

    /**
     * The outcome case of test {@code test} that grades the result {@code id}, as jcstress grades
     * it (TestGrading: an exact match first, then the first matching pattern, else the default);
     * null if there is no such test.
     */
    static StateCase gradeBy(String test, String id) {
        TestInfo info;
        try {
            info = TestList.getInfo(test);
        } catch (RuntimeException e) {
            return null;
        }
        if (info == null) {
            return null;
        }
        for (StateCase c : info.cases()) {
            if (c.matchesExactly(id)) {
                return c;
            }
        }
        for (StateCase c : info.cases()) {
            if (c.matches(id)) {
                return c;
            }
        }
        return info.unmatched();
    }

    private static String label(Expect e) {
        return switch (e) {
            case ACCEPTABLE -> "acceptable";
            case ACCEPTABLE_INTERESTING -> "INTERESTING";
            case FORBIDDEN -> "FORBIDDEN";
            default -> "unknown";
        };
    }

    private static String messages(TestResult r) {
        List<String> m = new ArrayList<>(r.getMessages());
        m.addAll(r.getVmErr());
        if (m.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder(":");
        for (int i = 0; i < Math.min(m.size(), 15); i++) {
            sb.append("\n           ").append(m.get(i));
        }
        return sb.toString();
    }
}
