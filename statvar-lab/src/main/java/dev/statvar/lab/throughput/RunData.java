package dev.statvar.lab.throughput;


import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * One run as the study read it from its child JVM's lines ({@link TimedRun}): its seconds, each
 * worker's own count and the sum of its seconds, the compilations of the workloads' code, the
 * notes, and what {@link Steadiness} says of it. Built by one thread (the study's), then read only.
 */
final class RunData {
    final String label;
    final List<String> workers;
    final List<TimelineSecond> seconds = new ArrayList<>();
    final List<String> compiled = new ArrayList<>();
    final List<String> notes = new ArrayList<>();
    /** A throttled producer's hold-ups: {from, to}, nanoTime of the run's JVM ({@link Pipeline#produceAt}). */
    final List<long[]> holdUps = new ArrayList<>();
    long[] own;
    long[] sums;
    int exitCode;

    RunData(String label, List<String> workers) {
        this.label = label;
        this.workers = List.copyOf(workers);
    }

    /** Takes one line of the child's output that names this run; returns whether it did. */
    boolean accept(String line) {
        if (line.startsWith("SECOND ") && label.equals(TimelineSecond.fields(line).get("run"))) {
            seconds.add(TimelineSecond.parse(line));
        } else if (line.startsWith("TOTALS run=" + label + " ")) {
            Map<String, String> f = TimelineSecond.fields(line);
            own = longs(f.get("own"));
            sums = longs(f.get("sums"));
        } else if (line.startsWith("COMPILED run=" + label + " ")) {
            compiled.add(line.substring(line.indexOf(' ', "COMPILED run=".length()) + 1));
        } else if (line.startsWith("HELDUP run=" + label + " ")) {
            Map<String, String> f = TimelineSecond.fields(line);
            holdUps.add(new long[] {Long.parseLong(f.get("from")), Long.parseLong(f.get("to"))});
        } else if (line.startsWith("NOTE " + label + " ")) {
            notes.add(line.substring(("NOTE " + label + " ").length()));
        } else {
            return false;
        }
        return true;
    }

    private static long[] longs(String s) {
        return Arrays.stream(s.split(";")).mapToLong(Long::parseLong).toArray();
    }

    /** Whether the run ended well and every worker's seconds add up to its own count. */
    boolean exact() {
        return exitCode == 0 && own != null && Arrays.equals(own, sums);
    }

    Steadiness.Verdict verdict() {
        return Steadiness.of(seconds);
    }

    /** The full seconds' rates from second 1 on: what a run without a steady second is summed up by. */
    double[] ratesAfterFirst() {
        return seconds.stream().filter(s -> !s.partial() && s.second() >= 1).mapToDouble(TimelineSecond::rate).toArray();
    }

    /** The steady median, or (marked by the caller) the median of the seconds after the first when none is steady. */
    double typicalRate() {
        Steadiness.Verdict v = verdict();
        if (v.firstSteady() >= 0) {
            return v.median();
        }
        double[] r = ratesAfterFirst();
        Arrays.sort(r);
        return r.length == 0 ? Double.NaN : Steadiness.median(r);
    }

    /** The mean share of polls that saw the workers on one CPU, over the steady seconds (or those after the first). */
    double sharedCpu() {
        int first = Math.max(1, verdict().firstSteady());
        return seconds.stream().filter(s -> !s.partial() && s.second() >= first).mapToDouble(TimelineSecond::sharedCpu)
                .average().orElse(Double.NaN);
    }

    /** All compilations and OSR compilations over the run's seconds (the whole JVM's). */
    int[] compilationTotals() {
        int c = 0;
        int o = 0;
        for (TimelineSecond s : seconds) {
            c += s.compilations();
            o += s.osr();
        }
        return new int[] {c, o};
    }
}
