package dev.statvar.lab;

import dev.statvar.lab.counters.CountersStudy;
import dev.statvar.lab.soak.Soak;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.util.concurrent.Callable;

/** {@code ./statvar}: the lab's command line. */
@Command(name = "statvar", mixinStandardHelpOptions = true, version = "statvar 0.1.0",
        description = "statvar: always-on JVM statistics, and a lab that re-runs the measurements behind them on this machine.",
        subcommands = {LabMain.Lab.class, LabMain.DemoCommand.class},
        footer = {"", "Also: ./statvar example [--seconds N] [--threads N] [--interval-ms N]: the usage example"
                + " (examples/Example.java): worker threads update stats, every interval is printed, and the intervals"
                + " are checked against what the workers did.",
                "Also: ./statvar boot-example [--server.port=N]: a Spring Boot web application whose Micrometer meters"
                + " record into statvar (examples/spring-boot), its scrape on /actuator/prometheus.", "", "Start with: ./statvar lab counters --quick"})
public final class LabMain implements Runnable {

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        System.exit(commandLine().execute(args));
    }

    /** The command line, with argument errors reported as one message and a pointer to --help. */
    static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new LabMain()).setCaseInsensitiveEnumValuesAllowed(true);
        cl.setParameterExceptionHandler((ex, args) -> {
            CommandLine c = ex.getCommandLine();
            c.getErr().println("statvar: " + ex.getMessage());
            CommandLine.UnmatchedArgumentException.printSuggestions(ex, c.getErr());
            c.getErr().println("Try './" + c.getCommandSpec().qualifiedName(" ") + " --help'.");
            c.getErr().flush();
            return c.getCommandSpec().exitCodeOnInvalidInput();
        });
        return cl;
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }

    /** {@code statvar demo}: the export endpoint over a small multi-threaded workload. */
    @Command(name = "demo", mixinStandardHelpOptions = true,
            description = {"A fake request handler (worker threads) updating labelled counters, a gauge and"
                    + " labelled histograms, and taking a shared session lock (statvar-probes' ContendedLock:"
                    + " demo_session_lock_acquired/_contended/_wait); a hiccup meter (statvar-probes' HiccupMeter at 1 ms:"
                    + " demo_hiccup); a collector closes an interval every few seconds, logs one line per stat"
                    + " and hands it to the Prometheus/OpenMetrics/JSON endpoint. Runs until Ctrl-C (or --seconds).",
                    "Look at it with: curl -s http://127.0.0.1:9400/metrics   (OpenMetrics: add -H 'Accept:"
                    + " application/openmetrics-text'; JSON: /stats.json; health: /-/healthy)"})
    static final class DemoCommand implements Callable<Integer> {
        /** The demo's shared lock, counted by statvar-probes: demo_session_lock_acquired, _contended, _wait. */
        static final String SESSION_LOCK = "demo_session_lock";
        /** The demo's hiccup meter (statvar-probes' HiccupMeter at 1 ms), exposed as demo_hiccup_seconds. */
        static final String HICCUP = "demo_hiccup";

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--port", defaultValue = "9400", description = "port to serve on (default ${DEFAULT-VALUE}; 0: any free port)")
        int port;
        @Option(names = "--bind", defaultValue = "127.0.0.1", description = "address to bind (default ${DEFAULT-VALUE}: this machine only)")
        String bind;
        @Option(names = "--threads", defaultValue = "4", description = "worker threads (default ${DEFAULT-VALUE})")
        int threads;
        @Option(names = "--interval-ms", defaultValue = "5000", description = "collection interval (default ${DEFAULT-VALUE})")
        long intervalMs;
        @Option(names = "--seconds", paramLabel = "N", description = "stop after N seconds and check the exported count (default: until Ctrl-C)")
        Long seconds;
        @Option(names = "--quiet", description = "no log line per stat per interval")
        boolean quiet;

        @Override
        public Integer call() throws Exception {
            if (port < 0 || port > 65535) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--port must be 0 .. 65535, was " + port);
            }
            if (threads < 1 || threads > 1024) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--threads must be 1 .. 1024, was " + threads);
            }
            if (intervalMs < 10 || intervalMs > 3_600_000) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--interval-ms must be 10 .. 3600000, was " + intervalMs);
            }
            if (seconds != null && seconds < 1) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--seconds must be >= 1, was " + seconds);
            }
            if (System.getProperty("java.util.logging.SimpleFormatter.format") == null) {
                System.setProperty("java.util.logging.SimpleFormatter.format", "%1$tT %5$s%6$s%n"); // one line a record
            }
            Demo demo;
            try {
                demo = Demo.start(bind, port, threads, java.time.Duration.ofMillis(intervalMs),
                        quiet ? null : new dev.statvar.export.LogReporter(),
                        r -> new dev.statvar.probes.ContendedLock(r, SESSION_LOCK), SESSION_LOCK + "_wait", HICCUP);
            } catch (IOException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), "cannot serve on " + bind + ":" + port + ": " + e);
            }
            dev.statvar.probes.HiccupMeter hiccups = dev.statvar.probes.HiccupMeter.start(demo.registry(), HICCUP,
                    java.time.Duration.ofMillis(1));
            String base = "http://" + (bind.contains(":") ? "[" + bind + "]" : bind) + ":" + demo.port();
            System.out.printf("statvar demo: %d worker threads, an interval every %d ms; serving %s/metrics%n"
                    + "  curl -s %s/metrics%n  curl -s -H 'Accept: application/openmetrics-text' %s/metrics%n"
                    + "  curl -s %s/stats.json%n%s%n", threads, intervalMs, base, base, base, base,
                    seconds == null ? "Ctrl-C stops it." : "stops in " + seconds + " s.");
            System.out.flush();
            if (seconds == null) {
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    hiccups.close();
                    demo.close();
                }, "statvar-demo-shutdown"));
                new java.util.concurrent.CountDownLatch(1).await(); // until the JVM is stopped
                return 0;
            }
            try (demo; hiccups) {
                Thread.sleep(seconds * 1000);
                demo.finish();
                long handled = demo.handled();
                long exported = 0;
                for (var v : demo.exporter().lastSnapshot()) {
                    if (v.name().equals(Demo.REQUESTS)) {
                        exported += ((dev.statvar.CounterValue) v).total();
                    }
                }
                System.out.printf("handled %d requests; %s sums to %d: %s%n", handled, Demo.REQUESTS,
                        exported, exported == handled ? "lost 0" : "MISMATCH (" + (exported - handled) + ")");
                return exported == handled ? 0 : 1;
            }
        }
    }

    /** {@code statvar lab}. */
    @Command(name = "lab", mixinStandardHelpOptions = true,
            description = "Re-runs the articles' experiments on this machine, each implementation in a fresh JVM;"
                    + " prints the article's tables with its published figures beside them and writes CSV, JSON"
                    + " and PNG charts into a results folder.",
            subcommands = {CountersStudy.Counters.class, CountersStudy.Gauges.class, dev.statvar.lab.atomics.AtomicsStudy.class, dev.statvar.lab.spin.SpinStudy.class, dev.statvar.lab.throughput.ThroughputStudy.class, dev.statvar.lab.signals.SignalStudy.class, dev.statvar.lab.stores.StoresStudy.class, dev.statvar.lab.locks.LocksStudy.class, dev.statvar.lab.hiccups.HiccupsStudy.class, dev.statvar.lab.ordered.OrderedStudy.class, ReportCommand.class, VerdictsCommand.class, Soak.class},
            footer = {"", "Profiles: --quick (counters: under 3 minutes on 2 cores), the default (counters: ~15 minutes,"
                    + " gauges: ~7), --full (the article's 10 s runs: hours). docs/LAB.md has a default run of this"
                    + " machine and what it shows.", "",
                    "lab atomics [--quick]: Martin Thompson's \"Adventures with AtomicLong\" (2011) and \"Further Adventures With CAS Instructions And Micro Benchmarking\" (2013), N threads incrementing one counter six ways (LOCK ADD,"
                    + " XADD, CMPXCHG loops, Thompson's 2013 CAS loop as written), Java beside C, with the fairness the second article found (under 2 minutes"
                    + " with --quick).", "",
                    "lab spin [--quick]: the barrier of Cliff Click's \"A Pair of (somebody else's) Concurrency Bugs\" (Java Grande LUFact's): nine barrier designs at 1 .. cores"
                    + " threads and oversubscribed, HUNG when the JIT makes a spin loop endless, and what Thread.yield"
                    + " really does (under 3 minutes with --quick).", "",
                    "lab throughput [--quick]: Click's Disruptor harness made honest: queue and ring each in a fresh"
                    + " JVM, ops per second each second with JIT, OSR, GC and CPU migrations, a self-check at a known"
                    + " rate, and the article's pitfalls beside the honest way (about 1.5 minutes with --quick).", "",
                    "lab signals [--quick]: Jean-Philippe Bempel's signalling latency (\"Notify... oh, wait! I have a signal.\", 2015): N pairs of threads, a critical thread waking its"
                    + " partner with wait/notify, Condition.signal, park/unpark or a bounded spin hand-off; the signal's cost and"
                    + " the wake-up latency as percentiles (statvar histograms checked against HdrHistogram), beside the article's"
                    + " figures (about 10 s with --quick, under a minute without).", "",
                    "lab stores [--quick]: Bempel's kinds of store (plain, opaque, release, volatile, getAndSet, fence), ns per"
                    + " store and the barrier the JIT emitted for each, checked; the article's reordering example; statvar's update"
                    + " paths shown lock-free on the machine code (16 s with --quick, under 2 minutes without).", "",
                    "lab soak [--minutes N]: statvar itself under thread churn, virtual threads, a collector and"
                    + " concurrent scrapes; every count must be accounted for (lost = 0) and the heap bounded."})
    static final class Lab implements Runnable {
        @Override
        public void run() {
            new CommandLine(this).usage(System.out);
        }
    }
}
