package dev.statvar.lab.counters.baseline;

/**
 * Article section "A thread-independent solution": a {@link LazyCompoundCounter} over
 * {@link PaddedLazyCounter} (the article's padded {@code LazyCounter}) with a {@link ThreadLocal}
 * facade: {@link #add(long)} finds or creates the calling thread's view itself, so callers need
 * not obtain thread-local views; {@link #getThreadLocalView()} returns {@code this}.
 *
 * <p>Known bugs: those of {@link LazyCompoundCounter}: exact only in practice under lazy
 * retrieval. Views of stopped threads are never removed.
 */
public class FastCounter extends LazyCompoundCounter {
    private ThreadLocal<Counter> counters = new ThreadLocal<Counter>();

    public FastCounter() {
        super(PaddedLazyCounter.class);
    }

    @Override
    public Counter getThreadLocalView() {
        return this;
    }

    @Override
    public void add(long increment) {
        Counter counter = counters.get();
        if (counter == null) {
            counter = super.getThreadLocalView();
            counters.set(counter);
        }
        counter.add(increment);
    }
}
