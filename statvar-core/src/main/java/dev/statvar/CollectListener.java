package dev.statvar;

/**
 * Called around every collect of a registry ({@link StatRegistry#addCollectListener}), whoever calls
 * it: a {@link StatCollector}, a manual {@link StatRegistry#collect()}, a reader of an adapter.
 *
 * <h2>Threading contract</h2>
 * Both methods run on the collecting thread while that registry's collects are serialised: one
 * collect's calls finish before the next collect begins. They must be short (they delay the
 * interval switch, never an update) and must not call {@link StatRegistry#collect()} (which then
 * throws {@link IllegalStateException}). A method that throws is logged (System.Logger
 * "dev.statvar") and the collect goes on.
 */
public interface CollectListener {
    /**
     * Before the interval closes: a pull-style source samples its value here and reports it into a
     * stat of the registry, so the closing interval counts it.
     */
    default void beforeCollect() {
    }

    /**
     * After the interval closed, with its snapshot, before {@code collect()} returns it.
     *
     * @param snapshot the interval just closed, the one {@code collect()} returns
     */
    default void afterCollect(Snapshot snapshot) {
    }
}
