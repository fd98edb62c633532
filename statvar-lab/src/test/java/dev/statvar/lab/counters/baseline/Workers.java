package dev.statvar.lab.counters.baseline;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import java.util.function.IntConsumer;

/**
 * Client threads for the multi-thread tests. Each worker obtains its operation (typically a
 * thread-local view) in its own thread, then performs it {@code perThread} times, publishing its
 * progress in a volatile slot after every operation.
 *
 * <p>The published progress gives a deterministic cool-down for the lazy-retrieval protocol
 * ({@link #coolDown()}): after the server swapped the value objects, once every worker has
 * published two more operations (or finished), its next operations use the new object and all
 * its writes to the old one happen-before the server's read. This stands in for the article's
 * half-interval wait, which is only probabilistic on a loaded machine.
 *
 * <p>Each worker pauses after half its operations until {@link #releaseMidpoint()}, so that the
 * collecting thread is sure to collect while the workers hold partial counts.
 */
final class Workers {
    private final int perThread;
    private final Thread[] threads;
    private final AtomicLongArray progress;
    private final CountDownLatch start = new CountDownLatch(1);
    private final CountDownLatch midpoint = new CountDownLatch(1);
    private final AtomicIntegerArray parked;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    private Workers(int count, int perThread, IntFunction<IntConsumer> perWorker) {
        this.perThread = perThread;
        this.threads = new Thread[count];
        this.progress = new AtomicLongArray(count);
        this.parked = new AtomicIntegerArray(count);
        for (int w = 0; w < count; w++) {
            int worker = w;
            threads[w] = new Thread(() -> {
                try {
                    IntConsumer op = perWorker.apply(worker);
                    start.await();
                    for (int i = 1; i <= perThread; i++) {
                        op.accept(i);
                        progress.set(worker, i);
                        if (i == perThread / 2) {
                            parked.set(worker, 1);
                            midpoint.await();
                            parked.set(worker, 0);
                        }
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                    progress.set(worker, perThread);
                }
            }, "baseline-worker-" + w);
            threads[w].setDaemon(true);
        }
    }

    /**
     * Starts {@code count} workers; {@code perWorker.apply(w)} runs in worker {@code w}'s thread
     * and returns the operation it performs with arguments {@code 1..perThread}.
     */
    static Workers start(int count, int perThread, IntFunction<IntConsumer> perWorker) {
        Workers ws = new Workers(count, perThread, perWorker);
        for (Thread t : ws.threads) {
            t.start();
        }
        ws.start.countDown();
        return ws;
    }

    /** Lets the workers go on past half their operations (they wait there until this call). */
    void releaseMidpoint() {
        midpoint.countDown();
    }

    boolean anyAlive() {
        for (Thread t : threads) {
            if (t.isAlive()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Waits until every worker has published two more operations than now, or finished, or is
     * parked at the midpoint (its writes happen-before the parked flag, and it resumes only after
     * {@link #releaseMidpoint()}, which the collecting thread calls after its swap).
     */
    void coolDown() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (int w = 0; w < threads.length; w++) {
            long target = Math.min(progress.get(w) + 2, perThread);
            while (progress.get(w) < target && parked.get(w) == 0) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("worker " + w + " made no progress");
                }
                Thread.yield();
            }
        }
    }

    void join() throws Exception {
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(60));
            if (t.isAlive()) {
                throw new AssertionError(t.getName() + " did not finish");
            }
        }
        Throwable t = failure.get();
        if (t != null) {
            throw new AssertionError("worker failed", t);
        }
    }
}
