package dev.statvar;

/** The value of one stat in one interval ({@link Snapshot}). */
public sealed interface StatValue permits CounterValue, GaugeValue, HistogramValue {
    /**
     * The stat's name.
     *
     * @return the name it was registered with; for a series of a {@link StatFamily}, the family's
     */
    String name();

    /**
     * The series' labels.
     *
     * @return {@link Labels#EMPTY} for a stat without labels, else those of its {@link StatFamily} series
     */
    Labels labels();

    /**
     * The stat's help text.
     *
     * @return the help text it was registered with, {@code ""} when none was given
     */
    String help();

    /**
     * The stat's kind, which tells the type of this value.
     *
     * @return {@link StatKind#COUNTER} for a {@link CounterValue}, {@link StatKind#GAUGE} for a
     *         {@link GaugeValue}, {@link StatKind#HISTOGRAM} for a {@link HistogramValue}
     */
    StatKind kind();
}
