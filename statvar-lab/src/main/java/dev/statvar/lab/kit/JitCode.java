package dev.statvar.lab.kit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The machine code the JIT made of one method: a fresh JVM runs a study's class with
 * {@code -XX:CompileCommand=print,<method>}, and the last C2 compilation printed (the code the
 * measured runs use; an on-stack-replacement compilation counts) is kept. HotSpot prints
 * instructions when it can load a disassembler plugin ({@code hsdis-amd64.so}); otherwise it
 * prints the machine code in hex, which this class decodes with {@code objdump -b binary}.
 */
public final class JitCode {
    /** Where to get a disassembler when there is none; printed instead of the JIT's code. */
    public static final String HOW_TO_GET_ONE = "no disassembler: install binutils (objdump; Debian: apt-get install binutils),"
            + " or put an hsdis-amd64.so built from the OpenJDK sources (src/utils/hsdis, with binutils or capstone)"
            + " into $JAVA_HOME/lib. Debian's libhsdis0-fcml loads but exports only the JDK 8 interface"
            + " (decode_instructions), so JDK 9 and later print hex with it.";

    private static final Pattern HEX_LINE = Pattern.compile("^\\s*0x([0-9a-f]+):\\s+([0-9a-f]{2,8}(?:\\s*\\|?\\s*[0-9a-f]{2,8})*)\\s*$");
    private static final Pattern MNEMONIC_LINE = Pattern.compile("^\\s*0x[0-9a-f]+:\\s+(lock|mov|movq|add|cmp|jmp|push|sub|test)\\b");

    private JitCode() {
    }

    /**
     * The code of {@code method} ({@code Class::name}) as C2 compiled it in a JVM running
     * {@code main} with {@code args}; {@code limit}: the JVM is killed after this long (a run
     * that hangs still prints what it compiled). {@code title} of the result says how it was
     * decoded; its lines are {@link #HOW_TO_GET_ONE} when nothing can decode the hex.
     */
    public static Code print(String method, List<String> flags, Class<?> main, List<String> args, Duration limit, Path work)
            throws IOException, InterruptedException {
        List<String> f = new ArrayList<>(List.of("-XX:+UnlockDiagnosticVMOptions", "-XX:CompileCommand=quiet",
                "-XX:CompileCommand=print," + method));
        f.addAll(flags);
        ChildProcess.Output out = ChildProcess.run(ChildProcess.java(f, main, args), null, l -> { }, limit);
        if (out.exitCode() != 0 && !out.timedOut()) {
            throw new IOException("the JVM printing " + method + " failed: " + out.text());
        }
        List<String> block = lastC2Block(out.lines());
        if (block.isEmpty()) {
            return new Code("JIT " + method, List.of("(no C2 compilation of " + method + " was printed)"));
        }
        if (block.stream().anyMatch(l -> MNEMONIC_LINE.matcher(l).find())) {
            return new Code("JIT (C2, hsdis) " + method, block);
        }
        if (!ChildProcess.onPath("objdump")) {
            return new Code("JIT " + method, List.of(HOW_TO_GET_ONE));
        }
        return new Code("JIT (C2, machine code decoded by objdump) " + method, decodeHex(block, work));
    }

    /** A method's code: where it comes from and its lines. */
    public record Code(String where, List<String> lines) {
    }

    /** The last block of HotSpot's print output that starts with {@code Compiled method (c2)}. */
    public static List<String> lastC2Block(List<String> lines) {
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
    public static List<String> decodeHex(List<String> block, Path work) throws IOException, InterruptedException {
        List<String> header = new ArrayList<>();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        long start = readMachCode(block, bytes, header::add, new MachCodeLines() {
            @Override
            public void text(String line) {
                if (line.contains("{method}")) {
                    header.add(line);
                }
            }
        });
        if (start < 0) {
            return header;
        }
        List<String> result = new ArrayList<>(header);
        result.addAll(objdump(bytes.toByteArray(), start, work));
        return result;
    }

    /** What {@link #readMachCode} hands on of a {@code [MachCode]} section besides its bytes. */
    public interface MachCodeLines {
        /** A line of the section that is not hex code (a comment, a marker, a header line). */
        void text(String line);

        /** A hex line starting at {@code address} was read. */
        default void code(long address) {
        }
    }

    /**
     * Reads the {@code [MachCode]} section of a HotSpot print block: the bytes of its hex lines are
     * appended to {@code bytes} (they must be contiguous), its other lines and each hex line's
     * address go to {@code lines}, the lines before the section to {@code before}.
     *
     * @return the address of the first byte, or -1 when the section holds no hex code
     * @throws IOException when the hex lines are not contiguous
     */
    public static long readMachCode(List<String> block, ByteArrayOutputStream bytes, Consumer<String> before,
                                    MachCodeLines lines) throws IOException {
        long start = -1;
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
                before.accept(l);
                continue;
            }
            int had = bytes.size();
            long addr = readHex(l, bytes);
            if (addr < 0) {
                lines.text(l);
                continue;
            }
            start = start < 0 ? addr : start;
            if (addr != start + had) {
                throw new IOException(String.format(Locale.ROOT, "machine code not contiguous at 0x%x", addr));
            }
            lines.code(addr);
        }
        return start;
    }

    /**
     * The address of a line of HotSpot's hex machine code ({@code 0xADDR: 4881 ec18 | ...}), its
     * bytes appended to {@code bytes}; -1 (nothing appended) when {@code line} is not one.
     */
    public static long readHex(String line, ByteArrayOutputStream bytes) {
        Matcher m = HEX_LINE.matcher(line);
        if (!m.matches()) {
            return -1;
        }
        for (String g : m.group(2).replace("|", " ").trim().split("\\s+")) {
            for (int i = 0; i + 1 < g.length(); i += 2) {
                bytes.write(Integer.parseInt(g.substring(i, i + 2), 16));
            }
        }
        return Long.parseUnsignedLong(m.group(1), 16);
    }

    /** {@code objdump -b binary}'s instruction lines ({@code addr:\tinsn}) of x86-64 {@code code} loaded at {@code start}. */
    public static List<String> objdump(byte[] code, long start, Path work) throws IOException, InterruptedException {
        Path bin = Files.createTempFile(work, "jit-", ".bin");
        try {
            Files.write(bin, code);
            ChildProcess.Output out = ChildProcess.run(List.of("objdump", "-D", "-b", "binary", "-m", "i386:x86-64",
                    "--no-show-raw-insn", String.format(Locale.ROOT, "--adjust-vma=0x%x", start), bin.toString()), null, x -> { });
            if (out.exitCode() != 0) {
                throw new IOException("objdump failed: " + out.text());
            }
            List<String> result = new ArrayList<>();
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
