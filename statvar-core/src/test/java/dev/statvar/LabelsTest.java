package dev.statvar;

import java.util.List;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Labels: the accessors, lookup by name, equality and hash codes, toString of several labels, and the
 * label-name grammar {@code [a-zA-Z_][a-zA-Z0-9_]*} checked at every edge of its character ranges.
 */
class LabelsTest {

    @Test
    void accessorsReturnTheNamesAndValuesInOrder() {
        Labels l = Labels.of("method", "GET", "code", "200");
        assertEquals(2, l.size());
        assertFalse(l.isEmpty());
        assertEquals(List.of("method", "code"), l.names());
        assertEquals(List.of("GET", "200"), l.values());
        assertEquals("method", l.name(0));
        assertEquals("code", l.name(1));
        assertEquals("GET", l.value(0));
        assertEquals("200", l.value(1));
        assertEquals(0, Labels.EMPTY.size());
        assertTrue(Labels.EMPTY.isEmpty());
        assertEquals(Labels.EMPTY, Labels.of());
    }

    @Test
    void getFindsEveryLabelByNameAndNullForOthers() {
        Labels l = Labels.of("method", "GET", "code", "200");
        assertEquals("GET", l.get("method"));
        assertEquals("200", l.get("code"));
        assertNull(l.get("path"));
        assertNull(l.get("GET"), "values are not names");
        assertNull(Labels.EMPTY.get("method"));
    }

    @Test
    void equalLabelsHaveEqualHashCodesAndEveryPartTellsLabelsApart() {
        Labels a = Labels.of("k", "v", "j", "w");
        assertEquals(a, Labels.of("k", "v", "j", "w"));
        assertEquals(a.hashCode(), Labels.of("k", "v", "j", "w").hashCode());
        assertNotEquals(a, Labels.of("k", "v", "j", "x"));
        assertNotEquals(a, Labels.of("k", "v", "i", "w"));
        assertNotEquals(a, Labels.of("j", "w", "k", "v"), "order matters");
        assertNotEquals(a, "k=v,j=w");
        assertNotEquals(a.hashCode(), Labels.of("k", "v", "j", "x").hashCode(), "values differ");
        assertNotEquals(a.hashCode(), Labels.of("k", "v", "i", "w").hashCode(), "names differ");
        assertNotEquals(Labels.of("a", "x").hashCode(), Labels.of("b", "x").hashCode(), "names differ, one label");
    }

    @Test
    void toStringSeparatesLabelsWithCommas() {
        assertEquals("", Labels.EMPTY.toString());
        assertEquals("{a=\"1\"}", Labels.of("a", "1").toString());
        assertEquals("{a=\"1\",b=\"x\\\\y\",c=\"\"}", Labels.of("a", "1", "b", "x\\y", "c", "").toString());
    }

    @Test
    void labelNameCharactersAtEveryEdgeOfTheGrammar() {
        // accepted anywhere: the ends of each letter range and '_'
        for (String name : List.of("a", "z", "A", "Z", "_", "az", "AZ", "_a", "zA", "Za_")) {
            assertEquals(name, Labels.of(name, "v").name(0), name);
        }
        // digits, the ends of their range, are accepted after the first character only
        for (String name : List.of("a0", "a9", "_09", "Z9x")) {
            assertEquals(name, Labels.of(name, "v").name(0), name);
        }
        for (String name : List.of("0", "9", "0a", "9a")) {
            assertInvalid(name, 1);
        }
        // the characters just outside each range, first and later
        for (char c : new char[]{'`', '{', '@', '[', '/', ':', '-', ' ', '\u00e9'}) {
            assertInvalid(String.valueOf(c), 1);
            assertInvalid("a" + c, 2);
            assertInvalid("Z" + c + "a", 2);
        }
    }

    @Test
    void leAndQuantileAreReservedForHistogramsOnly() {
        assertEquals("le", Labels.of("le", "0.5").name(0));
        assertEquals("quantile", Labels.of("quantile", "0.5").name(0));
        StatRegistry r = StatRegistry.create();
        r.counterFamily("c", "", "le").labels("1").add();
        r.gaugeFamily("g", "", "quantile").labels("0.5").report(1);
        assertEquals(1, r.collect().counter("c", Labels.of("le", "1")));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> r.histogramFamily("h", "", HistogramPrecision.DEFAULT, "le"));
        assertEquals("histogram family h[le] with HistogramPrecision[subBucketBits=6]: label name 'le' is reserved for a"
                + " histogram's buckets and quantiles", e.getMessage());
    }

    @Test
    void surrogatesMustBePairedHighThenLow() {
        assertEquals("\uD83D\uDE00", Labels.of("k", "\uD83D\uDE00").value(0));
        assertEquals("a\uD83D\uDE00b", Labels.of("k", "a\uD83D\uDE00b").value(0));
        assertUnpaired("a\uDC00", 1);  // a low surrogate after an ordinary character
        assertUnpaired("\uD800a", 0);  // a high surrogate before an ordinary character
        assertUnpaired("\uDE00\uD83D", 0); // the pair reversed
        assertUnpaired("x\uD800", 1);  // a high surrogate at the end
    }

    private static void assertUnpaired(String value, int index) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Labels.of("k", value));
        assertEquals("labels: the value of label 'k' has an unpaired surrogate at index " + index
                + " (not encodable as UTF-8)", e.getMessage());
    }

    private static void assertInvalid(String name, int position) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Labels.of(name, "v"),
                "label name '" + name + "'");
        assertEquals("labels: invalid label name '" + name + "': character " + position + " ('" + name.charAt(position - 1)
                + "') is not allowed; label names must match [a-zA-Z_][a-zA-Z0-9_]*", e.getMessage());
    }
}
