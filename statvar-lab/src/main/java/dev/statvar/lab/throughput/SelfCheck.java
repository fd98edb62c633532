package dev.statvar.lab.throughput;


/**
 * The harness proving itself: a producer held to a known rate ({@link Pipeline#produceAt}),
 * counted like every other run. A steady second is judged when the producer was on schedule
 * (within {@link Pipeline#SLACK_NANOS}) at both of its ends: then it put exactly the values due in
 * between, so the harness must show the rate within {@link #TOLERANCE} (the slack alone accounts
 * for 0.1 % at 100,000 a second). A second across whose end the machine held the producer up is
 * not judged (the producer was behind there, and caught up after: that is the machine, not the
 * harness) and is counted as such. The check passes when the run has at least {@link #MIN_JUDGED}
 * judged seconds, each within the tolerance, and every worker's seconds add up exactly to its own
 * count.
 *
 * @param rate        the rate the producer was held to, values per second
 * @param firstSteady the first steady second, or -1
 * @param steady      steady seconds
 * @param judged      of them, those judged
 * @param worst       the largest |second's rate - rate| / rate among the judged (NaN without any)
 * @param worstSecond the second it was in (-1 without any)
 * @param exact       whether the counts add up
 */
record SelfCheck(long rate, int firstSteady, int steady, int judged, double worst, int worstSecond, boolean exact) {
    /** A judged second may be this far off the known rate. */
    static final double TOLERANCE = 0.01;
    /** Judged seconds needed to pass. */
    static final int MIN_JUDGED = 3;

    boolean pass() {
        return exact && judged >= MIN_JUDGED && worst <= TOLERANCE;
    }

    static SelfCheck of(RunData run, long rate) {
        Steadiness.Verdict v = run.verdict();
        double worst = Double.NaN;
        int at = -1;
        int judged = 0;
        if (v.firstSteady() >= 0) {
            for (TimelineSecond s : run.seconds) {
                if (s.partial() || s.second() < v.firstSteady() || heldUpAcross(run, s.startNanos())
                        || heldUpAcross(run, s.endNanos())) {
                    continue;
                }
                judged++;
                double d = Math.abs(s.rate() - rate) / rate;
                if (!(d < worst)) {
                    worst = d;
                    at = s.second();
                }
            }
        }
        return new SelfCheck(rate, v.firstSteady(), v.steady(), judged, worst, at, run.exact());
    }

    /** Whether the producer was more than the slack behind at {@code t}. */
    static boolean heldUpAcross(RunData run, long t) {
        for (long[] u : run.holdUps) {
            if (u[0] < t && t < u[1]) {
                return true;
            }
        }
        return false;
    }
}
