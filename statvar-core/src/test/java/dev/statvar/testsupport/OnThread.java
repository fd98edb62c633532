package dev.statvar.testsupport;

import java.util.concurrent.atomic.AtomicReference;

/** Runs test code on a new platform thread (a fresh thread for the engine: its own block) and waits for it. */
public final class OnThread {
    private OnThread() {
    }

    /** Runs {@code body} on a new platform thread and waits for it; rethrows what it threw as an AssertionError. */
    public static void run(Runnable body) throws InterruptedException {
        run("test-worker", body);
    }

    /** As {@link #run(Runnable)}, the thread named {@code name} (which a failure's message names too). */
    public static void run(String name, Runnable body) throws InterruptedException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                failure.set(e);
            }
        }, name);
        t.start();
        t.join(); // Thread.join: everything the thread did happens-before this return (JLS 17.4.4)
        if (failure.get() != null) {
            throw new AssertionError("in thread " + name, failure.get());
        }
    }
}
