package dev.statvar.lab.stores;

import dev.statvar.lab.kit.JitCode;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One C2 compilation as HotSpot printed it ({@code -XX:CompileCommand=print}), made readable:
 * with a working hsdis plugin the block already holds instructions and is kept as it is; without
 * one HotSpot prints the code in hex, which is decoded here with {@code objdump -b binary},
 * HotSpot's own comments (relocations such as {@code {poll}}, {@code {poll_return}}, calls, the
 * bytecode and line of each debug point, {@code implicit exception}, {@code [Verified Entry
 * Point]}) kept between the instructions. HotSpot prints a hex comment at the start of the 4-byte
 * group it falls in: it is placed before the first instruction starting at or after that address,
 * which may be one or two instructions early or late; its address is kept so the reader can tell.
 */
final class MachCode {
    private static final Pattern HEX = Pattern.compile("^\\s*0x([0-9a-f]+):\\s+([0-9a-f]{2,8}(?:\\s*\\|?\\s*[0-9a-f]{2,8})*)\\s*$");
    private static final Pattern COMMENT = Pattern.compile("^\\s*0x([0-9a-f]+):\\s+(;.*)$");
    private static final Pattern CONTINUED = Pattern.compile("^\\s+(;.*)$");
    private static final Pattern OBJDUMP = Pattern.compile("^\\s*([0-9a-f]+):\\t(.*)$");
    /** An hsdis instruction line in a printed block. */
    private static final Pattern HSDIS_INSN = Pattern.compile("^\\s*0x[0-9a-f]+:\\s+(?:lock\\s+)?[a-z]{2,}\\b(?!.*\\|)");

    private MachCode() {
    }

    /** Whether the block holds instructions (an hsdis plugin worked) rather than hex. */
    static boolean disassembled(List<String> block) {
        return block.stream().anyMatch(l -> HSDIS_INSN.matcher(l).find() && !HEX.matcher(l).matches());
    }

    /** The block's lines: its {@code # {method}} and {@code # parm} header lines, then code and comments. */
    static List<String> readable(List<String> block, Path work) throws IOException, InterruptedException {
        if (disassembled(block)) {
            return block;
        }
        List<String> header = new ArrayList<>();
        TreeMap<Long, List<String>> comments = new TreeMap<>();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        long start = JitCode.readMachCode(block, bytes, l -> { }, new JitCode.MachCodeLines() {
            private long lastComment = -1;
            private final List<String> pendingMarkers = new ArrayList<>();

            @Override
            public void text(String l) {
                Matcher m;
                if (l.startsWith("[")) { // [Verified Entry Point], [Exception Handler], [Stub Code] ...
                    pendingMarkers.add(l.strip());
                } else if (l.strip().startsWith("#")) {
                    header.add(l.strip());
                } else if ((m = COMMENT.matcher(l)).matches()) {
                    lastComment = Long.parseUnsignedLong(m.group(1), 16);
                    comments.computeIfAbsent(lastComment, k -> new ArrayList<>())
                            .add(String.format(Locale.ROOT, "0x%x: %s", lastComment, m.group(2).strip()));
                } else if ((m = CONTINUED.matcher(l)).matches() && lastComment >= 0) {
                    comments.get(lastComment).add("         " + m.group(1).strip());
                }
            }

            @Override
            public void code(long addr) {
                if (!pendingMarkers.isEmpty()) {
                    comments.computeIfAbsent(addr, k -> new ArrayList<>()).addAll(0, pendingMarkers);
                    pendingMarkers.clear();
                }
                lastComment = -1;
            }
        });
        List<String> out = new ArrayList<>(header);
        if (start < 0) {
            return out;
        }
        for (String l : JitCode.objdump(bytes.toByteArray(), start, work)) {
            Matcher m = OBJDUMP.matcher(l);
            if (!m.matches()) {
                continue;
            }
            long addr = Long.parseUnsignedLong(m.group(1), 16);
            var before = comments.headMap(addr, true);
            for (List<String> c : before.values()) {
                for (String s : c) {
                    out.add("                    " + s);
                }
            }
            before.clear();
            out.add(String.format(Locale.ROOT, "  %x:\t%s", addr, m.group(2).strip()));
        }
        return out;
    }

    /** The method a {@code Compiled method (c2) ...} header names ({@code Class::name}) and whether it is an OSR compilation. */
    static String[] method(String header) {
        Matcher m = Pattern.compile("(\\S+::\\S+)\\s+(@ \\d+\\s+)?\\(\\d+ bytes\\)").matcher(header);
        if (!m.find()) {
            return null;
        }
        return new String[] {m.group(1), m.group(2) != null ? "osr" : "method"};
    }

    /**
     * Per method, the last C2 compilation of {@code lines} (HotSpot's print output): the method
     * compilation when there is one, else the last on-stack-replacement one.
     */
    static Map<String, List<String>> lastC2Blocks(List<String> lines) {
        Map<String, List<String>> method = new TreeMap<>();
        Map<String, List<String>> osr = new TreeMap<>();
        List<String> cur = null;
        String[] curName = null;
        for (String l : lines) {
            if (l.startsWith("Compiled method (")) {
                if (cur != null && curName != null) {
                    (curName[1].equals("osr") ? osr : method).put(curName[0], cur);
                }
                cur = null;
                curName = null;
                if (l.startsWith("Compiled method (c2)")) {
                    cur = new ArrayList<>();
                    curName = method(l);
                }
            }
            if (cur != null) {
                cur.add(l);
            }
        }
        if (cur != null && curName != null) {
            (curName[1].equals("osr") ? osr : method).put(curName[0], cur);
        }
        osr.putAll(method);
        return osr;
    }
}
