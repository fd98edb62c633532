package dev.statvar.lab.atomics;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * One measured run, parsed from a {@code RESULT} line of {@link AtomicsRunner} or atomics.c.
 *
 * @param impl     {@code java} or {@code native}
 * @param ops      increments made (the count, plus one per late thread in the until-the-total cases)
 * @param failures failed CAS attempts
 * @param sampled  values sampled for the run lengths ({@link Fairness}); 0 for LOCK_ADD
 * @param runs     runs among them
 * @param shares   increments per thread
 * @param redone   how often the run was made again because the probe after it was disturbed
 */
record RunResult(String impl, AtomicCase atomicCase, int delay, int threads, long count, long ops, long durationNs,
                 long failures, long sampled, long runs, long[] shares, int repeat, int redone) {

    static RunResult parse(String line) {
        if (!line.startsWith("RESULT ")) {
            throw new IllegalArgumentException("not a RESULT line: " + line);
        }
        Map<String, String> kv = new HashMap<>();
        for (String tok : line.substring(7).trim().split("\\s+")) {
            int eq = tok.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("bad field '" + tok + "' in: " + line);
            }
            kv.put(tok.substring(0, eq), tok.substring(eq + 1));
        }
        try {
            long[] shares = Arrays.stream(kv.get("shares").split(",")).mapToLong(Long::parseLong).toArray();
            return new RunResult(kv.get("impl"), AtomicCase.valueOf(kv.get("case")), Integer.parseInt(kv.get("delay")),
                    Integer.parseInt(kv.get("threads")), Long.parseLong(kv.get("count")), Long.parseLong(kv.get("ops")),
                    Long.parseLong(kv.get("duration_ns")), Long.parseLong(kv.get("failures")),
                    Long.parseLong(kv.get("sampled")), Long.parseLong(kv.get("runs")), shares,
                    Integer.parseInt(kv.get("repeat")), Integer.parseInt(kv.getOrDefault("redone", "0")));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("cannot parse: " + line + " (" + e + ")", e);
        }
    }

    double nsPerOp() {
        return (double) durationNs / ops;
    }

    double opsPerSec() {
        return ops * 1e9 / durationNs;
    }

    double fairness() {
        return Fairness.jain(shares);
    }

    /** Mean run length of consecutive values obtained by one thread; NaN when not sampled (LOCK_ADD). */
    double meanRun() {
        return runs == 0 ? Double.NaN : (double) sampled / runs;
    }

    /** Failed attempts per successful increment. */
    double failuresPerSuccess() {
        return (double) failures / ops;
    }
}
