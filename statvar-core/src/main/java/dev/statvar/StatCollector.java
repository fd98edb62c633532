package dev.statvar;

/**
 * A running statistic engine: a daemon thread that closes an interval at a fixed rate and hands
 * it to a sink. See {@link StatRegistry#startCollector}.
 */
public interface StatCollector extends AutoCloseable {
    /**
     * Stops the engine and delivers the last, partial interval to the sink before returning
     * (unless called from the sink itself, in which case it delivers it after the sink returns).
     * Idempotent.
     */
    @Override
    void close();
}
