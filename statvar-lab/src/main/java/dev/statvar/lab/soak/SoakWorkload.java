package dev.statvar.lab.soak;

import dev.statvar.Counter;
import dev.statvar.Gauge;
import dev.statvar.Histogram;

import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static dev.statvar.lab.soak.SoakStats.SHARDS;
import static dev.statvar.lab.soak.SoakStats.THREAD_TYPES;

/**
 * The soak's churn: {@link Slot}s that each start a short-lived platform worker, join it and start the next, and a
 * {@link VirtualSpawner} that does the same with batches of virtual threads; every worker updates all of
 * {@link SoakStats} and counts what it did in a {@link SoakCounts} of its own.
 *
 * <p>Threads: {@code running} is written by the main thread ({@link #stop()}, a volatile write) and read by every
 * loop (volatile reads). A worker's counts are written by the worker only and read by its slot or spawner after
 * {@code join()}; a slot's or spawner's totals are read by the main thread after joining it (join: happens-before).
 */
final class SoakWorkload {
    private static final String[] SHARD_NAMES = new String[SHARDS];

    static {
        for (int i = 0; i < SHARDS; i++) {
            SHARD_NAMES[i] = Integer.toString(i);
        }
    }

    private final SoakStats s;
    /** Workers, slots, spawner and scrapers run while this is true. */
    private volatile boolean running = true;

    SoakWorkload(SoakStats s) {
        this.s = s;
    }

    /** Whether the run goes on (a volatile read). */
    boolean running() {
        return running;
    }

    /** Ends the run: every loop ends after its current step. */
    void stop() {
        running = false;
    }

    /** One worker: updates every stat until its life ends (at least one op). Its counts are read after join(). */
    final class Work implements Runnable {
        private final int type;
        private final long lifeNanos;
        private final boolean local;
        /** Written by the worker thread only; read by its joiner after join(). */
        final SoakCounts c = new SoakCounts();

        /**
         * @param type  index in {@link SoakStats#THREAD_TYPES}
         * @param local whether to update through {@code localView()}
         */
        Work(int type, long lifeNanos, boolean local) {
            this.type = type;
            this.lifeNanos = lifeNanos;
            this.local = local;
        }

        @Override
        public void run() {
            ThreadLocalRandom r = ThreadLocalRandom.current();
            Counter ops = local ? s.ops().localView() : s.ops();
            Gauge queue = local ? s.queue().localView() : s.queue();
            Histogram latency = local ? s.latency().localView() : s.latency();
            String typeName = THREAD_TYPES[type];
            boolean isVirtual = type == 1;
            long end = System.nanoTime() + lifeNanos;
            SoakCounts c = this.c;
            do {
                for (int i = 0; i < 32; i++) {
                    ops.add();
                    long n = r.nextInt(1000);
                    s.bytes().add(n);
                    long g = r.nextLong(-1_000_000_000L, 1_000_000_000L);
                    queue.report(g);
                    long h = r.nextLong(1L << r.nextInt(41)); // 0 .. 2^40: a thread's buckets grow octave by octave
                    latency.record(h);
                    int shard = r.nextInt(SHARDS);
                    s.requests().labels(typeName, SHARD_NAMES[shard]).add();
                    c.ops++;
                    c.bytes += n;
                    c.gaugeCount++;
                    c.gaugeSum += g;
                    c.gaugeMin = Math.min(c.gaugeMin, g);
                    c.gaugeMax = Math.max(c.gaugeMax, g);
                    c.histCount++;
                    c.histSum += h;
                    c.series[type * SHARDS + shard]++;
                }
                if (isVirtual && r.nextInt(4) == 0) {
                    LockSupport.parkNanos(20_000); // unmount: virtual threads interleave on the carriers
                }
            } while (running && System.nanoTime() - end < 0);
        }
    }

    /** A slot: starts a platform worker, joins it, adds its counts, starts the next; until the run ends. */
    final class Slot extends Thread {
        private final AtomicLong started;
        /** Written by this thread only; read by the main thread after join(). */
        final SoakCounts total = new SoakCounts();
        long threads;

        Slot(AtomicLong started, int i) {
            super("soak-slot-" + i);
            setDaemon(true);
            this.started = started;
        }

        @Override
        public void run() {
            ThreadLocalRandom r = ThreadLocalRandom.current();
            try {
                while (running) {
                    long life = r.nextInt(4) == 0 ? 0 : r.nextLong(1_000_000, 30_000_000); // a quarter: one op and out
                    Work w = new Work(0, life, r.nextBoolean());
                    Thread t = new Thread(w, getName() + "-worker-" + threads);
                    t.setDaemon(true);
                    t.start();
                    threads++;
                    started.incrementAndGet();
                    t.join();
                    total.add(w.c); // after join(): every write of the worker is visible
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Keeps {@code batch} virtual workers alive at a time: starts a batch, joins it, starts the next. */
    final class VirtualSpawner extends Thread {
        private final int batch;
        private final AtomicLong started;
        private final MethodHandle start;
        /** Written by this thread only; read by the main thread after join(). */
        final SoakCounts total = new SoakCounts();

        /** @param start {@link VirtualThreads#find()} */
        VirtualSpawner(MethodHandle start, int batch, AtomicLong started) {
            super("soak-virtual-spawner");
            setDaemon(true);
            this.start = start;
            this.batch = batch;
            this.started = started;
        }

        @Override
        public void run() {
            ThreadLocalRandom r = ThreadLocalRandom.current();
            List<Work> works = new ArrayList<>(batch);
            List<Thread> ts = new ArrayList<>(batch);
            try {
                while (running) {
                    works.clear();
                    ts.clear();
                    for (int i = 0; i < batch; i++) {
                        Work w = new Work(1, r.nextInt(4) == 0 ? 0 : r.nextLong(100_000, 5_000_000), r.nextBoolean());
                        works.add(w);
                        ts.add(VirtualThreads.start(start, w));
                        started.incrementAndGet();
                    }
                    for (int i = 0; i < batch; i++) {
                        ts.get(i).join();
                        total.add(works.get(i).c); // after join()
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
