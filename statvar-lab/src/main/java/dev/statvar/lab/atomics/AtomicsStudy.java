package dev.statvar.lab.atomics;

import dev.statvar.lab.kit.ChildProcess;
import dev.statvar.lab.kit.JitCode;
import dev.statvar.lab.kit.Progress;
import dev.statvar.lab.kit.StudyOptions;
import dev.statvar.lab.kit.SweepOptions;
import dev.statvar.lab.kit.Usage;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code statvar lab atomics}: Martin Thompson's "Adventures with AtomicLong" (2011) and "Further Adventures With CAS Instructions And Micro Benchmarking" (2013), Java and native side by side. */
@Command(name = "atomics", mixinStandardHelpOptions = true,
        description = {"Martin Thompson's two AtomicLong articles (2011, 2013): N threads increment one shared counter to a total, five ways (AtomicLong,"
                + " LOCK ADD, LOCK XADD, CAS bool, CAS val), in Java (a fresh JVM per case) and in C (compiled here"
                + " with gcc), at 1 .. cores threads and oversubscribed, without and with work between increments"
                + " (the delay loop of \"Statistical variables in Java: not quite legal but very fast\", 2017).",
                "Reported per case x impl x delay x threads: ns per op (wall time / all increments: the inverse of"
                + " the throughput), ops/s, CAS failures per success, each thread's share and Jain's fairness index,"
                + " and the mean run length of consecutive values one thread got (how long a core kept the cache"
                + " line); the instruction each loop really uses (objdump of the C loops, the JIT's code of the Java"
                + " loops). Writes atomics.csv, atomics.json, a chart per case and the assembly into a results"
                + " folder.",
                "--quick: count 10,000,000, delays 0 and 100, 2 measured runs per cell; otherwise 3 (--repeats),"
                + " the one of median duration reported."},
        footer = {"", "Profiles: --quick (~20 s on 2 cores), the default (~3 minutes). docs/LAB.md has a run"
                + " of this machine beside the articles' figures."})
public final class AtomicsStudy implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** --quick (count 10,000,000, delays 0 and 100, 2 measured runs per cell), --out, --report. */
    @CommandLine.Mixin
    StudyOptions options;
    /** --threads, --repeats (default 3; --quick 2), --warmups. */
    @CommandLine.Mixin
    SweepOptions sweep;
    @Option(names = "--count", paramLabel = "N", description = "increments per run at delay 0 (default 100,000,000;"
            + " --quick 10,000,000; the articles: 500,000,000); at delay d: N / (1 + d / 4), at least 10,000")
    Long count;
    @Option(names = "--delays", split = ",", paramLabel = "D", description = "delay factors: work between increments (default 0,10,100; --quick 0,100)")
    List<Integer> delays;
    @Option(names = "--cases", split = ",", paramLabel = "CASE", description = "only these cases: ${COMPLETION-CANDIDATES} (default all)")
    List<AtomicCase> cases;
    @Option(names = "--no-native", description = "skip the C reference")
    boolean noNative;
    @Option(names = "--no-asm", description = "skip the disassembly")
    boolean noAsm;

    /** Increments per run at delay {@code d}: the work per run stays about the same. */
    static long countAt(long count, int d) {
        return Math.max(10_000, Math.round(count / (1 + d / 4.0)));
    }

    @Override
    public Integer call() throws Exception {
        if (options.report() != null) {
            return new AtomicsDoc().again(options.report(), null, System.out);
        }
        boolean quick = options.quick;
        List<Integer> th = sweep.threads(256);
        List<Integer> de = delays != null ? delays : quick ? List.of(0, 100) : List.of(0, 10, 100);
        List<AtomicCase> cs = cases != null ? cases : List.of(AtomicCase.values());
        long n = count != null ? count : quick ? 10_000_000 : 100_000_000;
        int rep = sweep.repeats(quick, 2, 3);
        int warm = sweep.warmups();
        for (int d : de) {
            if (d < 0 || d > 100_000) {
                throw Usage.error(spec, "delay factors must be 0 .. 100000, was " + d);
            }
        }
        if (new HashSet<>(de).size() != de.size() || new HashSet<>(cs).size() != cs.size()) {
            throw Usage.error(spec, "a delay factor or case is given twice");
        }
        if (n < 10_000 || n > 2_000_000_000L) {
            throw Usage.error(spec, "--count must be 10000 .. 2000000000 (the values are sampled as ints), was " + n);
        }
        Path dir = options.resultsFolder();

        List<String> cells = new ArrayList<>();
        for (int d : de) {
            for (int t : th) {
                cells.add(d + ":" + t + ":" + countAt(n, d));
            }
        }
        // the native reference: compiled here, or skipped with the reason
        Path binary = null;
        String nativeNote;
        if (noNative) {
            nativeNote = "native reference skipped (--no-native)";
        } else if (!ChildProcess.onPath("gcc")) {
            nativeNote = "native reference skipped: no gcc on the PATH (Debian: apt-get install gcc)";
        } else {
            Path src = dir.resolve("atomics.c");
            try (InputStream in = AtomicsStudy.class.getResourceAsStream("atomics.c")) {
                Files.copy(in, src, StandardCopyOption.REPLACE_EXISTING);
            }
            List<String> gcc = List.of("gcc", "-O2", "-pthread", "-o", "atomics", "atomics.c");
            ChildProcess.Output o = ChildProcess.run(gcc, dir, l -> { });
            if (o.exitCode() != 0) {
                nativeNote = "native reference skipped: " + String.join(" ", gcc) + " failed:\n" + o.text();
            } else {
                binary = dir.resolve("atomics");
                String version = ChildProcess.run(List.of("gcc", "--version"), null, l -> { }).lines().get(0);
                nativeNote = "native reference: " + String.join(" ", gcc) + " (" + version + ")";
            }
        }
        AtomicsReport.Info info = AtomicsReport.Info.of(n, de, th, cs, warm, rep, nativeNote);
        info.machine().print(System.out);
        System.out.println(info.protocolLine());
        System.out.println(nativeNote);

        int impls = binary != null ? 2 : 1;
        long total = (long) impls * cs.size() * cells.size() * (warm + rep);
        Progress progress = new Progress(System.err, total);
        List<RunResult> results = new ArrayList<>();
        for (AtomicCase c : cs) {
            for (int i = 0; i < impls; i++) {
                String impl = i == 0 ? "java" : "native";
                List<String> cmd = new ArrayList<>();
                if (i == 0) {
                    cmd.addAll(ChildProcess.java(List.of("-Xms1g", "-Xmx1g", "-XX:+UseParallelGC"), AtomicsRunner.class, List.of()));
                } else {
                    cmd.add(binary.toAbsolutePath().toString());
                }
                cmd.addAll(List.of(c.name(), Integer.toString(warm), Integer.toString(rep)));
                cmd.addAll(cells);
                StringBuilder other = new StringBuilder();
                int before = results.size();
                ChildProcess.Output o = ChildProcess.run(cmd, null, line -> {
                    if (line.startsWith("RESULT ")) {
                        results.add(RunResult.parse(line));
                    } else if (line.startsWith("PROGRESS ")) {
                        progress.step(String.format(Locale.ROOT, "%-12s %-6s %-26s", c, impl, line.substring(9)));
                    } else {
                        other.append(line).append('\n');
                    }
                });
                if (o.exitCode() != 0 || results.size() - before != cells.size() * rep) {
                    throw new IOException("the " + impl + " run of " + c + " failed (exit code " + o.exitCode() + "):\n" + other);
                }
            }
        }
        progress.finish();

        Map<AtomicCase, Map<String, Disassembly.Code>> asm = new EnumMap<>(AtomicCase.class);
        String asmNote = null;
        if (noAsm) {
            asmNote = "disassembly skipped (--no-asm)";
        } else {
            boolean objdump = ChildProcess.onPath("objdump");
            Map<AtomicCase, Disassembly.Code> nat = binary != null && objdump ? Disassembly.nativeLoops(binary) : Map.of();
            for (AtomicCase c : cs) {
                System.err.printf("\rdisassembling %s ...        ", c);
                Map<String, Disassembly.Code> m = new LinkedHashMap<>();
                m.put("java", Disassembly.jitLoop(c, dir));
                if (nat.containsKey(c)) {
                    m.put("native", nat.get(c));
                }
                asm.put(c, m);
            }
            System.err.println();
            if (!objdump) {
                asmNote = JitCode.HOW_TO_GET_ONE;
            }
        }
        AtomicsReport.write(info, results, asm, asmNote, dir, System.out);
        return 0;
    }
}
