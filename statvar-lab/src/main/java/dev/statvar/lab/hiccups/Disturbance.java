package dev.statvar.lab.hiccups;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * What the hiccups study does to the JVM while the meter runs, each a known cause of pauses that
 * stop every thread or this one: nothing, more busy threads than CPUs (the scheduler), full
 * garbage collections of a large live set (stop-the-world), and thread dumps of many threads
 * (safepoint operations). Each runs until {@link #stop()}.
 */
enum Disturbance {
    /** Nothing: the floor (the platform's sleep overshoot). */
    IDLE("nothing: the meter alone"),
    /** 2 x cores threads computing: the meter waits for a CPU. */
    CPU("2 x cores busy threads: the scheduler's delay"),
    /** A 300 MB live set and System.gc() every 500 ms: full stop-the-world collections. */
    GC("System.gc() every 500 ms over a 300 MB live set: stop-the-world pauses"),
    /** 300 parked threads with deep stacks, dumped every 100 ms: safepoint operations. */
    SAFEPOINTS("thread dumps of 300 parked threads every 100 ms: safepoint operations");

    final String design;
    private volatile boolean running; // written by stop(), read by the disturbing threads
    private final List<Thread> threads = new ArrayList<>();

    Disturbance(String design) {
        this.design = design;
    }

    /** Starts the disturbance's threads (cores: the machine's CPUs). */
    void start(int cores) {
        running = true;
        switch (this) {
            case IDLE -> { }
            case CPU -> {
                for (int i = 0; i < 2 * cores; i++) {
                    spawn("busy-" + i, () -> {
                        long x = 0;
                        while (running) {
                            x = x * 6364136223846793005L + 1442695040888963407L;
                        }
                        sink = x;
                    });
                }
            }
            case GC -> spawn("gc", () -> {
                List<long[]> live = new ArrayList<>();
                for (int i = 0; i < 300; i++) {
                    live.add(new long[128 * 1024]); // 1 MB each
                }
                while (running) {
                    live.set((int) (System.nanoTime() % live.size()), new long[128 * 1024]);
                    System.gc();
                    LockSupport.parkNanos(500_000_000L);
                }
                sink = live.size();
            });
            case SAFEPOINTS -> {
                for (int i = 0; i < 300; i++) {
                    spawn("parked-" + i, () -> deep(64));
                }
                spawn("dumper", () -> {
                    var mx = ManagementFactory.getThreadMXBean();
                    while (running) {
                        sink = mx.dumpAllThreads(false, false).length;
                        LockSupport.parkNanos(100_000_000L);
                    }
                });
            }
        }
    }

    private void deep(int depth) {
        if (depth > 0) {
            deep(depth - 1);
            return;
        }
        while (running) {
            LockSupport.parkNanos(50_000_000L);
        }
    }

    /** Stops and joins the disturbance's threads. */
    void stop() throws InterruptedException {
        running = false;
        for (Thread t : threads) {
            t.join();
        }
        threads.clear();
    }

    private void spawn(String name, Runnable r) {
        Thread t = new Thread(r, "disturb-" + name);
        t.setDaemon(true);
        threads.add(t);
        t.start();
    }

    /** Keeps the busy loops' results alive. */
    static volatile long sink;
}
