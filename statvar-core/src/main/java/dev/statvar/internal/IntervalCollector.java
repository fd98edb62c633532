package dev.statvar.internal;

import dev.statvar.StatCollector;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The statistic engine's thread: closes an interval every {@code intervalNanos} (fixed rate,
 * skipping ticks it missed rather than bunching them) and hands it to the sink. Waits by
 * parking. A sink that throws is logged (once per interval, as each interval calls it once)
 * and the engine keeps going. {@link #close(Duration)} waits a bounded time; when it gives up
 * (timeout or interrupt) it runs {@code onStop} itself and the thread, once its sink returns,
 * delivers nothing more: {@code onStop} runs once, on whichever thread stops first.
 *
 * @param <S> what a collect returns
 */
public final class IntervalCollector<S> implements StatCollector {
    private static final System.Logger LOG = System.getLogger("dev.statvar");

    private final Supplier<S> collect;
    private final Consumer<? super S> sink;
    private final long intervalNanos;
    private final Runnable onStop;
    private final Thread thread;
    /** Set by close(), read by the collector loop: volatile write pairs with the loop's volatile read. */
    private volatile boolean closed;
    /** Set once, by the thread's end or by close() giving up (abandoning it): whoever sets it runs onStop. */
    private final AtomicBoolean stopped = new AtomicBoolean();

    /**
     * A collector, not started yet ({@link #start()}).
     *
     * @param name          the thread's name
     * @param intervalNanos the interval, in ns, positive
     * @param collect       closes an interval
     * @param sink          receives each closed interval, on the collector's thread
     * @param onStop        runs on the collector's thread when it stops, after the last delivery
     */
    public IntervalCollector(String name, long intervalNanos, Supplier<S> collect, Consumer<? super S> sink,
                             Runnable onStop) {
        this.collect = collect;
        this.sink = sink;
        this.intervalNanos = intervalNanos;
        this.onStop = onStop;
        this.thread = new Thread(this::run, name);
        this.thread.setDaemon(true);
    }

    /** Starts the collector's daemon thread; the first interval closes {@code intervalNanos} later. Once only. */
    public void start() {
        thread.start();
    }

    private void run() {
        long next = System.nanoTime() + intervalNanos;
        try {
            while (!closed) {
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(this, wait);
                    continue;
                }
                deliver();
                if (stopped.get()) {
                    return; // abandoned by close() while in the sink: deliver nothing more
                }
                next += intervalNanos;
                long now = System.nanoTime();
                if (next - now < 0) {
                    next = now + intervalNanos; // fell behind (sink too slow, GC, suspend): skip, don't bunch
                }
            }
            if (!stopped.get()) {
                deliver(); // the last, partial interval
            }
        } finally {
            stop();
        }
    }

    private void stop() {
        if (stopped.compareAndSet(false, true)) {
            onStop.run();
        }
    }

    private void deliver() {
        S snapshot = collect.get();
        try {
            sink.accept(snapshot);
        } catch (RuntimeException | Error e) {
            if (e instanceof VirtualMachineError) {
                throw e;
            }
            LOG.log(Level.WARNING, "statvar: the interval sink threw; the interval is dropped, collection goes on", e);
        }
    }

    @Override
    public void close() {
        close(DEFAULT_CLOSE_TIMEOUT);
    }

    @Override
    public void close(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("close timeout must be >= 0, was " + timeout);
        }
        closed = true;
        LockSupport.unpark(thread);
        if (Thread.currentThread() == thread) {
            return; // called from the sink: the loop delivers the last interval when the sink returns
        }
        long deadline = System.nanoTime() + saturatedNanos(timeout);
        try {
            for (long left; thread.isAlive(); ) {
                left = deadline - System.nanoTime();
                if (left <= 0) {
                    StackTraceElement[] stack = thread.getStackTrace();
                    if (!thread.isAlive()) {
                        return;
                    }
                    stop(); // abandon it: the registry accepts a new collector
                    throw stuck(timeout, stack);
                }
                TimeUnit.NANOSECONDS.timedJoin(thread, left);
            }
        } catch (InterruptedException e) {
            stop(); // the caller gave up waiting: abandon it
            Thread.currentThread().interrupt();
        }
    }

    private IllegalStateException stuck(Duration timeout, StackTraceElement[] stack) {
        Exception where = new Exception("stack of thread \"" + thread.getName() + "\" when close() gave up");
        where.setStackTrace(stack);
        return new IllegalStateException("statvar: the sink " + sink + " of collector thread \"" + thread.getName()
                + "\" did not return within " + timeout + " of close(); the collector is abandoned (it delivers "
                + "nothing more once the sink returns) and the registry accepts a new collector", where);
    }

    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE / 2; // ~146 years: no deadline overflow
        }
    }
}
