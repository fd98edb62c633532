package dev.statvar.jmh;

import dev.statvar.probes.ordered.OrderedScheduler;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * The uncontended cost of {@link OrderedScheduler} per task, on one thread (run with {@code -t 1}):
 * {@code inPlace} takes a ticket and runs it at once (the claim CAS of the sequence word, the
 * task, the advance, a look at the next slot); {@code leftBehindThenDrained} takes two tickets,
 * leaves the second's task in the ring and runs the first, which drains it (per operation two
 * tasks: an Entry allocated, its slot CAS, the drainer's claim). Issue 32's claim word added a
 * CAS and a slot read to the in-place path; this measures what they cost.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@State(Scope.Thread)
public class OrderedSchedulerBenchmark {
    private final OrderedScheduler scheduler = new OrderedScheduler(1024);
    private long output;
    private final Runnable task = () -> output++;

    @Benchmark
    public long inPlace() {
        scheduler.run(scheduler.ticket(), task);
        return output;
    }

    @Benchmark
    public long leftBehindThenDrained() {
        long first = scheduler.ticket();
        scheduler.run(scheduler.ticket(), task);
        scheduler.run(first, task);
        return output;
    }
}
