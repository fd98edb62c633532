package dev.statvar.lab.counters.baseline;

/** The article's server-side gauge. */
public abstract class ServerGauge extends Gauge {
    public abstract GaugeValue getAndReset();
}
