/**
 * statvar's exporters: the Prometheus/OpenMetrics endpoint, log and CSV reporters. Requires only
 * {@code dev.statvar} (read transitively by its users: the API types appear in this module's
 * signatures) and {@code java.base}. The jar also works on the class path.
 */
module dev.statvar.export {
    requires transitive dev.statvar;
    exports dev.statvar.export;
}
