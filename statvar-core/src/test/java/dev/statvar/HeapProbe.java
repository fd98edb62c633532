package dev.statvar;

import java.lang.management.ManagementFactory;

/** Retained heap after full collections, for bytes-per-thread checks (a 512 MiB fixed heap is set by Surefire). */
public final class HeapProbe {
    /** Heap in use after full collections: the lowest of six readings, each after System.gc() and a 30 ms pause. */
    public static long retainedBytes() throws InterruptedException {
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 6; i++) {
            System.gc();
            Thread.sleep(30);
            best = Math.min(best, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
        return best;
    }

    private HeapProbe() {
    }
}
