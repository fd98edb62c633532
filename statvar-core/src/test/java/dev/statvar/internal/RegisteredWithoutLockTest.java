package dev.statvar.internal;

import dev.statvar.Snapshot;
import dev.statvar.StatRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.reflect.Field;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * What an exporter calls at every scrape, {@code StatRegistry.size()} and {@code registered()},
 * must not wait for the engine's lock (which {@code collect()} holds while it reads the live
 * threads' arrays): they answer while another thread holds that lock.
 */
class RegisteredWithoutLockTest {
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void sizeAndRegisteredAnswerWhileTheEngineLockIsHeld() throws Exception {
        StatRegistry r = StatRegistry.create();
        r.counter("c");
        r.gauge("g");
        r.histogram("h");
        Field f = StatRegistry.class.getDeclaredField("engine");
        f.setAccessible(true);
        Engine engine = (Engine) f.get(r);
        Field l = Engine.class.getDeclaredField("lock");
        l.setAccessible(true);
        Object lock = l.get(engine);
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread holder = new Thread(() -> {
            synchronized (lock) {
                held.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        holder.start();
        held.await();
        try {
            CompletableFuture<Snapshot> registered = CompletableFuture.supplyAsync(r::registered);
            CompletableFuture<Integer> size = CompletableFuture.supplyAsync(r::size);
            assertEquals(3, size.get(10, TimeUnit.SECONDS), "size() while the lock is held");
            Snapshot s = registered.get(10, TimeUnit.SECONDS);
            assertEquals(3, s.values().size(), "registered() while the lock is held");
            assertEquals(0, s.counter("c"));
            assertEquals(0, s.gauge("g").count());
            assertEquals(0, s.histogram("h").count());
            // the control: registration does take the lock, so it is still waiting
            CompletableFuture<?> registration = CompletableFuture.runAsync(() -> r.counter("later"));
            Thread.sleep(200);
            assertFalse(registration.isDone(), "registration must wait for the lock: the test holds the real lock");
        } finally {
            release.countDown();
            holder.join();
        }
    }
}
