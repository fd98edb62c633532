package dev.statvar.lab.atomics;

import dev.statvar.lab.kit.ChildProcess;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The instructions each case really runs: the native loops from {@code objdump -d} of the
 * compiled program, and the JIT's code of each Java loop, printed by HotSpot
 * ({@code -XX:CompileCommand=print}). HotSpot prints instructions when it can load a
 * disassembler plugin ({@code hsdis-amd64.so}); otherwise it prints the machine code in hex,
 * which this class decodes with {@code objdump -b binary}. Locked instructions are marked
 * {@code >>}.
 */
final class Disassembly {
    /** Where to get a disassembler when there is none; printed instead of the JIT's code. */
    static final String HOW_TO_GET_ONE = "no disassembler: install binutils (objdump; Debian: apt-get install binutils),"
            + " or put an hsdis-amd64.so built from the OpenJDK sources (src/utils/hsdis, with binutils or capstone)"
            + " into $JAVA_HOME/lib. Debian's libhsdis0-fcml loads but exports only the JDK 8 interface"
            + " (decode_instructions), so JDK 9 and later print hex with it.";

    private static final Pattern LOCK = Pattern.compile("\\block\\s+([a-z]+)");
    private static final Pattern HEX_LINE = Pattern.compile("^\\s*0x([0-9a-f]+):\\s+([0-9a-f]{2,8}(?:\\s*\\|?\\s*[0-9a-f]{2,8})*)\\s*$");
    private static final Pattern MNEMONIC_LINE = Pattern.compile("^\\s*0x[0-9a-f]+:\\s+(lock|mov|movq|add|cmp|jmp|push|sub|test)\\b");

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
     * compilations of its loop method. The last C2 compilation is the code the measured runs use.
     */
    static Code jitLoop(AtomicCase c, Path work, boolean objdump) throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse("java");
        String method = AtomicsRunner.class.getName() + "::" + c.javaMethod();
        List<String> cmd = List.of(java, "-XX:+UnlockDiagnosticVMOptions", "-XX:CompileCommand=quiet",
                "-XX:CompileCommand=print," + method, "-Xmx512m", "-cp", System.getProperty("java.class.path"),
                AtomicsRunner.class.getName(), c.name(), "1", "1", "0:1:3000000");
        ChildProcess.Output out = ChildProcess.run(cmd, null, l -> { });
        if (out.exitCode() != 0) {
            throw new IOException("the JVM printing " + method + " failed: " + out.text());
        }
        List<String> block = lastC2Block(out.lines());
        if (block.isEmpty()) {
            return new Code("JIT " + method, List.of("(no C2 compilation of " + method + " was printed)"), Set.of());
        }
        boolean hsdis = block.stream().anyMatch(l -> MNEMONIC_LINE.matcher(l).find());
        if (hsdis) {
            return mark("JIT (C2, hsdis) " + method, block);
        }
        if (!objdump) {
            return new Code("JIT " + method, List.of(HOW_TO_GET_ONE), Set.of());
        }
        return mark("JIT (C2, machine code decoded by objdump) " + method, decodeHex(block, work));
    }

    /** The last block of HotSpot's print output that starts with {@code Compiled method (c2)}. */
    static List<String> lastC2Block(List<String> lines) {
        List<String> last = new ArrayList<>();
        List<String> cur = null;
        for (String l : lines) {
            if (l.startsWith("Compiled method (")) {
                if (cur != null && cur.get(0).startsWith("Compiled method (c2)")) {
                    last = cur;
                }
                cur = new ArrayList<>();
            }
            if (cur != null) {
                cur.add(l);
            }
        }
        if (cur != null && !cur.isEmpty() && cur.get(0).startsWith("Compiled method (c2)")) {
            last = cur;
        }
        return last;
    }

    /**
     * Decodes the hex machine code of a HotSpot print block ({@code [MachCode]} section: lines
     * {@code 0xADDR: 4881 ec18 | ...}) with {@code objdump -b binary}, keeping the block's header.
     */
    static List<String> decodeHex(List<String> block, Path work) throws IOException, InterruptedException {
        List<String> header = new ArrayList<>();
        long start = -1;
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        boolean inCode = false;
        for (String l : block) {
            if (l.startsWith("[MachCode]")) {
                inCode = true;
                continue;
            }
            if (l.startsWith("[/MachCode]")) {
                break;
            }
            if (!inCode) {
                header.add(l);
                continue;
            }
            Matcher m = HEX_LINE.matcher(l);
            if (m.matches()) {
                long addr = Long.parseUnsignedLong(m.group(1), 16);
                if (start < 0) {
                    start = addr;
                }
                if (addr != start + bytes.size()) {
                    throw new IOException(String.format(Locale.ROOT, "machine code not contiguous at 0x%x", addr));
                }
                for (String g : m.group(2).replace("|", " ").trim().split("\\s+")) {
                    for (int i = 0; i + 1 < g.length(); i += 2) {
                        bytes.write(Integer.parseInt(g.substring(i, i + 2), 16));
                    }
                }
            } else if (l.contains("{method}")) {
                header.add(l);
            }
        }
        if (start < 0) {
            return header;
        }
        Path bin = Files.createTempFile(work, "jit-", ".bin");
        try {
            Files.write(bin, bytes.toByteArray());
            ChildProcess.Output out = ChildProcess.run(List.of("objdump", "-D", "-b", "binary", "-m", "i386:x86-64",
                    "--no-show-raw-insn", String.format(Locale.ROOT, "--adjust-vma=0x%x", start), bin.toString()), null, x -> { });
            if (out.exitCode() != 0) {
                throw new IOException("objdump failed: " + out.text());
            }
            List<String> result = new ArrayList<>(header);
            boolean body = false;
            for (String l : out.lines()) {
                if (l.contains("<.data>:")) {
                    body = true;
                    continue;
                }
                if (body && !l.isBlank()) {
                    result.add(l);
                }
            }
            return result;
        } finally {
            Files.deleteIfExists(bin);
        }
    }
}
