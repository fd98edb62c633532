package dev.statvar.lab.counters.baseline;

/** The article's server-side counter: the statistic engine collects and resets it every interval. */
public abstract class ServerCounter extends Counter {
    public abstract long getAndReset();
}
