package dev.statvar.internal;

import dev.statvar.Labels;
import dev.statvar.StatKind;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * The registered stats in order: growing past the initial array keeps every one, and
 * {@code first(n)} copies exactly the first n.
 */
class StatListTest {

    private static Stat counter(int i) {
        return Stat.cells("c" + i, Labels.EMPTY, "", StatKind.COUNTER, i, Layout.DATA_START + i, Layout.COUNTER_CELLS, 0, null);
    }

    @Test
    void statsKeepTheirOrderAcrossGrowth() {
        StatList list = new StatList();
        Stat[] added = new Stat[40];
        for (int i = 0; i < added.length; i++) {
            added[i] = counter(i);
            list.add(added[i]);
            assertEquals(i + 1, list.size());
        }
        for (int i = 0; i < added.length; i++) {
            assertSame(added[i], list.get(i));
        }
        Stat[] first = list.first(17);
        assertEquals(17, first.length);
        for (int i = 0; i < first.length; i++) {
            assertSame(added[i], first[i]);
        }
        assertEquals(0, list.first(0).length);
    }
}
