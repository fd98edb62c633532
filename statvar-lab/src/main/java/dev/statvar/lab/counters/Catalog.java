package dev.statvar.lab.counters;

import dev.statvar.lab.counters.baseline.Implementations;
import dev.statvar.lab.counters.baseline.Implementations.Impl;
import dev.statvar.lab.counters.baseline.ServerCounter;
import dev.statvar.lab.counters.baseline.ServerGauge;

import java.util.ArrayList;
import java.util.List;

/** Every implementation the lab runs: the article's (in its order), then statvar's. */
final class Catalog {
    private Catalog() {
    }

    static List<Impl<ServerCounter>> counters() {
        List<Impl<ServerCounter>> list = new ArrayList<>(Implementations.counters());
        list.add(new Impl<>("statvar", false, () -> new StatvarImplementations.StatvarCounter(false), true));
        list.add(new Impl<>("statvar localView", false, () -> new StatvarImplementations.StatvarCounter(true), true));
        return list;
    }

    static List<Impl<ServerGauge>> gauges() {
        List<Impl<ServerGauge>> list = new ArrayList<>(Implementations.gauges());
        list.add(new Impl<>("statvar", false, () -> new StatvarImplementations.StatvarGauge(false), true));
        list.add(new Impl<>("statvar localView", false, () -> new StatvarImplementations.StatvarGauge(true), true));
        return list;
    }

    /** The implementation of this kind and name. */
    static Impl<?> find(Kind kind, String name) {
        for (Impl<?> i : kind == Kind.COUNTERS ? counters() : gauges()) {
            if (i.name().equals(name)) {
                return i;
            }
        }
        throw new IllegalArgumentException("no " + kind.label + " implementation named '" + name + "'");
    }

    /** The two studies of "Statistical variables in Java: not quite legal but very fast" (2017). */
    enum Kind {
        COUNTERS("counter"), GAUGES("gauge");

        final String label;

        Kind(String label) {
            this.label = label;
        }
    }
}
