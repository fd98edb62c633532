package dev.statvar.lab;


import java.util.List;

/**
 * The articles' claims that docs/LAB.md's first table decides, study by study, each with the figure
 * that decides it and how ({@link Claim}). Bounds are the claim's own words turned into numbers
 * ("a couple of microseconds": at most 5 µs) or the study's noise band (the throughput study's 10 %);
 * each is printed beside its verdict. A claim about a mechanism the measure cannot see is listed as not
 * testable, with why, so that the table says what the lab did not decide as plainly as what it did.
 */
final class LabClaims {
    private LabClaims() {
    }

    private static final String CLICK_BUGS = "Click, \"A Pair of (somebody else's) Concurrency Bugs\"";

    static List<Claim> all() {
        return List.of(
                // 002: the counters and gauges (AMD EPYC run; noise: the cell's floor from the empty implementation)
                Claim.greater("counters", "counters", "Ivanov: synchronized counters are \"totally unusable\" under contention",
                        "SimpleCounter, 2 threads, delay 0: ns per op over the base loop, its cheapest run, against the cell's noise floor",
                        "implementation=SimpleCounter, delay=0, threads=2 | paired_ns_per_op_minus_base.min",
                        "implementation=SimpleCounter, delay=0, threads=2 | noise_floor_ns", "ns"),
                Claim.atMost("counters", "counters", "Ivanov: the compound atomic counter is \"within the target\" (5-10 ns ideal)",
                        "Compound Atomic, 2 threads, delay 0: ns per op over the base loop, its slowest run",
                        "implementation=Compound Atomic, delay=0, threads=2 | paired_ns_per_op_minus_base.max", null, 10, 20, "ns"),
                Claim.greater("counters", "counters", "Ivanov: unpadded lazy values are slow (false sharing), padding to 64 bytes fixes it",
                        "Compound Lazy unpadded, 2 threads, delay 10: ns per op over the base loop, the lower of its two levels,"
                                + " against the cell's noise floor",
                        "implementation=Compound Lazy unpadded, delay=10, threads=2 | levels.low_ns",
                        "implementation=Compound Lazy unpadded, delay=10, threads=2 | noise_floor_ns", "ns"),
                Claim.greater("gauges", "gauges", "Ivanov: gauges follow the counters: a shared synchronized gauge is slow under contention",
                        "Simple, 2 threads, delay 0: ns per op over the base loop, its cheapest run, against the cell's noise floor",
                        "implementation=Simple, delay=0, threads=2 | paired_ns_per_op_minus_base.min",
                        "implementation=Simple, delay=0, threads=2 | noise_floor_ns", "ns"),
                // 000/001: the atomic increment (AMD EPYC run; noise: the cell's fastest and slowest runs)
                Claim.atLeast("atomics", "atomics", "Thompson: contention on one AtomicLong (a CAS loop in 2011) more than halves its"
                                + " throughput",
                        "the CAS loop in Java, delay 0: 2 threads' fastest run over 1 thread's slowest, ns per op",
                        "case=CAS_VAL, impl=java, delay=0, threads=2 | ns_per_op_min",
                        "case=CAS_VAL, impl=java, delay=0, threads=1 | ns_per_op_max", 2, 2, "x")
                        .note("for today's XADD the same ratio straddles 2: the atomics section"),
                Claim.greater("atomics", "atomics", "Thompson: under contention XADD (getAndAdd) outperforms a CAS loop",
                        "2 threads, delay 0, Java: the CAS loop's fastest run against XADD's slowest, ns per op",
                        "case=CAS_VAL, impl=java, delay=0, threads=2 | ns_per_op_min",
                        "case=LOCK_XADD, impl=java, delay=0, threads=2 | ns_per_op_max", "ns"),
                // 004: Click's barrier
                Claim.atLeast("spin", "spin", CLICK_BUGS + ": the JIT hoists LUFact's plain flag load and the barrier hangs (2 threads)",
                        "PLAIN_LOCAL, 2 threads, work 100,000 (the first cell with 2 threads; after a hang each run starts a fresh JVM): the share of its runs that hung",
                        "design=PLAIN_LOCAL, threads=2, work=100000 | hung_runs", "design=PLAIN_LOCAL, threads=2, work=100000 | runs",
                        1, 0.01, "").note("confirmed when every run hung, refuted when none did"),
                Claim.atLeast("spin", "spin", CLICK_BUGS + ": the same, with 16 threads on 2 CPUs",
                        "PLAIN_LOCAL, 16 threads, work 100,000: the share of its runs that hung",
                        "design=PLAIN_LOCAL, threads=16, work=100000 | hung_runs", "design=PLAIN_LOCAL, threads=16, work=100000 | runs",
                        1, 0.01, ""),
                Claim.atLeast("spin", "spin", CLICK_BUGS + ": spinning with twice as many threads as CPUs takes 2-10x the time",
                        "ACQUIRE (a getAcquire spin), 4 threads on 2 CPUs, work 100,000: time per episode over its time at 2 threads",
                        "design=ACQUIRE, threads=4, work=100000 | time_over_at_cores", null, 2, 2, "x")
                        .note("decided as at least 2x; the figure is far above the article's 10x"),
                Claim.atLeast("spin", "spin", CLICK_BUGS + ": with Thread.yield \"you spend all of your time in the kernel"
                                + " context-switching\"",
                        "YIELD, 16 threads, no work (the spin loop alone): the workers' system CPU time over their user CPU time",
                        "design=YIELD, threads=16, work=0 | sys_us_per_episode",
                        "design=YIELD, threads=16, work=0 | user_us_per_episode", 1, 1, "x")
                        .note("with work, the work's own user time dominates the episode"),
                Claim.atLeast("spin", "spin", CLICK_BUGS + ": Thread.yield is no remedy when threads outnumber CPUs",
                        "YIELD, 16 threads, work 100,000: time per episode over the best design's",
                        "design=YIELD, threads=16, work=100000 | time_over_best", null, 1.5, 1.2, "x"),
                // 004: Click's harness
                Claim.atLeast("throughput", "throughput-quick", CLICK_BUGS + ": the summed figure is mostly the queue's: \"the"
                                + " reported results are 90% due to the BQ time\"",
                        "the queue's share of the summed time for one value each way, %",
                        "pitfall=summed | queue_share_percent", null, 50, 50, "%")
                        .note("confirmed when the queue's share is over half; the article's 90 % follows from its 10x"),
                Claim.notTestable("throughput", "throughput-quick", CLICK_BUGS + ": Disruptor ran \"10x faster than a BlockingQueue\"",
                        "the Disruptor-like ring's rate over the queue's, each alone in its JVM",
                        "pitfall=summed | ring_to_queue", "x", "the study runs a Disruptor-like ring, not the Disruptor, on 2 vCPUs"
                                + " of one VM, not the article's 16-way Nehalem"),
                Claim.atMost("throughput", "throughput-quick", CLICK_BUGS + ": \"Bad Code from the required OSR compiles\"",
                        "the loop's rate when only OSR-compiled over its rate as a compiled method (slower: below 1)",
                        "pitfall=osr | osr_to_method", null, 0.9, 1.1, "x").note("the study's 10 % band is within noise"),
                Claim.atMost("throughput", "throughput-quick", CLICK_BUGS + ": \"1st-run-fast-2nd-run-slow\": the 2nd loop runs"
                                + " with worse code (the queue second)",
                        "the queue's rate run second in a JVM that ran the ring first, over the queue alone",
                        "pitfall=profile_pollution, impl=queue | second_to_alone", null, 0.9, 1.1, "x")
                        .note("the study's 10 % band is within noise; the mechanism (the 2nd loop compiled with zero counts while the"
                                + " 1st still runs) is not what this harness exercises: its loops are separate methods"),
                // 003: Bempel
                Claim.atMost("signals", "signals", "Bempel: \"most of the time we can observe couple of microseconds for a call to"
                                + " notify\" (16 pairs)",
                        "WAIT_NOTIFY, 16 pairs: the notify call's median, ns", "mechanism=WAIT_NOTIFY, pairs=16, latency=signal_cost | p50",
                        null, 5000, 10000, "ns"),
                Claim.notTestable("signals", "signals", "Bempel: \"A notify call can take 1.6ms!\" (256 pairs)",
                        "WAIT_NOTIFY, 256 pairs: the notify call's largest, ns", "mechanism=WAIT_NOTIFY, pairs=256, latency=signal_cost | max",
                        "ns", "the same measure gives SPIN, whose call is one store, a larger maximum: the tail is the thread being"
                                + " preempted between its two clock reads, not the call"),
                Claim.greater("stores", "stores", "Bempel: a volatile store carries a lock add; lazySet (release) emits no barrier",
                        "1 thread: the volatile store's fastest run against the release store's slowest, ns per store",
                        "kind=VOLATILE, loop=store, threads=1 | ns_min", "kind=RELEASE, loop=store, threads=1 | ns_max", "ns"),
                Claim.atMost("locks", "locks", "Bempel: \"j.u.c.Lock is not handled by the JVM ... no special information about them\"",
                        "JFR's jdk.ThreadPark events for the LONG_HOLD lock, 4 workers (0 would confirm)",
                        "threads=4, section=LONG_HOLD, mode=- | jfr_events", null, 0, 0, ""),
                Claim.greater("ordered", "ordered", "Bempel: a Disruptor-style design costs \"a consumer thread for each instance\"",
                        "100 streams, 2 workers: threads the queue-and-consumer design runs, against the scheduler's",
                        "design=QUEUE_CONSUMER, streams=100, workers=2 | threads", "design=SCHEDULER, streams=100, workers=2 | threads", ""),
                Claim.atLeast("ordered", "ordered", "Bempel: the ordered scheduler \"reduce[s] the need for synchronization\""
                                + " (against a synchronized output section)",
                        "100 streams, 2 workers: the scheduler's tasks/s over the synchronized section's",
                        "design=SCHEDULER, streams=100, workers=2 | tasks_per_s", "design=SYNCHRONIZED, streams=100, workers=2 | tasks_per_s",
                        1.1, 0.9, "x"),
                Claim.atMost("ordered", "ordered", "Bempel: \"No wait strategy (spining, back-off, ...)\": no cost to results for"
                                + " not waiting (1 stream)",
                        "1 stream, 2 workers: the scheduler's median latency over the synchronized section's",
                        "design=SCHEDULER, streams=1, workers=2 | p50_ns", "design=SYNCHRONIZED, streams=1, workers=2 | p50_ns",
                        1.1, 1.1, "x"),
                // statvar-probes' HiccupMeter (jHiccup's idea)
                Claim.atLeast("hiccups", "hiccups", "jHiccup's idea: a sleeping thread sees every pause that stops the JVM"
                                + " (HiccupMeter's contract)",
                        "GC disturbance: the meter's longest hiccup over JFR's longest pause (the check allows one 1 ms resolution)",
                        "disturbance=GC | max_ns", "disturbance=GC | longest_pause_ns", 0.95, 0.95, "x"));
    }
}
