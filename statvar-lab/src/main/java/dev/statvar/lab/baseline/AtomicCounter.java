package dev.statvar.lab.baseline;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Article section "The atomic counter": an {@link AtomicLong} updated with {@code addAndGet}
 * (a {@code lock cmpxchg} loop) and collected with {@code getAndSet(0)}.
 *
 * <p>Demonstrates lock-free counting: correct, much faster than {@link SimpleCounter} but still
 * slow when many cores share it. Known bug: none; it counts exactly. (The article declares it
 * {@code extends Counter}, which cannot compile with its {@code @Override getAndReset}; it is a
 * {@link ServerCounter} here.)
 */
public final class AtomicCounter extends ServerCounter {
    private AtomicLong count = new AtomicLong(0);

    @Override
    public void add(long increment) {
        count.addAndGet(increment);
    }

    @Override
    public long getAndReset() {
        return count.getAndSet(0);
    }
}
