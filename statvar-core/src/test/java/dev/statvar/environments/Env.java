package dev.statvar.environments;

import java.util.List;

/** Helpers shared by the environment stress tests. */
final class Env {
    /** The JUnit tag of every test in this package: run them as a group with {@code -Dgroups=environments}. */
    static final String TAG = "environments";

    /** 1 + 2 + ... + n modulo 2^64, as sums of long values are. */
    static long triangle(long n) {
        return n % 2 == 0 ? (n / 2) * (n + 1) : n * ((n + 1) / 2);
    }

    static String mib(long bytes) {
        return String.format("%.2f MiB", bytes / (1024.0 * 1024.0));
    }

    static String ms(long nanos) {
        return String.format("%.3f ms", nanos / 1e6);
    }

    /** Joins {@code t}, failing (with its stack) if it has not ended within {@code millis}. */
    static void join(Thread t, long millis) throws InterruptedException {
        t.join(millis);
        if (t.isAlive()) {
            AssertionError e = new AssertionError(t.getName() + " did not end within " + millis + " ms");
            e.setStackTrace(t.getStackTrace());
            throw e;
        }
    }

    /** Adds a failure to {@code failures} unless {@code got == expected}. */
    static void expect(List<String> failures, String what, long got, long expected) {
        if (got != expected) {
            failures.add(String.format("%s %,d, expected %,d", what, got, expected));
        }
    }

    private Env() {
    }
}
