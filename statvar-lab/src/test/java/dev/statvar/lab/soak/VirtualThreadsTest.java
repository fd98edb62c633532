package dev.statvar.lab.soak;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Virtual threads found by reflection: none before JDK 21, real ones from 21 on; a failing start names itself. */
@Timeout(30)
class VirtualThreadsTest {

    @Test
    void foundFromJdk21OnAndStartsAVirtualThread() throws Exception {
        MethodHandle start = VirtualThreads.find();
        if (Runtime.version().feature() < 21) {
            assertNull(start, "JDK " + Runtime.version() + " has no virtual threads");
            return;
        }
        assertNotNull(start, "JDK " + Runtime.version());
        CountDownLatch ran = new CountDownLatch(1);
        Thread t = VirtualThreads.start(start, ran::countDown);
        assertTrue(ran.await(10, TimeUnit.SECONDS));
        t.join(10_000);
        assertEquals(true, Thread.class.getMethod("isVirtual").invoke(t));
    }

    @Test
    void aFailingStartThrowsIllegalStateWithTheCause() {
        IllegalArgumentException cause = new IllegalArgumentException("no");
        MethodHandle failing = MethodHandles.dropArguments(
                MethodHandles.throwException(Thread.class, IllegalArgumentException.class).bindTo(cause), 0, Runnable.class);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> VirtualThreads.start(failing, () -> { }));
        assertEquals("cannot start a virtual thread", e.getMessage());
        assertSame(cause, e.getCause());
    }
}
