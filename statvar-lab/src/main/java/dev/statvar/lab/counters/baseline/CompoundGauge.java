package dev.statvar.lab.counters.baseline;

import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;

/**
 * Article section "Gauges": the compound gauge over thread-local views of a given class,
 * measured over {@link SimpleGauge} as "Compound Simple"; collection resets every view and adds
 * their values into a {@link MutableGaugeValue}. Its own {@link #report(long)} goes to a
 * synchronised local {@link SimpleGauge}. The article does not show it ("very similar to those of
 * the counters"); this follows {@link CompoundCounter}.
 *
 * <p>Known bug: those of the view class; over {@link SimpleGauge} it is exact.
 */
public class CompoundGauge extends ServerGauge {
    private ArrayList<ServerGauge> views = new ArrayList<ServerGauge>();
    private Class<? extends ServerGauge> clazz;
    private SimpleGauge localGauge = new SimpleGauge();

    public CompoundGauge(Class<? extends ServerGauge> clazz) {
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
        MutableGaugeValue sum = new MutableGaugeValue();
        for (ServerGauge view : views) {
            sum.add(view.getAndReset());
        }
        return sum;
    }
}
