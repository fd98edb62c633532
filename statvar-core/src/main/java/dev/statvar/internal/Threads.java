package dev.statvar.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Run-time detection of JDK 19+/21+ thread features without a compile-time dependency on them.
 */
public final class Threads {
    /** {@code Thread::isVirtual} where the running JDK has it, else null. */
    private static final MethodHandle IS_VIRTUAL = find("isVirtual", boolean.class);
    /**
     * {@code Thread::threadId} (JDK 19+, final: a subclass cannot change it), else
     * {@code Thread::getId} (JDK 17-18, overridable).
     */
    private static final MethodHandle THREAD_ID;

    static {
        MethodHandle id = find("threadId", long.class);
        THREAD_ID = id != null ? id : find("getId", long.class);
    }

    private static MethodHandle find(String name, Class<?> type) {
        try {
            return MethodHandles.publicLookup().findVirtual(Thread.class, name, MethodType.methodType(type));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null; // not on this JDK
        }
    }

    /**
     * Whether {@code t} is a virtual thread.
     *
     * @param t a thread
     * @return {@code t.isVirtual()}; false on a JDK without virtual threads
     */
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

    /**
     * The thread's id: {@code threadId()} on JDK 19+, {@code getId()} before. Used only to hash a
     * thread to a slot: on JDK 17 a subclass may return any id (two threads the same), so
     * statvar never identifies a thread by it; the owner check compares the {@code Thread}.
     *
     * @param t a thread
     * @return its id
     */
    public static long id(Thread t) {
        try {
            return (long) THREAD_ID.invokeExact(t);
        } catch (Throwable e) {
            throw new AssertionError("Thread id failed", e);
        }
    }

    private Threads() {
    }
}
