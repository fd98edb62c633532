package dev.statvar.lab.atomics;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class DisassemblyTest {

    @Test
    void locksAreMarkedAndCollected() {
        Disassembly.Code c = Disassembly.mark("x", List.of("  10:\tmov $0x1,%ecx", "  15:\tlock xadd %rcx,0x90(%rbp)",
                "  1e:\tlock cmpxchg %rdx,(%rax)", "  22:\tlock xadd %r8,0x90(%r11)"));
        assertEquals(Set.of("lock xadd", "lock cmpxchg"), c.locked());
        assertEquals("lock xadd, lock cmpxchg", c.lockedSummary());
        assertTrue(c.lines().get(1).startsWith(">> "));
        assertTrue(c.lines().get(0).startsWith("   "));
        assertEquals("(no lock instruction found)", Disassembly.mark("y", List.of("nop")).lockedSummary());
    }

    @Test
    void objdumpFunctionsAreCutAtTheirBlankLine() {
        List<String> dump = List.of("0000000000001a60 <run_lock_add>:", "    1a60:\tlock addq $0x1,0x2817(%rip)",
                "    1a69:\tret", "", "0000000000001a70 <run_lock_xadd>:", "    1a70:\tlock xadd %rax,0x2807(%rip)", "");
        assertEquals(3, Disassembly.function(dump, "run_lock_add").size());
        assertEquals(List.of("0000000000001a70 <run_lock_xadd>:", "    1a70:\tlock xadd %rax,0x2807(%rip)"),
                Disassembly.function(dump, "run_lock_xadd"));
        assertTrue(Disassembly.function(dump, "run_cas_val").isEmpty());
    }

    /** A C2 block as JDK 17 prints it without a working hsdis (hex), decoded by objdump: the lock xadd is found. */
    @Test
    void hotspotHexIsDecodedWithObjdump(@TempDir Path dir) throws Exception {
        assumeTrue(dev.statvar.lab.kit.ChildProcess.onPath("objdump"), "objdump (binutils) is not installed");
        List<String> lines;
        try (InputStream in = DisassemblyTest.class.getResourceAsStream("hotspot-print-c2-xadd.txt")) {
            lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
        List<String> block = dev.statvar.lab.kit.JitCode.lastC2Block(lines);
        assertTrue(block.get(0).startsWith("Compiled method (c2)"), block.get(0));
        Disassembly.Code c = Disassembly.mark("t", dev.statvar.lab.kit.JitCode.decodeHex(block, dir));
        assertEquals(Set.of("lock xadd"), c.locked(), String.join("\n", c.lines()));
        // f0 4d 0f c1 9a 90 00 00 00 at 0x7f8a4cecb246: lock xadd %r11,0x90(%r10)
        assertTrue(c.lines().stream().anyMatch(l -> l.contains("7f8a4cecb246:") && l.contains("lock xadd %r11,0x90(%r10)")),
                String.join("\n", c.lines()));
    }
}
