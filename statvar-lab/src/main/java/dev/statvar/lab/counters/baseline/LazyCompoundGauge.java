package dev.statvar.lab.counters.baseline;

import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;

/**
 * Article section "Gauges": the lazy compound gauge over thread-local views of a given class
 * ({@link LazyGauge}, {@link Padded64LazyGauge}, {@link Padded88LazyGauge},
 * {@link LazyVolatileGauge}, {@link LazyAllocGauge}, {@link LazyBufferGauge}): collection swaps
 * every view's value and returns them in a {@link CompoundGaugeValue}, summed only when read.
 * Its own {@link #report(long)} goes to a synchronised local {@link SimpleGauge}.
 *
 * <p>Known bug (deliberate, as in the article): like {@link LazyCompoundCounter}, "not quite
 * legal": exact only in practice, when the returned value is read after a cool-down (lazy
 * retrieval); read immediately it can miss updates or see half-updated values.
 */
public class LazyCompoundGauge extends ServerGauge {
    private ArrayList<ServerGauge> views = new ArrayList<ServerGauge>();
    private Class<? extends ServerGauge> clazz;
    private SimpleGauge localGauge = new SimpleGauge();

    public LazyCompoundGauge(Class<? extends ServerGauge> clazz) {
        this.clazz = clazz;
        views.add(localGauge);
    }

    @Override
    public synchronized Gauge getThreadLocalView() {
        try {
            ServerGauge view = clazz.getDeclaredConstructor().newInstance();
            views.add(view);
            return view;
        } catch (InstantiationException | IllegalAccessException | InvocationTargetException
                | NoSuchMethodException e) {
            throw new RuntimeException(e);
        }
    }

    @Override
    public void report(long value) {
        localGauge.report(value);
    }

    @Override
    public synchronized GaugeValue getAndReset() {
        GaugeValue[] values = new GaugeValue[views.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = views.get(i).getAndReset();
        }
        return new CompoundGaugeValue(values);
    }
}
