package dev.statvar.lab.throughput;

import dev.statvar.lab.kit.Steadiness;
import dev.statvar.lab.kit.TimelineSecond;

/**
 * The harness proving itself: a producer held to a known rate ({@link Pipeline#produceAt}),
 * counted like every other run. It passes when the run has a steady second, every steady second's
 * rate is within {@link #TOLERANCE} of the known rate, and every worker's seconds add up exactly
 * to its own count.
 *
 * @param rate         the rate the producer was held to, values per second
 * @param firstSteady  the first steady second, or -1
 * @param steady       steady seconds checked
 * @param worst        the largest |second's rate - rate| / rate among them (NaN without any)
 * @param worstSecond  the second it was in (-1 without any)
 * @param exact        whether the counts add up
 */
record SelfCheck(long rate, int firstSteady, int steady, double worst, int worstSecond, boolean exact) {
    /** A steady second may be this far off the known rate. */
    static final double TOLERANCE = 0.01;

    boolean pass() {
        return exact && firstSteady >= 0 && steady > 0 && worst <= TOLERANCE;
    }

    static SelfCheck of(RunData run, long rate) {
        Steadiness.Verdict v = run.verdict();
        double worst = Double.NaN;
        int at = -1;
        if (v.firstSteady() >= 0) {
            worst = 0;
            for (TimelineSecond s : run.seconds) {
                if (!s.partial() && s.second() >= v.firstSteady()) {
                    double d = Math.abs(s.rate() - rate) / rate;
                    if (d >= worst) {
                        worst = d;
                        at = s.second();
                    }
                }
            }
        }
        return new SelfCheck(rate, v.firstSteady(), v.steady(), worst, at, run.exact());
    }
}
