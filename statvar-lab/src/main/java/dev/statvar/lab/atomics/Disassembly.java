package dev.statvar.lab.atomics;

import dev.statvar.lab.kit.ChildProcess;
import dev.statvar.lab.kit.JitCode;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The instructions each case really runs: the native loops from {@code objdump -d} of the
 * compiled program, and the JIT's code of each Java loop ({@link JitCode}). Locked
 * instructions are marked {@code >>}.
 */
final class Disassembly {
    private static final Pattern LOCK = Pattern.compile("\\block\\s+([a-z]+)");

    private Disassembly() {
    }

    /** The code of one loop and the locked instructions in it. */
    record Code(String where, List<String> lines, Set<String> locked) {
        /** e.g. {@code lock xadd}, or a note when no locked instruction was found. */
        String lockedSummary() {
            return locked.isEmpty() ? "(no lock instruction found)" : String.join(", ", locked);
        }
    }

    /** Marks locked instructions and collects their mnemonics. */
    static Code mark(String where, List<String> raw) {
        List<String> lines = new ArrayList<>();
        Set<String> locked = new LinkedHashSet<>();
        for (String l : raw) {
            Matcher m = LOCK.matcher(l);
            if (m.find()) {
                locked.add("lock " + m.group(1));
                lines.add(">> " + l);
            } else {
                lines.add("   " + l);
            }
        }
        return new Code(where, lines, locked);
    }

    /** The native loops: {@code objdump -d} of {@code binary}, one function per case. */
    static Map<AtomicCase, Code> nativeLoops(Path binary) throws IOException, InterruptedException {
        ChildProcess.Output out = ChildProcess.run(List.of("objdump", "-d", "--no-show-raw-insn", binary.toString()), null, l -> { });
        if (out.exitCode() != 0) {
            throw new IOException("objdump failed: " + out.text());
        }
        Map<AtomicCase, Code> code = new LinkedHashMap<>();
        for (AtomicCase c : AtomicCase.values()) {
            List<String> fn = function(out.lines(), c.nativeFunction());
            code.put(c, mark("native " + c.nativeFunction(), fn));
        }
        return code;
    }

    /** The lines of function {@code name} in objdump's output (header to the blank line). */
    static List<String> function(List<String> objdump, String name) {
        List<String> fn = new ArrayList<>();
        boolean in = false;
        for (String l : objdump) {
            if (l.matches("^[0-9a-f]+ <" + Pattern.quote(name) + ">:$")) {
                in = true;
            } else if (in && l.isBlank()) {
                break;
            }
            if (in) {
                fn.add(l);
            }
        }
        return fn;
    }

    /**
     * The JIT's code of {@code c}'s loop: a short run of the case in a JVM that prints the C2
     * compilations of its loop method ({@link JitCode}), its locked instructions marked.
     */
    static Code jitLoop(AtomicCase c, Path work) throws IOException, InterruptedException {
        String method = AtomicsRunner.class.getName() + "::" + c.javaMethod();
        JitCode.Code code = JitCode.print(method, List.of("-Xmx512m"), AtomicsRunner.class,
                List.of(c.name(), "1", "1", "0:1:3000000"), Duration.ofMinutes(2), work);
        return mark(code.where(), code.lines());
    }
}
