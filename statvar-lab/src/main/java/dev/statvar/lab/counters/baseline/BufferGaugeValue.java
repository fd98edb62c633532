package dev.statvar.lab.counters.baseline;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;

/**
 * Article section "A very exotic solution": gauge values as man-made objects in a private off-heap
 * heap (a direct buffer of {@value #SIZE_LONGS} longs), each a block of 8 longs (64 bytes) aligned
 * to 64 bytes, addressed by {@code int} indices; static accessors on the heap plus a Java object
 * wrapping one address.
 *
 * <p>The article finds the alignment with the JDK-internal {@code sun.nio.ch.DirectBuffer.address()}
 * and skips the misaligned head; here {@code ByteBuffer.allocateDirect(n).alignedSlice(64)} gives
 * a buffer that starts 64-byte aligned, so the first block is at index 0. The accesses are plain
 * (non-volatile) native-order reads and writes, as in the article.
 *
 * <p>Known bugs (kept, as the article wrote them): {@link #alloc()} neither clears nor initialises
 * a block: {@code max} and {@code min} start at 0 (not {@link Long#MIN_VALUE} /
 * {@link Long#MAX_VALUE}), so e.g. the minimum of positive values reads 0; and the heap is
 * fixed-size and shared by all gauges: after about 128 allocations it wraps round and hands out
 * blocks again with their old contents (stale counts and sums), possibly while a client is still
 * writing into them. {@link #alloc()} is unsynchronised (the server thread allocates).
 */
public class BufferGaugeValue extends GaugeValue {
    private static final int SIZE_LONGS = 1024;

    /** The 64-byte aligned byte view of the heap (package-private for tests). */
    static final ByteBuffer BYTES =
            ByteBuffer.allocateDirect(8 * SIZE_LONGS).alignedSlice(64).order(ByteOrder.LITTLE_ENDIAN);

    private static final LongBuffer heap = BYTES.asLongBuffer();
    private static int ptr0 = 0;
    private static int ptr = ptr0;

    private static final int COUNT_OFFSET = 0;
    private static final int SUM_OFFSET = 1;
    private static final int MAX_OFFSET = 2;
    private static final int MIN_OFFSET = 3;

    public static int alloc() {
        if (ptr + 4 > heap.capacity()) {
            ptr = ptr0;
        }
        return (ptr += 8) - 8;
    }

    public static long getCount(int addr) {
        return heap.get(addr + COUNT_OFFSET);
    }

    public static long getSum(int addr) {
        return heap.get(addr + SUM_OFFSET);
    }

    public static long getMax(int addr) {
        return heap.get(addr + MAX_OFFSET);
    }

    public static long getMin(int addr) {
        return heap.get(addr + MIN_OFFSET);
    }

    public static void setCount(int addr, long val) {
        heap.put(addr + COUNT_OFFSET, val);
    }

    public static void setSum(int addr, long val) {
        heap.put(addr + SUM_OFFSET, val);
    }

    public static void setMax(int addr, long val) {
        heap.put(addr + MAX_OFFSET, val);
    }

    public static void setMin(int addr, long val) {
        heap.put(addr + MIN_OFFSET, val);
    }

    public static void report(int addr, long value) {
        setCount(addr, getCount(addr) + 1);
        setSum(addr, getSum(addr) + value);
        long max = getMax(addr);
        long min = getMin(addr);
        if (value > max) {
            setMax(addr, value);
        }
        if (value < min) {
            setMin(addr, value);
        }
    }

    private int addr;

    public BufferGaugeValue(int addr) {
        this.addr = addr;
    }

    @Override
    public long getCount() {
        return getCount(addr);
    }

    @Override
    public long getSum() {
        return getSum(addr);
    }

    @Override
    public long getMax() {
        return getMax(addr);
    }

    @Override
    public long getMin() {
        return getMin(addr);
    }
}
