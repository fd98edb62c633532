/**
 * statvar's probes: contention-counting locks, a JFR contention bridge, a hiccup meter, wake-up
 * timing and the ordered scheduler, all recording into a {@code dev.statvar} registry. Requires
 * {@code dev.statvar} (read transitively: its types appear in this module's signatures) and
 * {@code java.base}; {@code jdk.jfr} only for the JFR bridge, which says so when it is absent.
 * The jar also works on the class path.
 */
module dev.statvar.probes {
    requires transitive dev.statvar;
    requires static jdk.jfr;
    exports dev.statvar.probes;
}
