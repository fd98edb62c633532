package dev.statvar.lab.stores;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the instructions of a listing that order memory on x86: any {@code lock}-prefixed
 * instruction, {@code mfence}, and {@code xchg} with a memory operand (locked without the
 * prefix). {@code xchg %ax,%ax} (register to register) is the JIT's two-byte padding, not a
 * barrier. Reads objdump's AT&T lines ({@code 7f..: lock addl $0x0,-0x40(%rsp)}) and hsdis's
 * ({@code 0x7f..: lock add DWORD PTR [rsp-0x40],0x0}); comment lines are skipped.
 */
final class Barriers {
    /** An instruction line: an address, a colon, an instruction (objdump or hsdis). */
    static final Pattern INSTRUCTION = Pattern.compile("^\\s*(?:0x)?([0-9a-f]+):\\s+([a-z].*)$");
    private static final Pattern LOCK = Pattern.compile("^(?:(?:data16|rex\\S*|cs|ds)\\s+)*lock\\s+([a-z]+)");
    private static final Pattern MFENCE = Pattern.compile("^mfence\\b");
    private static final Pattern XCHG = Pattern.compile("^(?:data16\\s+)*xchg[bwlq]?\\s+(.*)$");

    private Barriers() {
    }

    /** A barrier instruction: its line (trimmed) and its name ({@code lock addl}, {@code mfence}, {@code xchg}). */
    record Found(String line, String name) {
    }

    /** The barrier named by instruction text {@code insn} (mnemonic and operands), or null. */
    static String barrier(String insn) {
        String s = insn.strip();
        int semi = s.indexOf(';');
        if (semi >= 0) {
            s = s.substring(0, semi).strip(); // hsdis's comment after the instruction
        }
        Matcher m = LOCK.matcher(s);
        if (m.find()) {
            return "lock " + m.group(1);
        }
        if (MFENCE.matcher(s).find()) {
            return "mfence";
        }
        m = XCHG.matcher(s);
        if (m.find() && (m.group(1).contains("(") || m.group(1).contains("["))) {
            return "xchg (memory: implicitly locked)";
        }
        return null;
    }

    /** Every barrier instruction of {@code lines}, in order. */
    static List<Found> find(List<String> lines) {
        List<Found> out = new ArrayList<>();
        for (String l : lines) {
            Matcher m = INSTRUCTION.matcher(l);
            if (!m.matches()) {
                continue;
            }
            String b = barrier(m.group(2));
            if (b != null) {
                out.add(new Found(l.strip(), b));
            }
        }
        return out;
    }

    /** The distinct names of {@code found}, in order, or {@code none}. */
    static String summary(List<Found> found) {
        List<String> names = new ArrayList<>();
        for (Found f : found) {
            if (!names.contains(f.name())) {
                names.add(f.name());
            }
        }
        return names.isEmpty() ? "none" : String.join(", ", names);
    }
}
