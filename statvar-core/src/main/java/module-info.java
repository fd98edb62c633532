/**
 * statvar: always-on counters, gauges and histograms. The API is the package {@code dev.statvar};
 * {@code dev.statvar.internal} (the engine) is not exported and may change in any release.
 * Requires only {@code java.base}. The jar also works on the class path.
 */
module dev.statvar {
    exports dev.statvar;
}
