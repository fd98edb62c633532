package dev.statvar.internal;

import dev.statvar.StatCollector;

import java.lang.System.Logger.Level;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The statistic engine's thread: closes an interval every {@code intervalNanos} (fixed rate,
 * skipping ticks it missed rather than bunching them) and hands it to the sink. Waits by
 * parking. A sink that throws is logged (once per interval, as each interval calls it once)
 * and the engine keeps going.
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
                next += intervalNanos;
                long now = System.nanoTime();
                if (next - now < 0) {
                    next = now + intervalNanos; // fell behind (sink too slow, GC, suspend): skip, don't bunch
                }
            }
            deliver(); // the last, partial interval
        } finally {
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
        closed = true;
        LockSupport.unpark(thread);
        if (Thread.currentThread() == thread) {
            return; // called from the sink: the loop delivers the last interval when the sink returns
        }
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
