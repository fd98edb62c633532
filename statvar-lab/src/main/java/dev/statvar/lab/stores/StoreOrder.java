package dev.statvar.lab.stores;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The order of the stores in the JIT's code of Jean-Philippe Bempel's {@code assign(int i)} ("Volatile and memory barriers", 2015) ({@link Reorder}),
 * read from the machine code alone: {@code field<k>} is assigned {@code i << k}, so a store whose
 * value register holds {@code i << k} is the store of {@code field<k>}. The register contents are
 * followed from the parameter's register ({@code # parm0: rsi = int}) through {@code mov}
 * between registers, {@code shl}/{@code sal}, {@code add r,r} and {@code lea} by a power of two;
 * any other write to a register forgets what it held. A store whose value cannot be followed is
 * named by its address when the stores that were followed give the layout: at least two of them,
 * on one base register, at {@code base + 4 (k - 1)} for one {@code base} (six {@code int} fields
 * side by side, as HotSpot lays them out); otherwise it stays named by its address
 * ({@code ?0x70}). Barriers are listed where they stand; stores to the stack or
 * the thread ({@code %rsp}, {@code %r15}) and everything after the first {@code ret} are left out. This is a reading of
 * the usual C2 shape, not a general data-flow analysis: a listing it cannot follow shows {@code ?}.
 */
final class StoreOrder {
    /** The example's fields: {@code field1 .. field6}. */
    private static final int FIELDS = 6;
    private static final Pattern PARAM = Pattern.compile("#\\s*parm0:\\s+(\\w+)\\s.*=\\s*int");
    private static final Pattern MOV_RR = Pattern.compile("^mov\\s+%(\\w+),%(\\w+)$");
    private static final Pattern SHL = Pattern.compile("^(?:shl|sal)\\s+(?:\\$0x([0-9a-f]+),)?%(\\w+)$");
    private static final Pattern ADD_SELF = Pattern.compile("^add\\s+%(\\w+),%(\\w+)$");
    private static final Pattern LEA_SCALE = Pattern.compile("^lea\\s+(?:0x0)?\\(,%(\\w+),(\\d)\\),%(\\w+)$");
    private static final Pattern LEA_DOUBLE = Pattern.compile("^lea\\s+\\(%(\\w+),%(\\w+),1\\),%(\\w+)$");
    private static final Pattern STORE = Pattern.compile("^mov[lq]?\\s+%(\\w+),(-?0x[0-9a-f]+)?\\(%(\\w+)\\)$");
    private static final Pattern WRITES_REG = Pattern.compile("^\\w+\\s+.*,%(\\w+)$");

    private StoreOrder() {
    }

    /** {@code %esi}, {@code %rsi}, {@code %si} -> {@code si}; {@code %r10d} -> {@code r10}. */
    static String reg(String r) {
        String s = r.startsWith("%") ? r.substring(1) : r;
        if (s.matches("r\\d+[dwb]?")) {
            return s.replaceAll("[dwb]$", "");
        }
        if (s.length() == 3 && (s.startsWith("e") || s.startsWith("r"))) {
            return s.substring(1);
        }
        return s;
    }

    /** The stores and barriers of {@code lines} in order: {@code field5}, {@code ?0x70}, {@code lock addl}. */
    static List<String> order(List<String> lines) {
        Map<String, Integer> shift = new HashMap<>();
        for (String l : lines) {
            Matcher p = PARAM.matcher(l);
            if (p.find()) {
                shift.put(reg(p.group(1)), 0);
            }
        }
        List<String> out = new ArrayList<>();
        List<String[]> addresses = new ArrayList<>(); // per entry of out: {base register, offset}, null for a barrier
        for (String l : lines) {
            String in = Annotator.insn(l);
            if (in == null) {
                continue;
            }
            String b = Barriers.barrier(in);
            if (b != null) {
                out.add(b.startsWith("xchg") ? "xchg" : b);
                addresses.add(null);
                continue;
            }
            if (in.equals("ret")) {
                break; // the method's path ends; the stubs after it store to the thread and the stack
            }
            Matcher m;
            if ((m = STORE.matcher(in)).matches() && !m.group(3).equals("rsp") && !m.group(3).equals("r15")) {
                Integer k = shift.get(reg(m.group(1)));
                String offset = m.group(2) == null ? "0x0" : m.group(2);
                out.add(k != null && k >= 1 ? "field" + k : "?" + offset);
                addresses.add(new String[] {m.group(3), offset});
            } else if ((m = MOV_RR.matcher(in)).matches()) {
                put(shift, reg(m.group(2)), shift.get(reg(m.group(1))));
            } else if ((m = SHL.matcher(in)).matches()) {
                int by = m.group(1) == null ? 1 : Integer.parseInt(m.group(1), 16);
                Integer k = shift.get(reg(m.group(2)));
                put(shift, reg(m.group(2)), k == null ? null : k + by);
            } else if ((m = ADD_SELF.matcher(in)).matches() && reg(m.group(1)).equals(reg(m.group(2)))) {
                Integer k = shift.get(reg(m.group(2)));
                put(shift, reg(m.group(2)), k == null ? null : k + 1);
            } else if ((m = LEA_SCALE.matcher(in)).matches()) {
                Integer k = shift.get(reg(m.group(1)));
                put(shift, reg(m.group(3)), k == null ? null : k + Integer.numberOfTrailingZeros(Integer.parseInt(m.group(2))));
            } else if ((m = LEA_DOUBLE.matcher(in)).matches() && reg(m.group(1)).equals(reg(m.group(2)))) {
                Integer k = shift.get(reg(m.group(1)));
                put(shift, reg(m.group(3)), k == null ? null : k + 1);
            } else if ((m = WRITES_REG.matcher(in)).matches() && !in.startsWith("cmp") && !in.startsWith("test")) {
                shift.remove(reg(m.group(1)));
            }
        }
        nameByLayout(out, addresses);
        return out;
    }

    /** Names the {@code ?} stores from the layout the followed stores give, if they agree on one. */
    private static void nameByLayout(List<String> out, List<String[]> addresses) {
        String base = null;
        Long first = null; // the offset of field1
        int followed = 0;
        for (int i = 0; i < out.size(); i++) {
            if (addresses.get(i) == null || !out.get(i).startsWith("field")) {
                continue;
            }
            long offset = offset(addresses.get(i)[1]);
            long f1 = offset - 4L * (Integer.parseInt(out.get(i).substring("field".length())) - 1);
            if (base == null) {
                base = addresses.get(i)[0];
                first = f1;
            } else if (!base.equals(addresses.get(i)[0]) || first != f1) {
                return; // the followed stores disagree: no layout to name by
            }
            followed++;
        }
        if (followed < 2) {
            return;
        }
        for (int i = 0; i < out.size(); i++) {
            String[] a = addresses.get(i);
            if (a == null || !out.get(i).startsWith("?") || !a[0].equals(base)) {
                continue;
            }
            long d = offset(a[1]) - first;
            if (d >= 0 && d % 4 == 0 && d / 4 < FIELDS) {
                out.set(i, "field" + (d / 4 + 1));
            }
        }
    }

    private static long offset(String hex) {
        return hex.startsWith("-") ? -Long.parseLong(hex.substring(3), 16) : Long.parseLong(hex.substring(2), 16);
    }

    private static void put(Map<String, Integer> shift, String reg, Integer k) {
        if (k == null) {
            shift.remove(reg);
        } else {
            shift.put(reg, k);
        }
    }

    /** {@code order} as one line: {@code field1, field2, ..., lock addl}. */
    static String line(List<String> order) {
        return order.isEmpty() ? "(no store found)" : String.join(", ", order).toLowerCase(Locale.ROOT);
    }
}
