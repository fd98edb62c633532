package dev.statvar.export.internal.http;

import java.lang.System.Logger.Level;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The workers of a {@link dev.statvar.export.MetricsServer}: a fixed pool of daemon threads behind a bounded queue, that
 * render complete requests, each under a time limit kept by a watchdog thread. A request beyond the
 * queue is rejected ({@link RejectedExecutionException}, counted, the first logged), never queued
 * without bound. Past the time limit the watchdog closes the request's connection without a response and
 * interrupts its worker. Thread-safe.
 */
public final class Workers {
    private static final System.Logger LOG = System.getLogger("dev.statvar.export");

    private final ThreadPoolExecutor pool;
    private final ScheduledThreadPoolExecutor watchdog;
    private final long limitNanos;
    private final Executor watched;
    private final AtomicLong rejected = new AtomicLong();
    private final AtomicLong timedOut = new AtomicLong();

    /**
     * @param prefix     thread-name prefix; workers are {@code prefix + n}, the watchdog {@code prefix + "watchdog-1"}
     * @param limitNanos the longest one request may take on a worker
     */
    public Workers(String prefix, int threads, int queueCapacity, long limitNanos) {
        this.limitNanos = limitNanos;
        this.pool = new ThreadPoolExecutor(threads, threads, 0L, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(queueCapacity), daemonThreads(prefix),
                (task, executor) -> {
                    // the front end catches this and closes the connection without a response
                    if (!executor.isShutdown() && rejected.getAndIncrement() == 0) {
                        LOG.log(Level.WARNING, "statvar-export: {0} workers and {1} queued requests busy:"
                                + " closing new connections without a response (logged once)", threads, queueCapacity);
                    }
                    throw new RejectedExecutionException("statvar-export saturated");
                });
        this.watchdog = new ScheduledThreadPoolExecutor(1, daemonThreads(prefix + "watchdog-"));
        this.watchdog.setRemoveOnCancelPolicy(true);
        this.watched = task -> pool.execute(new Watched(task));
    }

    private static ThreadFactory daemonThreads(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return task -> {
            Thread t = new Thread(task, prefix + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /**
     * Renders {@code exchange} with {@code render} on a worker and sends the response, unless the time limit
     * closed the connection first.
     *
     * @throws RejectedExecutionException when every worker is busy and the queue full, or after shutdown
     */
    public void submit(HttpExchange exchange, Function<HttpRequestHead, HttpResponse> render) {
        watched.execute(new Served(exchange, render));
    }

    /** The executor requests go to: the pool, each task under the watchdog (tests). */
    public Executor executor() {
        return watched;
    }

    /** Requests rejected because every worker was busy and the queue full. */
    public long rejected() {
        return rejected.get();
    }

    /** Tasks that ran over the time limit. */
    public long timedOut() {
        return timedOut.get();
    }

    public int queued() {
        return pool.getQueue().size();
    }

    public int active() {
        return pool.getActiveCount();
    }

    public boolean terminated() {
        return pool.isTerminated();
    }

    /** Stops the watchdog and the workers, interrupting them; waits up to 10 s for them to end. */
    public void shutdown() {
        watchdog.shutdownNow();
        pool.shutdownNow();
        try {
            pool.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One request on a worker: rendered, then answered, or closed if the watchdog gave up on it first. */
    private static final class Served implements Runnable {
        private final HttpExchange exchange;
        private final Function<HttpRequestHead, HttpResponse> render;
        /** Claimed once, by the worker (to answer) or by the watchdog (to close): CAS against CAS. */
        private final AtomicBoolean claimed = new AtomicBoolean();

        Served(HttpExchange exchange, Function<HttpRequestHead, HttpResponse> render) {
            this.exchange = exchange;
            this.render = render;
        }

        @Override
        public void run() {
            try {
                HttpResponse r = render.apply(exchange.head());
                if (claimed.compareAndSet(false, true)) {
                    exchange.respond(r);
                }
            } finally {
                if (claimed.compareAndSet(false, true)) {
                    exchange.abort(); // the render threw: close without a response
                }
            }
        }

        /** The watchdog's: close the connection without a response, unless the worker answered first. */
        void expired() {
            if (claimed.compareAndSet(false, true)) {
                exchange.abort();
            }
        }
    }

    /**
     * One task on a worker under the time limit: past it, the watchdog closes the request's connection (a
     * {@link Served} task) and interrupts the worker. The lock makes the interrupt land only while the task
     * runs, never on the worker's next task.
     */
    private final class Watched implements Runnable {
        private final Runnable task;
        private Thread worker; // guarded by this
        private boolean done; // guarded by this

        Watched(Runnable task) {
            this.task = task;
        }

        @Override
        public void run() {
            synchronized (this) {
                worker = Thread.currentThread();
            }
            ScheduledFuture<?> timeout = null;
            try {
                timeout = watchdog.schedule(this::expire, limitNanos, TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException closing) {
                // shutdown() is stopping everything: the connection is closed anyway
            }
            try {
                task.run();
            } finally {
                if (timeout != null) {
                    timeout.cancel(false);
                }
                synchronized (this) {
                    done = true;
                }
                // an expire() that interrupted us did so holding the lock: clear it before the next task
                Thread.interrupted();
            }
        }

        private synchronized void expire() {
            if (!done) {
                timedOut.incrementAndGet();
                if (task instanceof Served s) {
                    s.expired();
                }
                worker.interrupt();
            }
        }
    }
}
