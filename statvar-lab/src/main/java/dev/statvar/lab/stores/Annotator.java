package dev.statvar.lab.stores;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Annotates a readable listing ({@link MachCode}) as Jean-Philippe Bempel's "PrintAssembly output explained!" (2015)
 * reads one, appending {@code <- ...} to the lines it recognises. Every rule is a pattern on the
 * instruction text (AT&T syntax, as objdump prints it), so each is a heuristic: it names what the
 * JIT usually means by that shape on x86-64 HotSpot 17, not what it proves.
 * <ul>
 *   <li>{@code [Verified Entry Point]}, {@code [Entry Point]}, {@code [Exception Handler]},
 *       {@code [Deopt Handler Code]}, {@code [Stub Code]}: HotSpot's own section markers;</li>
 *   <li>{@code mov %eax,-0x...(%rsp)} as the first instruction: the stack bang;</li>
 *   <li>{@code mov 0x...(%r15),%rX} then {@code test %eax,(%rX)}: a safepoint poll (r15 holds the
 *       current thread);</li>
 *   <li>{@code cmp 0x...(%r15),%rsp}: the safepoint poll at return;</li>
 *   <li>a lock-prefixed instruction, {@code mfence}, a memory {@code xchg}: a barrier ({@link Barriers});</li>
 *   <li>{@code shr $0x9,%rX} followed within three instructions by {@code movb $0x0,...}: card marking
 *       (512-byte cards; a collector's post-write barrier for reference stores);</li>
 *   <li>the first memory access after HotSpot's {@code implicit exception} comment: an implicit null check
 *       (the instruction faults on null and the signal handler dispatches to the address given);</li>
 *   <li>the call after HotSpot's {@code UncommonTrapBlob} comment: an uncommon trap (leaves this code for
 *       the interpreter on a path the profile never saw);</li>
 *   <li>runs of {@code hlt}: padding, collapsed to one line.</li>
 * </ul>
 */
final class Annotator {
    private static final Pattern STACK_BANG = Pattern.compile("^mov\\s+%eax,-0x[0-9a-f]+\\(%rsp\\)$");
    private static final Pattern THREAD_LOAD = Pattern.compile("^mov\\s+0x[0-9a-f]+\\(%r15\\),(%r\\w+)$");
    private static final Pattern POLL_TEST = Pattern.compile("^test\\s+%eax,\\((%r\\w+)\\)$");
    private static final Pattern RETURN_POLL = Pattern.compile("^cmp\\s+0x[0-9a-f]+\\(%r15\\),%rsp$");
    private static final Pattern CARD_SHIFT = Pattern.compile("^shr\\s+\\$0x9,%r\\w+$");
    private static final Pattern CARD_STORE = Pattern.compile("^movb\\s+\\$0x0,.*\\(.*\\)$");

    private Annotator() {
    }

    /** The instruction text of {@code line} (mnemonic and operands), or null for a comment or header line. */
    static String insn(String line) {
        Matcher m = Barriers.INSTRUCTION.matcher(line);
        return m.matches() ? m.group(2).strip().replaceAll("\\s+", " ") : null;
    }

    /** {@code lines} annotated; runs of {@code hlt} collapsed. */
    static List<String> annotate(List<String> lines) {
        String[] note = new String[lines.size()];
        boolean first = true;
        String pending = null; // a HotSpot comment that names the next instruction of its shape
        String pendingShape = null;
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            String s = l.strip();
            String in = insn(l);
            if (in == null) {
                note[i] = marker(s);
                if (s.contains("implicit exception")) {
                    pending = "implicit null check: faults on null, the signal handler goes to the address HotSpot names above (placement heuristic)";
                    pendingShape = "(";
                } else if (s.contains("UncommonTrapBlob")) {
                    pending = "uncommon trap: leaves compiled code for the interpreter (deoptimization) on a path the profile never saw";
                    pendingShape = "call";
                }
                continue;
            }
            if (first && STACK_BANG.matcher(in).matches()) {
                note[i] = "stack bang: touches the stack this far below to fail early with StackOverflowError";
            }
            first = false;
            Matcher t = THREAD_LOAD.matcher(in);
            int next = nextInsn(lines, i);
            if (t.matches() && next >= 0) {
                Matcher p = POLL_TEST.matcher(insn(lines.get(next)));
                if (p.matches() && p.group(1).equals(t.group(1))) {
                    note[i] = "safepoint poll, 1/2: the polling page's address from the current thread (r15)";
                    note[next] = "safepoint poll, 2/2: touching it faults once the VM arms it, stopping the thread at a safepoint";
                }
            }
            if (RETURN_POLL.matcher(in).matches()) {
                note[i] = "safepoint poll at return: the stack pointer against the thread's poll word (JDK 16+)";
            }
            String b = Barriers.barrier(in);
            if (b != null) {
                note[i] = "BARRIER " + b + ": waits for the store buffer to drain; no load or store passes it";
            }
            if (CARD_SHIFT.matcher(in).matches()) {
                for (int k = i, n = 0; n < 3 && (k = nextInsn(lines, k)) >= 0; n++) {
                    if (CARD_STORE.matcher(insn(lines.get(k))).matches()) {
                        note[i] = "card marking, 1/2: the written object's address >> 9 is its card (512 bytes)";
                        note[k] = "card marking, 2/2: the card marked dirty, for the GC to scan";
                        break;
                    }
                }
            }
            if (pending != null && in.contains(pendingShape)) {
                if (note[i] == null) {
                    note[i] = pending;
                }
                pending = null;
            }
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String in = insn(lines.get(i));
            if ("hlt".equals(in)) {
                int j = i;
                while (j + 1 < lines.size() && "hlt".equals(insn(lines.get(j + 1)))) {
                    j++;
                }
                out.add(String.format(Locale.ROOT, "%s   <- hlt x %d: padding, never executed", lines.get(i), j - i + 1));
                i = j;
                continue;
            }
            out.add(note[i] == null ? lines.get(i) : String.format(Locale.ROOT, "%-48s <- %s", lines.get(i), note[i]));
        }
        return out;
    }

    private static String marker(String s) {
        return switch (s) {
            case "[Verified Entry Point]" -> "verified entry point: callers that already checked the receiver's class enter here";
            case "[Entry Point]" -> "entry point: checks the receiver's class against the inline cache, then falls into the verified entry";
            case "[Exception Handler]" -> "exception handler stub";
            case "[Deopt Handler Code]" -> "deoptimization handler stub";
            case "[Stub Code]" -> "stubs (calls to the runtime), out of the main path";
            default -> null;
        };
    }

    private static int nextInsn(List<String> lines, int i) {
        for (int k = i + 1; k < lines.size(); k++) {
            if (insn(lines.get(k)) != null) {
                return k;
            }
        }
        return -1;
    }
}
