package dev.statvar.lab.counters.baseline;

import java.util.List;
import java.util.function.Supplier;

/**
 * The registry of the article's counters and gauges, in the article's order, under the article's
 * display names where its tables give them (names are unique; where the article uses one name for
 * several variants, e.g. "Compound Lazy" before and after padding, the final, summary variant
 * keeps the article's name and the earlier one gets a suffix).
 *
 * <p>{@link Impl#indirect()}: the harness must use the article's lazy-retrieval protocol: collect
 * on one half-interval, use the collected value on the next (for counters: cast to
 * {@link IndirectCounter} and call {@link IndirectCounter#getAndResetValue()}, then
 * {@link CounterValue#get()} half an interval later; for gauges: call
 * {@link ServerGauge#getAndReset()} and read the returned {@link GaugeValue} half an interval
 * later). Otherwise it collects with {@code getAndReset()} and uses the value at once.
 *
 * <p>{@link Impl#expectedExact()}: the article claims (or, for the never-measured
 * {@code LazyCounter2..4}, implies: "all valid solutions") that the implementation counts exactly
 * under that protocol with several client threads, each using its own
 * {@code getThreadLocalView()}.
 */
public final class Implementations {
    private Implementations() {
    }

    /**
     * A named factory.
     *
     * @param name          the article's display name
     * @param indirect      the harness must use lazy retrieval
     * @param factory       creates a fresh instance
     * @param expectedExact the article claims exact counts under that protocol
     */
    public record Impl<T>(String name, boolean indirect, Supplier<T> factory, boolean expectedExact) {
    }

    private static Impl<ServerCounter> direct(String name, Supplier<ServerCounter> f, boolean exact) {
        return new Impl<>(name, false, f, exact);
    }

    private static Impl<ServerCounter> lazy(String name, Supplier<ServerCounter> f, boolean exact) {
        return new Impl<>(name, true, f, exact);
    }

    /** The counters, in the article's order. */
    public static List<Impl<ServerCounter>> counters() {
        return List.of(
                direct("EmptyCounter", EmptyCounter::new, false),
                direct("TrivialCounter", TrivialCounter::new, false),
                direct("VolatileCounter", VolatileCounter::new, false),
                direct("SimpleCounter", SimpleCounter::new, true),
                direct("AtomicCounter", AtomicCounter::new, true),
                direct("Compound Trivial", () -> new CompoundCounter(TrivialCounter.class), false),
                direct("Compound Volatile", () -> new CompoundCounter(VolatileCounter.class), false),
                direct("Compound Simple", () -> new CompoundCounter(SimpleCounter.class), true),
                direct("Compound Atomic", () -> new CompoundCounter(AtomicCounter.class), true),
                // "Indirect counters": CompoundCounter over LazyCounter, read at once: loses counts.
                direct("Compound Lazy (direct)", () -> new CompoundCounter(LazyCounter.class), false),
                // "Indirect counter: lazy retrieval": exact with one thread only.
                lazy("LazyCounter", LazyCounter::new, false),
                // "Lazy compound indirect counters", before "The false sharing problem".
                lazy("Compound Lazy unpadded", () -> new LazyCompoundCounter(LazyCounter.class), true),
                lazy("Compound Lazy", () -> new LazyCompoundCounter(PaddedLazyCounter.class), true),
                lazy("FastCounter", FastCounter::new, true),
                direct("FastAtomicCounter", FastAtomicCounter::new, true),
                lazy("Compound Lazy Volatile", () -> new LazyCompoundCounter(LazyVolatileCounter.class), true),
                lazy("Compound Lazy2", () -> new LazyCompoundCounter(LazyCounter2.class), true),
                lazy("Compound Lazy3", () -> new LazyCompoundCounter(LazyCounter3.class), true),
                lazy("Compound Lazy4", () -> new LazyCompoundCounter(LazyCounter4.class), true),
                lazy("Compound LazyAlloc", () -> new LazyCompoundCounter(LazyAllocCounter.class), false),
                direct("LongAccumulatorCounter", LongAccumulatorCounter::new, false),
                direct("LongAdderCounter", LongAdderCounter::new, false),
                // The same two with JDK 8's reset (the article ran on JDK 8): the lost update it found.
                direct("Jdk8LongAccumulatorCounter", Jdk8LongAccumulatorCounter::new, false),
                direct("Jdk8LongAdderCounter", Jdk8LongAdderCounter::new, false),
                direct("LongAccumulatorDeltaCounter", LongAccumulatorDeltaCounter::new, true),
                direct("LongAdderDeltaCounter", LongAdderDeltaCounter::new, true));
    }

    private static Impl<ServerGauge> directGauge(String name, Supplier<ServerGauge> f, boolean exact) {
        return new Impl<>(name, false, f, exact);
    }

    private static Impl<ServerGauge> lazyGauge(String name, Supplier<ServerGauge> f, boolean exact) {
        return new Impl<>(name, true, f, exact);
    }

    /** The gauges, in the article's order. */
    public static List<Impl<ServerGauge>> gauges() {
        return List.of(
                directGauge("EmptyGauge", EmptyGauge::new, false),
                directGauge("Simple", SimpleGauge::new, true),
                directGauge("Compound Simple", () -> new CompoundGauge(SimpleGauge.class), true),
                lazyGauge("Compound Lazy unpadded", () -> new LazyCompoundGauge(LazyGauge.class), true),
                lazyGauge("Compound Lazy padded 64", () -> new LazyCompoundGauge(Padded64LazyGauge.class), true),
                lazyGauge("Compound Lazy", () -> new LazyCompoundGauge(Padded88LazyGauge.class), true),
                lazyGauge("FastGauge", FastGauge::new, true),
                lazyGauge("Compound Lazy Volatile", () -> new LazyCompoundGauge(LazyVolatileGauge.class), true),
                lazyGauge("Compound LazyAlloc", () -> new LazyCompoundGauge(LazyAllocGauge.class), false),
                lazyGauge("Compound Lazy Buffer", () -> new LazyCompoundGauge(LazyBufferGauge.class), false));
    }
}
