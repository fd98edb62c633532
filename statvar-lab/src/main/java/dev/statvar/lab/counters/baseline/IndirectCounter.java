package dev.statvar.lab.counters.baseline;

/** The article's base of the indirect counters, for lazy retrieval. */
public abstract class IndirectCounter extends ServerCounter {
    public abstract CounterValue getAndResetValue();

    @Override
    public long getAndReset() {
        return getAndResetValue().get();
    }
}
