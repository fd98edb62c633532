package dev.statvar.internal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Virtual-thread detection, which decides whether a thread gets cells of its own (platform) or a stripe (virtual). */
class ThreadsTest {

    @Test
    void aPlatformThreadIsNotVirtual() {
        assertFalse(Threads.isVirtual(Thread.currentThread()));
    }

    /** JDK 21+ (compiled for 17: the virtual thread is started reflectively). */
    @Test
    @EnabledForJreRange(min = JRE.JAVA_21)
    void aVirtualThreadIsDetected() throws Exception {
        AtomicBoolean virtual = new AtomicBoolean();
        Runnable task = () -> virtual.set(Threads.isVirtual(Thread.currentThread()));
        Thread t = (Thread) Thread.class.getMethod("startVirtualThread", Runnable.class).invoke(null, task);
        t.join();
        assertTrue(virtual.get());
        assertTrue(Threads.isVirtual(t));
    }
}
