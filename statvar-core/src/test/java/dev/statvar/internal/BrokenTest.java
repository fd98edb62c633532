package dev.statvar.internal;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The test-only switches of {@link Broken}: off unless asked for, and no misspelt switch passes. */
class BrokenTest {
    @Test
    void everySwitchIsOffInAnOrdinaryBuild() {
        assertEquals("", Broken.ORDERING, "-D" + Broken.PROPERTY + " must not be set for statvar-core's tests");
        assertEquals(Set.of(), Broken.ON);
        assertFalse(Broken.NO_ISALIVE || Broken.COUNT_FIRST || Broken.BUCKET_FIRST || Broken.VIEW_ANY_THREAD
                || Broken.GROW_UNLOCKED || Broken.REUSE_HELD);
    }

    /** static final: the JIT folds every {@code if (Broken.X)} on the update path away when X is off. */
    @Test
    void everySwitchIsAStaticFinalBooleanNamedInNames() throws ReflectiveOperationException {
        int switches = 0;
        for (Field f : Broken.class.getDeclaredFields()) {
            if (f.getType() == boolean.class) {
                assertTrue(Modifier.isStatic(f.getModifiers()) && Modifier.isFinal(f.getModifiers()), f.getName());
                assertTrue(Broken.NAMES.contains(f.getName()), f.getName());
                assertFalse(f.getBoolean(null), f.getName());
                switches++;
            }
        }
        assertEquals(Broken.NAMES.size(), switches);
    }

    @Test
    void namesAreParsedAndAnUnknownOneFails() {
        assertEquals(Set.of("NO_ISALIVE", "GROW_UNLOCKED"), Broken.parse(" NO_ISALIVE, ,GROW_UNLOCKED "));
        assertEquals(Set.of(), Broken.parse(""));
        for (String name : Broken.NAMES) {
            assertTrue(Broken.parse(name).contains(name));
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Broken.parse("NO_ISALIVE,COUNT_PLAIN"));
        assertTrue(e.getMessage().contains("unknown switch 'COUNT_PLAIN'"), e.getMessage());
    }

    @Test
    void theDescriptionOfNoSwitchIsAnEmptyList() {
        assertEquals("[]", Broken.describe());
    }
}
