package dev.statvar.lab.stores;

import java.util.List;

/**
 * What the store study measures and reads the JIT's code of: the six kinds of store of Jean-Philippe Bempel's "Volatile and memory barriers" (2015)
 * ("Volatile and memory barriers"), each named as {@link java.lang.invoke.VarHandle} names its
 * access mode, and statvar's own update paths. {@code barrier}: whether the JIT's code of the
 * kind's loop must carry a locked instruction, {@code mfence} or a memory {@code xchg} (true),
 * must not (false); {@code loops}: the loop methods of {@link StoreLoops} the kind is measured in.
 */
enum StoreKind {
    PLAIN("plain store (field = v)", false, "storePlain", "storeLoadPlain"),
    OPAQUE("setOpaque", false, "storeOpaque", "storeLoadOpaque"),
    RELEASE("setRelease (AtomicInteger.lazySet)", false, "storeRelease", "storeLoadRelease"),
    VOLATILE("setVolatile (volatile field = v)", true, "storeVolatile", "storeLoadVolatile"),
    GET_AND_SET("getAndSet", true, "storeGetAndSet", "storeLoadGetAndSet"),
    FULL_FENCE("plain store + VarHandle.fullFence()", true, "storeFullFence", "storeLoadFullFence"),
    COUNTER_ADD("statvar Counter.add()", false, "counterAdd", null),
    GAUGE_REPORT("statvar Gauge.report(v)", false, "gaugeReport", null),
    HISTOGRAM_RECORD("statvar Histogram.record(v)", false, "histogramRecord", null);

    final String label;
    final boolean barrier;
    private final String storeMethod;
    private final String storeLoadMethod;

    StoreKind(String label, boolean barrier, String storeMethod, String storeLoadMethod) {
        this.label = label;
        this.barrier = barrier;
        this.storeMethod = storeMethod;
        this.storeLoadMethod = storeLoadMethod;
    }

    /** statvar's update paths: measured in their own loop, at one thread only. */
    boolean statvar() {
        return storeLoadMethod == null;
    }

    /** The loops it is measured in: {@code store} and {@code store-load}, or {@code update} for statvar's. */
    List<String> loops() {
        return statvar() ? List.of("update") : List.of("store", "store-load");
    }

    /** The {@link StoreLoops} method of {@code loop}. */
    String method(String loop) {
        return loop.equals("store-load") ? storeLoadMethod : storeMethod;
    }

    /** Thread counts it runs at: 1, and 2 (another thread reading the field) for the six stores. */
    List<Integer> threads() {
        return statvar() ? List.of(1) : List.of(1, 2);
    }
}
