package dev.statvar;

/** The value of one stat in one interval ({@link Snapshot}). */
public sealed interface StatValue permits CounterValue, GaugeValue, HistogramValue {
    /** The stat's name. */
    String name();

    /** The series' labels: {@link Labels#EMPTY} for a stat without labels, else those of its {@link StatFamily} series. */
    Labels labels();

    /** The stat's help text ("" when none was given). */
    String help();

    /** The stat's kind. */
    StatKind kind();
}
