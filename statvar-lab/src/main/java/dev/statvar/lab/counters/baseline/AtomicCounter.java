package dev.statvar.lab.counters.baseline;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Article section "The atomic counter": an {@link AtomicLong} updated with {@code addAndGet}
 * and collected with {@code getAndSet(0)}. In 2011 (the article's JDK) {@code addAndGet} was a
 * {@code lock cmpxchg} retry loop; since JDK 8 C2 compiles it to one {@code lock xadd} (the
 * atomics study shows the JIT's code of {@code AtomicLong.incrementAndGet}, the same intrinsic:
 * docs/lab/atomics/asm-java.txt).
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
