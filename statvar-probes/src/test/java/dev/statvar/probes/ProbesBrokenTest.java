package dev.statvar.probes;

import dev.statvar.probes.internal.Broken;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** statvar-probes' test-only switches are off unless a jcstress broken variant turns one on. */
class ProbesBrokenTest {
    @Test
    void everySwitchIsOffInTheTests() {
        assertTrue(Broken.ON.isEmpty(), "switches on: " + Broken.ON + " (-D" + Broken.PROPERTY + ")");
        assertFalse(Broken.HANDOFF_NO_RECHECK);
    }
}
