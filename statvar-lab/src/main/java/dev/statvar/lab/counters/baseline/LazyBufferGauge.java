package dev.statvar.lab.counters.baseline;

/**
 * Article section "A very exotic solution": the lazy gauge whose values are 64-byte aligned
 * blocks of the off-heap {@link BufferGaugeValue} heap; the {@code volatile} field holds the
 * block's {@code int} address, swapped for a newly allocated one on collection. Measured as
 * "Compound LazyBufferGauge" / "Compound Lazy Buffer" in a {@link LazyCompoundGauge}.
 *
 * <p>Demonstrates 64-byte alignment without padding to 88 bytes. Known bugs: those of
 * {@link LazyGauge} (exact only in practice under lazy retrieval) plus those of
 * {@link BufferGaugeValue}: blocks are not initialised (min and max start at 0) and the
 * fixed-size shared heap wraps round after about 128 allocations, re-using blocks with stale
 * counts and sums (the article does not claim exact results for it).
 */
public class LazyBufferGauge extends ServerGauge {
    private volatile int current = BufferGaugeValue.alloc();

    @Override
    public void report(long value) {
        BufferGaugeValue.report(current, value);
    }

    @Override
    public GaugeValue getAndReset() {
        GaugeValue result = new BufferGaugeValue(current);
        current = BufferGaugeValue.alloc();
        return result;
    }

    /** The address of the block being filled (package-private, for tests). */
    int currentAddress() {
        return current;
    }
}
