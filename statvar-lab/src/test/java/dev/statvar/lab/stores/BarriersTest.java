package dev.statvar.lab.stores;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The barrier classifier on sample lines from objdump (AT&T) and hsdis (Intel) listings. */
class BarriersTest {

    @Test
    void lockedInstructionsMfenceAndMemoryXchgAreBarriers() {
        assertEquals("lock addl", Barriers.barrier("lock addl $0x0,-0x40(%rsp)"));
        assertEquals("lock cmpxchg", Barriers.barrier("lock cmpxchg %edx,0xc(%rsi)"));
        assertEquals("lock add", Barriers.barrier("lock add DWORD PTR [esp],0x0  ;*putstatic field1"));
        assertEquals("mfence", Barriers.barrier("mfence"));
        assertEquals("xchg (memory: implicitly locked)", Barriers.barrier("xchg   %r9d,0xc(%r10)"));
        assertEquals("xchg (memory: implicitly locked)", Barriers.barrier("xchg DWORD PTR [rsi+0xc],eax"));
    }

    @Test
    void paddingAndPlainInstructionsAreNot() {
        assertNull(Barriers.barrier("xchg   %ax,%ax"), "the JIT's 2-byte nop");
        assertNull(Barriers.barrier("data16 xchg %ax,%ax"));
        assertNull(Barriers.barrier("mov    %r9d,0xc(%r11)"));
        assertNull(Barriers.barrier("test   %eax,(%rcx)"));
        assertNull(Barriers.barrier("sfence"), "orders stores only: not what a volatile store needs");
        assertNull(Barriers.barrier("call   0x7f4368991a80"));
    }

    @Test
    void aListingIsScannedInstructionByInstructionSkippingComments() {
        List<String> listing = List.of(
                "# {method} {0x00007f2f9742dae8} 'storeVolatile' '(Ldev/statvar/lab/stores/Cell;I)I'",
                "                    0x7f3000ed9b48: ;   lock addl in a comment is not an instruction",
                "  7f3000ed9b13:\tmov    %r9d,0xc(%r11)",
                "  7f3000ed9b34:\tlock addl $0x0,-0x40(%rsp)",
                "  7f3000ed9b56:\txchg   %ax,%ax",
                "  0x024c8864: lock add DWORD PTR [esp],0x0  ;*putstatic field1",
                "  7f3000ed9b60:\tmfence");
        List<Barriers.Found> found = Barriers.find(listing);
        assertEquals(List.of("lock addl", "lock add", "mfence"), found.stream().map(Barriers.Found::name).toList());
        assertEquals("lock addl, lock add, mfence", Barriers.summary(found));
        assertEquals("none", Barriers.summary(Barriers.find(List.of("  7f30:\tmov    %r9d,0xc(%r11)", "  7f34:\txchg   %ax,%ax"))));
    }
}
