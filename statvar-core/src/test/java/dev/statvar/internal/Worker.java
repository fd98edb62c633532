package dev.statvar.internal;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/** One thread that runs the test's steps, one at a time, until stopped (then joined: it is dead). */
final class Worker {
    final ExecutorService executor;
    final Thread thread;

    Worker(ThreadFactory factory) {
        executor = Executors.newSingleThreadExecutor(factory);
        thread = call(Thread::currentThread);
    }

    Worker() {
        this(Thread::new);
    }

    <T> T call(Callable<T> step) {
        try {
            return executor.submit(step).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    void run(Runnable step) {
        call(() -> {
            step.run();
            return null;
        });
    }

    Future<?> submit(Runnable step) {
        return executor.submit(step);
    }

    /** Stops the thread and waits until it has terminated ({@code isAlive() == false}). */
    void stop() {
        executor.shutdown();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        if (thread.isAlive()) {
            throw new AssertionError(thread + " did not terminate");
        }
    }

    /** A factory making threads whose table slot, in a table of {@code length} slots, is {@code with}'s. */
    static ThreadFactory collidingWith(Thread with, int length) {
        long slot = Threads.id(with) & (length - 1);
        return task -> {
            while (true) {
                Thread t = new Thread(task);
                if ((Threads.id(t) & (length - 1)) == slot) {
                    return t;
                }
            }
        };
    }

    /** Virtual threads (JDK 21+), made reflectively: the tests compile for 17. */
    static ThreadFactory virtual() {
        try {
            Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
            return (ThreadFactory) Class.forName("java.lang.Thread$Builder").getMethod("factory").invoke(builder);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
