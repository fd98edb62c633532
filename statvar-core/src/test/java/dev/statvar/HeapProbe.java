package dev.statvar;

import java.lang.management.ManagementFactory;

/** Retained heap after full collections, for bytes-per-thread checks (a 512 MiB fixed heap is set by Surefire). */
final class HeapProbe {
    static long retainedBytes() throws InterruptedException {
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
