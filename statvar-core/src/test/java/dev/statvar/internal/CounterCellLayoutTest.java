package dev.statvar.internal;

import org.junit.jupiter.api.Test;
import org.openjdk.jol.info.ClassLayout;
import org.openjdk.jol.info.FieldLayout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * CounterCell's padding is where its design comment says, on the JDK running the build (JOL reads
 * the VM's field offsets): every padding field after the value, and the value followed by
 * {@link Layout#FALSE_SHARING_BYTES} of its own object, so two cells' values are that far apart in
 * any order a moving collector leaves them in.
 */
class CounterCellLayoutTest {

    @Test
    void theValueIsFollowedByFalseSharingBytesOfItsOwnCell() {
        ClassLayout layout = ClassLayout.parseClass(CounterCell.class);
        long value = -1;
        int paddings = 0;
        for (FieldLayout f : layout.fields()) {
            if (f.name().equals("value")) {
                value = f.offset();
            }
        }
        assertTrue(value > 0, layout.toPrintable());
        for (FieldLayout f : layout.fields()) {
            if (f.name().matches("p\\d\\d")) {
                paddings++;
                assertTrue(f.offset() > value, "padding field " + f.name() + " before the value:\n" + layout.toPrintable());
            }
        }
        assertEquals(CounterCell.PADDING_LONGS, paddings);
        assertTrue(layout.instanceSize() - value >= Layout.FALSE_SHARING_BYTES,
                "value at " + value + " of " + layout.instanceSize() + " bytes:\n" + layout.toPrintable());
        // Before the value: the object header and the owner reference only.
        assertTrue(value <= 24, layout.toPrintable());
    }

    @Test
    void aCellCosts152BytesWithCompressedReferences() {
        // What a platform thread pays per counter it adds to (docs/PERFORMANCE.md, README): with
        // compressed references (the default below 32 GiB of heap, as in this build's JVMs) 152
        // bytes: header 12, owner 4, value 8, padding 120, the counter 4, alignment 4.
        assertEquals(152, ClassLayout.parseClass(CounterCell.class).instanceSize(),
                ClassLayout.parseClass(CounterCell.class).toPrintable());
    }

    @Test
    void aHistogramViewCosts32BytesWithCompressedReferences() {
        // What a platform thread pays per histogram it records to, besides its array (README):
        // header 12, owner 4, the histogram 4, bits 4, the array 4, alignment 4. Unpadded: only its
        // owner reads it, and writes it only when its array is replaced.
        assertEquals(32, ClassLayout.parseClass(LocalHistogram.class).instanceSize(),
                ClassLayout.parseClass(LocalHistogram.class).toPrintable());
    }
}
