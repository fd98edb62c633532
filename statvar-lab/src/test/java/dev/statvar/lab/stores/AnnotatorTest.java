package dev.statvar.lab.stores;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The listing's annotations and the reordering example's store order, on sample lines as objdump and HotSpot print them. */
class AnnotatorTest {
    private static final List<String> SAMPLE = List.of(
            "# parm0:    rsi       = int",
            "                    [Verified Entry Point]",
            "  7f00:\tmov    %eax,-0x14000(%rsp)",
            "  7f07:\tpush   %rbp",
            "                    0x7f08: ; implicit exception: dispatches to 0x7f90",
            "  7f08:\tmov    0x8(%rsi),%r10d",
            "  7f0c:\tshr    $0x9,%r10",
            "  7f10:\tmovabs $0x7f2f00000000,%r11",
            "  7f1a:\tmovb   $0x0,(%r11,%r10,1)",
            "  7f1f:\tmov    0x348(%r15),%rcx",
            "  7f26:\ttest   %eax,(%rcx)",
            "  7f28:\tlock addl $0x0,-0x40(%rsp)",
            "  7f2e:\tcmp    0x340(%r15),%rsp",
            "                    0x7f34: ;   {runtime_call UncommonTrapBlob}",
            "  7f34:\txchg   %ax,%ax",
            "  7f36:\tcall   0x7f4368991a80",
            "  7f3b:\thlt",
            "  7f3c:\thlt",
            "  7f3d:\thlt");

    private static String noteOf(List<String> out, String addr) {
        return out.stream().filter(l -> l.startsWith("  " + addr + ":")).findFirst().orElseThrow();
    }

    @Test
    void recognisableLinesAreAnnotated() {
        List<String> out = Annotator.annotate(SAMPLE);
        assertTrue(out.get(1).contains("<- verified entry point"), out.get(1));
        assertTrue(noteOf(out, "7f00").contains("stack bang"));
        assertFalse(noteOf(out, "7f07").contains("<-"), "push is not annotated");
        assertTrue(noteOf(out, "7f08").contains("implicit null check"));
        assertTrue(noteOf(out, "7f0c").contains("card marking, 1/2"));
        assertTrue(noteOf(out, "7f1a").contains("card marking, 2/2"));
        assertTrue(noteOf(out, "7f1f").contains("safepoint poll, 1/2"));
        assertTrue(noteOf(out, "7f26").contains("safepoint poll, 2/2"));
        assertTrue(noteOf(out, "7f28").contains("BARRIER lock addl"));
        assertTrue(noteOf(out, "7f2e").contains("safepoint poll at return"));
        assertFalse(noteOf(out, "7f34").contains("uncommon trap"), "the padding before the call is not the trap");
        assertTrue(noteOf(out, "7f36").contains("uncommon trap"));
        assertTrue(noteOf(out, "7f3b").contains("hlt x 3"), "a run of hlt is one line");
        assertEquals(SAMPLE.size() - 2, out.size());
    }

    @Test
    void aTestWithoutTheThreadLoadIsNoPoll() {
        List<String> out = Annotator.annotate(List.of("  7f1f:\tmov    0x10(%rsi),%rcx", "  7f26:\ttest   %eax,(%rcx)"));
        assertTrue(out.stream().noneMatch(l -> l.contains("safepoint")), String.join("\n", out));
    }

    /** The stores of Jean-Philippe Bempel's assign ("Volatile and memory barriers", 2015) (fields at 0x70 + 4 (k - 1) of %r10, field6 volatile), as C2 ordered them on JDK 17. */
    private static final List<String> STORES = List.of(
                "  ab:\tmovabs $0x69e16aa90,%r10",
                "  ac:\tmov    %r11d,0x70(%r10)", "  ad:\tmov    %r8d,0x74(%r10)", "  ae:\tmov    %ebx,0x80(%r10)",
                "  af:\tmov    %ecx,0x7c(%r10)", "  b0:\tmov    %r9d,0x78(%r10)", "  b1:\tmov    %esi,0x84(%r10)",
                "  b2:\tlock addl $0x0,-0x40(%rsp)",
                "  b3:\tmov    %edx,0x88(%r10)",
                "  b4:\tret");

    @SafeVarargs
    private static List<String> concat(List<String>... parts) {
        List<String> all = new java.util.ArrayList<>();
        for (List<String> p : parts) {
            all.addAll(p);
        }
        return all;
    }

    @Test
    void theStoreOrderIsReadFromTheShiftedValues() {
        // C2's assign of Bempel's post with field1 and field6 volatile, as objdump printed it on JDK 17
        List<String> assign = concat(List.of(
                "# parm0:    rsi       = int",
                "  a0:\tmov    %rbp,0x10(%rsp)",
                "  a1:\tmov    %esi,%r11d", "  a2:\tshl    %r11d",
                "  a3:\tlea    0x0(,%rsi,4),%r8d",
                "  a4:\tmov    %esi,%r9d", "  a5:\tshl    $0x3,%r9d",
                "  a6:\tmov    %esi,%ecx", "  a7:\tshl    $0x4,%ecx",
                "  a8:\tmov    %esi,%ebx", "  a9:\tshl    $0x5,%ebx",
                "  aa:\tshl    $0x6,%esi"), STORES, List.of(
                "  b5:\tmov    %r10,0x358(%r15)"));
        assertEquals("field1, field2, field5, field4, field3, field6, lock addl, ?0x88", StoreOrder.line(StoreOrder.order(assign)));
        assertEquals("r10", StoreOrder.reg("%r10d"));
        assertEquals("si", StoreOrder.reg("%esi"));
        assertEquals("si", StoreOrder.reg("%rsi"));
    }

    @Test
    void storesWhoseValueIsNotFollowedAreNamedByTheLayoutOfTheFollowedOnes() {
        // CI's shape (the values of field1..3 computed in a way the reading does not follow): named by address
        List<String> assign = concat(List.of(
                "# parm0:    rsi       = int",
                "  a1:\timul   $0x2,%esi,%r11d",
                "  a3:\timul   $0x4,%esi,%r8d",
                "  a4:\timul   $0x8,%esi,%r9d",
                "  a6:\tmov    %esi,%ecx", "  a7:\tshl    $0x4,%ecx",
                "  a8:\tmov    %esi,%ebx", "  a9:\tshl    $0x5,%ebx",
                "  aa:\tshl    $0x6,%esi"), STORES);
        assertEquals("field1, field2, field5, field4, field3, field6, lock addl, ?0x88", StoreOrder.line(StoreOrder.order(assign)),
                "0x88 is past field6: left unnamed");
        // one followed store gives no layout: the others stay unnamed
        List<String> one = List.of(
                "# parm0:    rsi       = int",
                "  a1:\timul   $0x2,%esi,%r11d",
                "  a2:\tshl    $0x6,%esi",
                "  ab:\tmovabs $0x69e16aa90,%r10",
                "  ac:\tmov    %r11d,0x70(%r10)", "  b1:\tmov    %esi,0x84(%r10)",
                "  b4:\tret");
        assertEquals("?0x70, field6", StoreOrder.line(StoreOrder.order(one)));
        // followed stores that disagree on the layout name nothing
        List<String> disagree = List.of(
                "# parm0:    rsi       = int",
                "  a1:\timul   $0x2,%esi,%r11d",
                "  a2:\tmov    %esi,%ecx", "  a3:\tshl    $0x4,%ecx",
                "  a4:\tshl    $0x6,%esi",
                "  ab:\tmovabs $0x69e16aa90,%r10",
                "  ac:\tmov    %r11d,0x70(%r10)", "  ad:\tmov    %ecx,0x90(%r10)", "  b1:\tmov    %esi,0x84(%r10)",
                "  b4:\tret");
        assertEquals("?0x70, field4, field6", StoreOrder.line(StoreOrder.order(disagree)));
    }
}
