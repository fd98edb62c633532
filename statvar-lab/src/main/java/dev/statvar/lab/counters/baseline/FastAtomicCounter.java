package dev.statvar.lab.counters.baseline;

/**
 * Article section "The fast atomic counter": a {@link CompoundCounter} over {@link AtomicCounter}
 * with the same {@link ThreadLocal} facade as {@link FastCounter}.
 *
 * <p>Demonstrates a thread-independent counter that "will satisfy any Java purist": completely
 * correct and properly synchronised. Known bug: none; it counts exactly (direct retrieval).
 */
public class FastAtomicCounter extends CompoundCounter {
    private ThreadLocal<Counter> counters = new ThreadLocal<Counter>();

    public FastAtomicCounter() {
        super(AtomicCounter.class);
    }

    @Override
    public synchronized Counter getThreadLocalView() {
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
