package dev.statvar.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/** Run-time detection of virtual threads (JDK 21+) without a compile-time dependency on them. */
public final class Threads {
    /** {@code Thread::isVirtual} where the running JDK has it, else null. */
    private static final MethodHandle IS_VIRTUAL = findIsVirtual();

    private static MethodHandle findIsVirtual() {
        try {
            return MethodHandles.publicLookup()
                    .findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null; // JDK 17-20: there are no virtual threads
        }
    }

    /** True if {@code t} is a virtual thread. */
    public static boolean isVirtual(Thread t) {
        if (IS_VIRTUAL == null) {
            return false;
        }
        try {
            return (boolean) IS_VIRTUAL.invokeExact(t);
        } catch (Throwable e) {
            throw new AssertionError("Thread.isVirtual failed", e);
        }
    }

    private Threads() {
    }
}
