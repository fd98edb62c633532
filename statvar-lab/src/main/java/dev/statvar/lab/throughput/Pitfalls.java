package dev.statvar.lab.throughput;

import java.util.List;
import java.util.Optional;

/**
 * The article's three pitfalls, computed from the runs (each rate is a run's steady median, or the
 * median of its seconds after the first when it has no steady second: {@link RunData#typicalRate}).
 */
final class Pitfalls {
    private Pitfalls() {
    }

    /**
     * Pitfall 1, profile pollution: an implementation alone in its JVM, and in a JVM shared with
     * the other one, run first and run second through the same call sites; beside each, the
     * share of its seconds its workers were on one CPU ({@link RunData#sharedCpu}).
     */
    record Pollution(String impl, double alone, double first, double second, double aloneShared, double firstShared,
                     double secondShared) {
        /** second / alone: below 1, the second run in a shared JVM was slower. */
        double secondToAlone() {
            return second / alone;
        }
    }

    /**
     * Pitfall 2, the article's sum: the time of N ops of each, added up and reported as one figure
     * (2N / (N/queue + N/ring)), and what share of that time is the queue's.
     */
    record Sum(double queue, double ring, double summed, double queueShare) {
        static Sum of(double queue, double ring) {
            double tq = 1 / queue;
            double tr = 1 / ring;
            return new Sum(queue, ring, 2 / (tq + tr), tq / (tq + tr));
        }
    }

    /**
     * Pitfall 3: the work as one huge OSR-only loop and as a method called again and again, and
     * how many OSR compilations each run's JVM made (of the loops' own methods; of every method).
     */
    record Osr(double osrLoop, double methodLoop, long loopOsr, long methodOsr, int osrJvm, int methodJvm) {
        double ratio() {
            return osrLoop / methodLoop;
        }
    }

    /**
     * The third point of Cliff Click's "A Pair of (somebody else's) Concurrency Bugs", CPU placement: every full second after the first of every run of
     * one implementation (alone and in a shared JVM), split by where its two workers were: on one
     * CPU ({@link #TOGETHER} or more of the second's polls) or apart ({@link #APART} or less).
     * Seconds in between are left out.
     */
    record Placement(String impl, double together, int togetherSeconds, double apart, int apartSeconds) {
        double apartToTogether() {
            return apart / together;
        }
    }

    /** A second with its workers on one CPU in at least this share of the polls counts as together... */
    static final double TOGETHER = 0.9;
    /** ... and in at most this share as apart. */
    static final double APART = 0.1;

    static List<Placement> placement(List<RunData> runs) {
        List<Placement> out = new java.util.ArrayList<>();
        for (Handoff.Impl i : Handoff.Impl.values()) {
            List<Double> together = new java.util.ArrayList<>();
            List<Double> apart = new java.util.ArrayList<>();
            for (RunData r : runs) {
                if (!r.label.equals(i.label()) && !(r.label.startsWith("together-") && r.label.endsWith("/" + i.label()))) {
                    continue;
                }
                for (TimelineSecond s : r.seconds) {
                    if (!s.partial() && s.second() >= 1) {
                        if (s.sharedCpu() >= TOGETHER) {
                            together.add(s.rate());
                        } else if (s.sharedCpu() <= APART) {
                            apart.add(s.rate());
                        }
                    }
                }
            }
            if (!together.isEmpty() || !apart.isEmpty()) {
                out.add(new Placement(i.label(), median(together), together.size(), median(apart), apart.size()));
            }
        }
        return out;
    }

    private static double median(List<Double> v) {
        double[] a = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return a.length == 0 ? Double.NaN : Steadiness.median(a);
    }

    static Optional<RunData> find(List<RunData> runs, String label) {
        return runs.stream().filter(r -> r.label.equals(label)).findFirst();
    }

    static List<Pollution> pollution(List<RunData> runs) {
        List<Pollution> out = new java.util.ArrayList<>();
        for (Handoff.Impl i : Handoff.Impl.values()) {
            Handoff.Impl o = i == Handoff.Impl.QUEUE ? Handoff.Impl.RING : Handoff.Impl.QUEUE;
            Optional<RunData> alone = find(runs, i.label());
            Optional<RunData> first = find(runs, "together-" + i.label() + "-" + o.label() + "/" + i.label());
            Optional<RunData> second = find(runs, "together-" + o.label() + "-" + i.label() + "/" + i.label());
            if (alone.isPresent() && first.isPresent() && second.isPresent()) {
                out.add(new Pollution(i.label(), alone.get().typicalRate(), first.get().typicalRate(),
                        second.get().typicalRate(), alone.get().sharedCpu(), first.get().sharedCpu(), second.get().sharedCpu()));
            }
        }
        return out;
    }

    static Optional<Sum> sum(List<RunData> runs) {
        Optional<RunData> q = find(runs, Handoff.Impl.QUEUE.label());
        Optional<RunData> r = find(runs, Handoff.Impl.RING.label());
        return q.isPresent() && r.isPresent() ? Optional.of(Sum.of(q.get().typicalRate(), r.get().typicalRate())) : Optional.empty();
    }

    static Optional<Osr> osr(List<RunData> runs) {
        Optional<RunData> o = find(runs, "osr-loop");
        Optional<RunData> m = find(runs, "method-loop");
        if (o.isEmpty() || m.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Osr(o.get().typicalRate(), m.get().typicalRate(), loopOsr(o.get()), loopOsr(m.get()),
                o.get().compilationTotals()[1], m.get().compilationTotals()[1]));
    }

    /** OSR compilations of the loops' own methods ({@link OsrRunner}'s). */
    private static long loopOsr(RunData r) {
        return r.compiled.stream().filter(c -> c.contains(" osr=1 ") && c.contains(OsrRunner.class.getName() + "::")).count();
    }
}
