package dev.statvar.micrometer;

import dev.statvar.Labels;

/** One statvar series: the stat's name and labels, the key of its values in a {@link dev.statvar.Snapshot}. */
record Series(String name, Labels labels) {
    static Series of(String name, String[] labelNames, String[] labelValues) {
        String[] nv = new String[labelNames.length * 2];
        for (int i = 0; i < labelNames.length; i++) {
            nv[2 * i] = labelNames[i];
            nv[2 * i + 1] = labelValues[i];
        }
        return new Series(name, nv.length == 0 ? Labels.EMPTY : Labels.of(nv));
    }
}
