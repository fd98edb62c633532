package dev.statvar.lab;

import com.fasterxml.jackson.databind.JsonNode;
import dev.statvar.lab.kit.Json;
import dev.statvar.lab.kit.MachineFacts;
import dev.statvar.lab.kit.Verdict;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A claim of an article, and how the committed runs of a study decide it ({@link Verdict}). A study
 * lists its claims ({@link StudyResults#claims()}); docs/LAB.md's first table is made from them by
 * {@code ./statvar lab verdicts}, so that every verdict there is computed from the data, the same way
 * each time.
 *
 * <p>A claim names its study's run under docs/lab ({@link #run}); its repeats are the folders
 * {@code <run>-r1}, {@code <run>-r2} ... (each a fresh invocation of the study: fresh JVMs, one machine),
 * or {@code <run>} alone where the study was run once ({@link #repeatFolders}).
 * The key figure is a {@link CellQuery} of each repeat's JSON, or the ratio of two; the noise measure is
 * the range of that figure over the repeats. The test compares the figure with the claim:
 * <ul>
 *   <li>{@link Test#AT_LEAST}: the figure is at least {@link #bound} in every repeat (confirmed), below
 *       {@link #refute} in every repeat (refuted), or otherwise (within noise);</li>
 *   <li>{@link Test#AT_MOST}: the mirror image;</li>
 *   <li>{@link Test#GREATER}: the figure's range lies above the {@link #other} figure's range (confirmed),
 *       below it (refuted), or they overlap (within noise);</li>
 *   <li>{@link Test#NONE}: the measure cannot decide it ({@link #why}): not testable here; the figure is
 *       still shown.</li>
 * </ul>
 * Immutable.
 *
 * @param study  the study's name
 * @param run    its run under docs/lab (the repeats' common prefix)
 * @param quote  the article's words, quoted
 * @param figure what the key figure is, in words
 * @param query  the key figure (or the ratio's numerator)
 * @param per    the ratio's denominator, or null
 * @param test   how the figure decides the claim
 * @param bound  the bound of AT_LEAST / AT_MOST: every repeat on the claim's side of it confirms
 * @param refute AT_LEAST: every repeat below this refutes; AT_MOST: every repeat above it (a band between
 *               {@code bound} and {@code refute} is within noise, e.g. the throughput study's 10 %)
 * @param other  the figure GREATER compares with
 * @param unit   the figure's unit as printed ("x", "ns", "%")
 * @param why    why NONE cannot decide; else a note printed with the verdict, or null
 */
record Claim(String study, String run, String quote, String figure, String query, String per, Test test, double bound,
                    double refute, String other, String unit, String why) {
    /** How a claim's figure decides it. */
    public enum Test { AT_LEAST, AT_MOST, GREATER, NONE }

    /** A claim decided by {@code figure >= bound} in every repeat. */
    public static Claim atLeast(String study, String run, String quote, String figure, String query, String per, double bound,
                                double refute, String unit) {
        return new Claim(study, run, quote, figure, query, per, Test.AT_LEAST, bound, refute, null, unit, null);
    }

    /** A claim decided by {@code figure <= bound} in every repeat. */
    public static Claim atMost(String study, String run, String quote, String figure, String query, String per, double bound,
                               double refute, String unit) {
        return new Claim(study, run, quote, figure, query, per, Test.AT_MOST, bound, refute, null, unit, null);
    }

    /** A claim decided by the figure's range over the repeats lying above {@code other}'s. */
    public static Claim greater(String study, String run, String quote, String figure, String query, String other, String unit) {
        return new Claim(study, run, quote, figure, query, null, Test.GREATER, Double.NaN, Double.NaN, other, unit, null);
    }

    /** A claim this measure cannot decide, and why; its figure is shown. */
    public static Claim notTestable(String study, String run, String quote, String figure, String query, String unit, String why) {
        return new Claim(study, run, quote, figure, query, null, Test.NONE, Double.NaN, Double.NaN, null, unit, why);
    }

    /** This claim with a note printed beside its verdict. */
    public Claim note(String note) {
        return new Claim(study, run, quote, figure, query, per, test, bound, refute, other, unit, note);
    }

    /**
     * What the repeats say: the verdict, the figure per repeat (and the compared figure's), and the
     * machine of the first repeat (all repeats of a run folder are made on one machine; a repeat on
     * another machine is refused).
     */
    public record Result(Claim claim, Verdict verdict, double[] values, double[] others, List<String> runs, String machine) {
        public double median() {
            return Claim.median(values);
        }

        public double min() {
            return Arrays.stream(values).min().orElse(Double.NaN);
        }

        public double max() {
            return Arrays.stream(values).max().orElse(Double.NaN);
        }

        /** The key figure as the table shows it: the median, and min .. max over n repeats. */
        public String figureText() {
            String u = claim.unit.isEmpty() ? "" : claim.unit.equals("x") || claim.unit.equals("%") ? claim.unit : " " + claim.unit;
            if (values.length == 1) {
                return fmt(values[0]) + u + " (1 run)";
            }
            return String.format(Locale.ROOT, "%s%s (%s .. %s, %d runs)", fmt(median()), u, fmt(min()), fmt(max()), values.length);
        }

        /** The noise measure as the table shows it. */
        public String noiseText() {
            String spread = values.length < 2 ? "one run: no spread" : String.format(Locale.ROOT, "range over %d fresh runs: %s",
                    values.length, relative(min(), max()));
            return switch (claim.test) {
                case GREATER -> String.format(Locale.ROOT, "%s; compared with %s .. %s", spread,
                        fmt(Arrays.stream(others).min().orElse(Double.NaN)), fmt(Arrays.stream(others).max().orElse(Double.NaN)));
                case AT_LEAST -> spread + "; confirmed from " + fmt(claim.bound) + (claim.refute == claim.bound ? ""
                        : ", refuted below " + fmt(claim.refute));
                case AT_MOST -> spread + "; confirmed up to " + fmt(claim.bound) + (claim.refute == claim.bound ? ""
                        : ", refuted above " + fmt(claim.refute));
                case NONE -> spread;
            };
        }
    }

    /** Decides this claim from its repeats' JSON ({@code repeats}: the parsed files, {@code names}: their folders). */
    public Result decide(List<JsonNode> repeats, List<String> names) {
        if (repeats.isEmpty()) {
            throw new IllegalArgumentException(study + ": no committed run in " + run);
        }
        double[] v = new double[repeats.size()];
        double[] o = new double[test == Test.GREATER ? repeats.size() : 0];
        String machine = machine(repeats.get(0));
        for (int i = 0; i < repeats.size(); i++) {
            JsonNode r = repeats.get(i);
            if (!machine(r).equals(machine)) {
                throw new IllegalArgumentException(names.get(i) + " ran on " + machine(r) + ", " + names.get(0) + " on " + machine
                        + ": repeats of one claim come from one machine");
            }
            try {
                v[i] = CellQuery.parse(query).number(r) / (per == null ? 1 : CellQuery.parse(per).number(r));
                if (test == Test.GREATER) {
                    o[i] = CellQuery.parse(other).number(r);
                }
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(names.get(i) + ", claim '" + quote + "': " + e.getMessage(), e);
            }
        }
        Verdict verdict = switch (test) {
            case AT_LEAST -> Verdict.band(v, bound, refute);
            case AT_MOST -> Verdict.band(Arrays.stream(v).map(x -> -x).toArray(), -bound, -refute);
            case GREATER -> Verdict.greater(v, o);
            case NONE -> Verdict.NOT_TESTABLE;
        };
        return new Result(this, verdict, v, o, List.copyOf(names), machine);
    }

    /** The machine a study's JSON names ({@code info} or {@code machine}): CPU precisely, cores, JDK. */
    public static String machine(JsonNode root) {
        MachineFacts f = facts(root);
        return f.precise() + ", " + f.cores() + " CPUs, JDK " + f.jdk();
    }

    private static MachineFacts facts(JsonNode root) {
        return Json.convert(root.has("info") ? root.get("info") : root.path("machine"), MachineFacts.class);
    }

    static double median(double[] values) {
        double[] s = values.clone();
        Arrays.sort(s);
        return s.length == 0 ? Double.NaN : s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    static String fmt(double v) {
        double a = Math.abs(v);
        return a >= 100 ? String.format(Locale.ROOT, "%,.0f", v) : a >= 10 ? String.format(Locale.ROOT, "%.1f", v)
                : String.format(Locale.ROOT, "%.2f", v);
    }

    static String relative(double lo, double hi) {
        double mid = (lo + hi) / 2;
        return String.format(Locale.ROOT, "%s .. %s (%s)", fmt(lo), fmt(hi),
                mid == 0 ? "-" : String.format(Locale.ROOT, "±%.0f %%", 50 * (hi - lo) / Math.abs(mid)));
    }

    /**
     * The folders of {@code run}'s repeats under {@code lab}: {@code <run>-r1}, {@code <run>-r2} ... (made
     * one after another, each a fresh invocation of the study); when there are none, {@code <run>} alone.
     */
    public static List<String> repeatFolders(java.nio.file.Path lab, String run) {
        List<String> out = new ArrayList<>();
        for (int i = 1; java.nio.file.Files.isDirectory(lab.resolve(run + "-r" + i)); i++) {
            out.add(run + "-r" + i);
        }
        if (out.isEmpty() && java.nio.file.Files.isDirectory(lab.resolve(run))) {
            out.add(run);
        }
        return out;
    }
}
