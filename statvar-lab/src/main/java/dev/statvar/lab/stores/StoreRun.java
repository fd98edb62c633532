package dev.statvar.lab.stores;

import java.util.Locale;

/** One measured run, parsed from a {@link StoreRunner} RESULT line: ns per store over {@code stores} stores. */
record StoreRun(StoreKind kind, String loop, int threads, int run, double nsPerStore, long stores) {

    /** {@code RESULT KIND LOOP THREADS RUN NS_PER_STORE STORES}. */
    static StoreRun parse(String line) {
        String[] p = line.split(" ");
        return new StoreRun(StoreKind.valueOf(p[1]), p[2], Integer.parseInt(p[3]), Integer.parseInt(p[4]),
                Double.parseDouble(p[5]), Long.parseLong(p[6]));
    }

    /** kind:loop:threads. */
    String key() {
        return String.format(Locale.ROOT, "%s:%s:%d", kind, loop, threads);
    }
}
