package dev.statvar.lab.soak;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Virtual threads for a lab compiled for Java 17: {@code Thread.startVirtualThread(Runnable)} found by reflection.
 * Stateless; any thread may call it.
 */
final class VirtualThreads {
    private VirtualThreads() {
    }

    /**
     * {@code Thread.startVirtualThread(Runnable)} when this JDK has virtual threads, else null (JDK 17-18: no such
     * method; 19-20 without --enable-preview: it throws). Probed with one thread. Not to be called from a static
     * initializer: the probe thread would wait for that very initializer.
     */
    static MethodHandle find() {
        try {
            MethodHandle h = MethodHandles.publicLookup().findStatic(Thread.class, "startVirtualThread",
                    MethodType.methodType(Thread.class, Runnable.class));
            Thread probe = (Thread) h.invokeExact((Runnable) () -> { });
            probe.join(10_000);
            return probe.isAlive() ? null : h;
        } catch (Throwable e) {
            return null;
        }
    }

    /**
     * Starts {@code r} through {@code start} ({@link #find()}'s handle).
     *
     * @throws IllegalStateException when the handle fails, with its failure as the cause
     */
    static Thread start(MethodHandle start, Runnable r) {
        try {
            return (Thread) start.invokeExact(r);
        } catch (Throwable e) {
            throw new IllegalStateException("cannot start a virtual thread", e);
        }
    }
}
