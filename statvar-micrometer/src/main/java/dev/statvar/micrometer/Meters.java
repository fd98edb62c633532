package dev.statvar.micrometer;

/** Small conversions shared by the meters. */
final class Meters {
    private Meters() {
    }

    /** A statvar total or sum (exact modulo 2^64, non-negative) as a double, read unsigned. */
    static double unsigned(long v) {
        return v >= 0 ? v : (double) (v >>> 1) * 2.0 + (v & 1);
    }
}
