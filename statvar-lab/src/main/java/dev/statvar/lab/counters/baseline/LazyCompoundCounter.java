package dev.statvar.lab.counters.baseline;

import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.List;

/**
 * Article section "Lazy compound indirect counters": the compound counter over indirect views
 * ({@link LazyCounter}, {@link PaddedLazyCounter}, {@link LazyVolatileCounter},
 * {@link LazyAllocCounter}, {@link LazyCounter2}, ...), which collects the views' value objects
 * without reading them and returns a {@link CompoundCounterValue} to be read later.
 *
 * <p>Demonstrates the article's fast solution: thread-local views, no synchronisation on the
 * client path, lazy retrieval (collect on one half-interval, read on the next). Over the unpadded
 * {@link LazyCounter} it is slow because of false sharing between value objects; over
 * {@link PaddedLazyCounter} it is the fastest counter of the article.
 *
 * <p>Known bug (deliberate, as in the article): "not quite legal": the clients' plain writes to
 * the value objects are not ordered with the server's reads by the Java memory model; counts are
 * exact only in practice, under lazy retrieval, and can be lost if read immediately
 * ({@link #getAndReset()}) or if a client is descheduled for longer than the cool-down.
 */
public class LazyCompoundCounter extends IndirectCounter {
    private List<IndirectCounter> views = new ArrayList<IndirectCounter>();
    private Class<? extends IndirectCounter> clazz;
    private long localValue = 0;

    public LazyCompoundCounter(Class<? extends IndirectCounter> clazz) {
        this.clazz = clazz;
    }

    @Override
    public synchronized Counter getThreadLocalView() {
        try {
            IndirectCounter view = clazz.getDeclaredConstructor().newInstance();
            views.add(view);
            return view;
        } catch (InstantiationException | IllegalAccessException | InvocationTargetException
                | NoSuchMethodException e) {
            throw new RuntimeException(e);
        }
    }

    @Override
    public synchronized void add(long increment) {
        localValue += increment;
    }

    @Override
    public synchronized CounterValue getAndResetValue() {
        CounterValue[] values = new CounterValue[views.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = views.get(i).getAndResetValue();
        }
        long ownValue = localValue;
        localValue = 0;
        return new CompoundCounterValue(values, ownValue);
    }
}
