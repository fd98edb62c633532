package dev.statvar.lab.counters.baseline;

/** The article's indirect counter value: fetched on one half-interval, read on the next. */
public abstract class CounterValue {
    public abstract long get();
}
