package dev.statvar.micrometer;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.observation.MeterObservationHandler;
import io.micrometer.core.instrument.noop.NoopMeter;
import io.micrometer.observation.Observation;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A {@link MeterObservationHandler} that creates the same meters as Micrometer's
 * {@link DefaultMeterObservationHandler}, with the same names and tags, and looks each up once per
 * distinct set of tags instead of once per observation: a drop-in replacement for the handler that
 * Spring Boot installs (statvar-spring-boot installs this one), for any {@link MeterRegistry}.
 *
 * <p>The meters, as {@code DefaultMeterObservationHandler} 1.17 makes them:
 * <ul>
 *   <li>{@code onStart}: the {@link LongTaskTimer} {@code <name>.active}, tagged with the
 *       observation's low-cardinality key values at start, is started (unless switched off);</li>
 *   <li>{@code onStop}: the {@link Timer} {@code <name>}, tagged with the low-cardinality key values
 *       at stop and {@code error} (the simple class name of the observation's error, or
 *       {@code none}), records the time since {@code onStart} on the registry's clock; the long task
 *       ends;</li>
 *   <li>{@code onEvent}: the {@link Counter} {@code <name>.<event name>}, tagged with the key values
 *       at that moment, is incremented.</li>
 * </ul>
 *
 * <h2>Design</h2>
 * <pre>
 * DefaultMeterObservationHandler builds a Tags and a Meter.Id and asks the registry for the meter
 * (MeterFilters applied, a map lookup) twice per observation: about 1.9 us of the 2.1 us an
 * observation costs on either registry (ObservationBenchmark, docs/MICROMETER.md). This handler keeps
 * the meter a (name, key values, error) asked for in a ConcurrentHashMap keyed by those values
 * (KeyValues implements equals and hashCode) and asks the registry only on a miss. A meter the
 * registry removes (MeterRegistry.remove, close) is dropped from the map by the registry's
 * onMeterRemoved callback, so a later observation asks again and gets the new meter; an
 * observation racing the removal may still update the removed meter, as one racing
 * DefaultMeterObservationHandler's lookup may.
 * A MeterFilter added after a meter was cached does not apply to it (Micrometer warns that filters
 * added late do not apply to existing meters either).
 * </pre>
 *
 * <h2>Threading contract</h2>
 * Thread-safe: observations on any thread; each observation's start and stop may run on different
 * threads (the context carries the start). The map grows with the distinct tag sets, as the
 * registry's own meters do.
 */
public final class StatvarObservationHandler implements MeterObservationHandler<Observation.Context> {
    private final MeterRegistry registry;
    private final boolean longTaskTimers;
    private final Map<Key, Meter> meters = new ConcurrentHashMap<>();

    /**
     * A handler creating the long-task timers too, as {@link DefaultMeterObservationHandler#DefaultMeterObservationHandler(MeterRegistry)}.
     *
     * @param registry where the meters are registered
     * @throws NullPointerException if {@code registry} is null
     */
    public StatvarObservationHandler(MeterRegistry registry) {
        this(registry, true);
    }

    /**
     * A handler with or without the {@code <name>.active} long-task timers (Micrometer's
     * {@code IgnoredMeters.LONG_TASK_TIMER} is {@code false} here).
     *
     * @param registry       where the meters are registered
     * @param longTaskTimers whether {@code onStart} starts a {@code <name>.active} long-task timer
     * @throws NullPointerException if {@code registry} is null
     */
    public StatvarObservationHandler(MeterRegistry registry, boolean longTaskTimers) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.longTaskTimers = longTaskTimers;
        registry.config().onMeterRemoved(m -> meters.values().removeIf(cached -> cached == m));
    }

    @Override
    public void onStart(Observation.Context context) {
        if (longTaskTimers) { // keyed by the observation's name: "<name>.active" is made on a miss only
            LongTaskTimer ltt = (LongTaskTimer) meters.computeIfAbsent(new Key(Meter.Type.LONG_TASK_TIMER, context.getName(), context.getLowCardinalityKeyValues(), null),
                    k -> LongTaskTimer.builder(k.name + ".active").tags(k.tags()).register(registry));
            if (!(ltt instanceof NoopMeter)) { // a filtered-out (no-op) long task measures nothing
                context.put(LongTaskTimer.Sample.class, ltt.start()); // its stop() returns the elapsed nanoseconds
                return;
            }
        }
        context.put(Start.class, new Start(registry.config().clock().monotonicTime()));
    }

    @Override
    public void onStop(Observation.Context context) {
        LongTaskTimer.Sample task = context.get(LongTaskTimer.Sample.class);
        long nanos;
        if (task != null) {
            nanos = task.stop(); // the registry's clock, as a Timer.Sample's: one clock read for both meters
        } else {
            Start start = context.getRequired(Start.class);
            nanos = registry.config().clock().monotonicTime() - start.nanos;
        }
        Throwable error = context.getError();
        Timer timer = (Timer) meters.computeIfAbsent(new Key(Meter.Type.TIMER, context.getName(), context.getLowCardinalityKeyValues(),
                        error == null ? "none" : error.getClass().getSimpleName()),
                k -> Timer.builder(k.name).tags(k.tags()).register(registry));
        timer.record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void onEvent(Observation.Event event, Observation.Context context) {
        String name = context.getName() + "." + event.getName();
        Counter counter = (Counter) meters.computeIfAbsent(new Key(Meter.Type.COUNTER, name, context.getLowCardinalityKeyValues(), null),
                k -> Counter.builder(k.name).tags(k.tags()).register(registry));
        counter.increment();
    }

    /** The monotonic time an observation started at, kept in its context when there is no long task to read it from. */
    private record Start(long nanos) {
    }

    /**
     * A meter's type and name (a long-task timer's: the observation's name, without {@code .active}),
     * the observation's low-cardinality key values, and the {@code error} tag's value (null: none).
     */
    private record Key(Meter.Type type, String name, KeyValues keyValues, String error) {
        Tags tags() {
            List<Tag> tags = new ArrayList<>();
            for (KeyValue kv : keyValues) {
                tags.add(Tag.of(kv.getKey(), kv.getValue()));
            }
            if (error != null) {
                tags.add(Tag.of("error", error));
            }
            return Tags.of(tags);
        }
    }
}
