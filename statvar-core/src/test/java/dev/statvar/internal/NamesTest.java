package dev.statvar.internal;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Stat names follow Prometheus, {@code [a-zA-Z_:][a-zA-Z0-9_:]*}, checked at every end of each range. */
class NamesTest {

    @Test
    void everyCharacterRangeIsAcceptedUpToItsEnds() {
        for (String ok : new String[] {"a", "z", "A", "Z", "_", ":", "a0", "a9", "az", "aZ", "_:_", "x_0:9"}) {
            assertSame(ok, Names.checkName(ok), ok);
        }
    }

    @Test
    void theCharactersJustOutsideEachRangeAreRejected() {
        // '`' < 'a', '{' > 'z', '@' < 'A', '[' > 'Z', '/' < '0'; a digit cannot start a name
        for (String bad : new String[] {"`", "{", "@", "[", "a/", "a`", "a{", "a@", "a[", "0", "9", "0a", "9a", "a-b", "a b"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Names.checkName(bad), bad);
            assertEquals(true, e.getMessage().startsWith("invalid stat name '" + bad + "'"), e.getMessage());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Names.checkName("ab-c"));
        assertEquals("invalid stat name 'ab-c': character 3 ('-') is not allowed; names must match"
                + " [a-zA-Z_:][a-zA-Z0-9_:]*", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Names.checkName(""));
        assertThrows(IllegalArgumentException.class, () -> Names.checkName(null));
    }

    @Test
    void helpIsAnyTextButNotNull() {
        assertSame("", Names.checkHelp("n", ""));
        assertSame("any text: 1 < 2", Names.checkHelp("n", "any text: 1 < 2"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Names.checkHelp("n", null));
        assertEquals("help of 'n' must not be null (use \"\" for none)", e.getMessage());
    }
}
