package dev.statvar.lab.counters;

import dev.statvar.StatRegistry;
import dev.statvar.lab.counters.baseline.Counter;
import dev.statvar.lab.counters.baseline.Gauge;
import dev.statvar.lab.counters.baseline.GaugeValue;
import dev.statvar.lab.counters.baseline.ServerCounter;
import dev.statvar.lab.counters.baseline.ServerGauge;

/**
 * statvar's Counter and Gauge behind the article's interfaces, so the harness runs them like
 * every other implementation: {@code getAndReset()} is a {@code collect()} (statvar never resets
 * a cell; the interval value is the difference of cumulative totals), and
 * {@code getThreadLocalView()} is either the shared handle ("any thread") or
 * {@code localView()}.
 */
final class StatvarImplementations {
    private StatvarImplementations() {
    }

    /** statvar's counter; {@code local}: workers use {@code localView()}. */
    static final class StatvarCounter extends ServerCounter {
        private final StatRegistry registry = StatRegistry.create();
        private final dev.statvar.Counter counter = registry.counter("lab_counter");
        private final boolean local;

        StatvarCounter(boolean local) {
            this.local = local;
        }

        @Override
        public void add(long increment) {
            counter.add(increment);
        }

        @Override
        public Counter getThreadLocalView() {
            if (!local) {
                return this;
            }
            dev.statvar.Counter view = counter.localView();
            return new Counter() {
                @Override
                public void add(long increment) {
                    view.add(increment);
                }

                @Override
                public void add() {
                    view.add();
                }
            };
        }

        @Override
        public long getAndReset() {
            return registry.collect().counter("lab_counter");
        }
    }

    /** statvar's gauge; {@code local}: workers use {@code localView()}. */
    static final class StatvarGauge extends ServerGauge {
        private final StatRegistry registry = StatRegistry.create();
        private final dev.statvar.Gauge gauge = registry.gauge("lab_gauge");
        private final boolean local;

        StatvarGauge(boolean local) {
            this.local = local;
        }

        @Override
        public void report(long value) {
            gauge.report(value);
        }

        @Override
        public Gauge getThreadLocalView() {
            if (!local) {
                return this;
            }
            dev.statvar.Gauge view = gauge.localView();
            return new Gauge() {
                @Override
                public void report(long value) {
                    view.report(value);
                }
            };
        }

        @Override
        public GaugeValue getAndReset() {
            dev.statvar.GaugeValue g = registry.collect().gauge("lab_gauge");
            return new GaugeValue() {
                @Override
                public long getCount() {
                    return g.count();
                }

                @Override
                public long getSum() {
                    return g.sum();
                }

                @Override
                public long getMax() {
                    return g.isEmpty() ? Long.MIN_VALUE : g.max();
                }

                @Override
                public long getMin() {
                    return g.isEmpty() ? Long.MAX_VALUE : g.min();
                }
            };
        }
    }
}
