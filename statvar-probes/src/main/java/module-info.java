/**
 * statvar's probes: contention-counting locks, a JFR contention bridge, a hiccup meter and wake-up
 * timing ({@code dev.statvar.probes}), and the ordered scheduler, an executor that counts what it does
 * ({@code dev.statvar.probes.ordered}), all recording into a {@code dev.statvar} registry. Requires
 * {@code dev.statvar} (read transitively: its types appear in this module's signatures) and
 * {@code java.base}; {@code jdk.jfr} only for the JFR bridge, which says so when it is absent.
 * The jar also works on the class path.
 */
module dev.statvar.probes {
    requires transitive dev.statvar;
    requires static jdk.jfr;
    exports dev.statvar.probes;
    exports dev.statvar.probes.ordered;
}
