package dev.statvar.lab.throughput;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The Disruptor's idea, hand-written for one producer and one consumer: a ring of 1,024
 * preallocated {@code long} slots and two sequence numbers, {@code tail} (the next slot the
 * producer fills) and {@code head} (the next slot the consumer reads). Each side keeps its own
 * copy of the other's sequence and reads the shared one only when that copy says it must wait.
 * A side that must wait spins {@link #SPINS} times ({@link Thread#onSpinWait()}), then parks
 * {@link #PARK_NANOS} at a time until it may go on: never unbounded spinning, never
 * {@code Thread.yield()} (Cliff Click, "A Pair of (somebody else's) Concurrency Bugs"). Nobody unparks a parked side: it looks again when its park
 * times out.
 *
 * <p>Threads and memory modes: the producer writes a slot (plain) and then {@code tail}
 * (setRelease); the consumer reads {@code tail} (getAcquire, pairs with that setRelease), so the
 * slot's write happens-before its plain read. The consumer then writes {@code head}
 * (setRelease); the producer reads {@code head} (getAcquire, pairs with it) before it fills that
 * slot again, so the consumer's read happens-before the overwrite. Each sequence and each side's
 * cached copy sits 128 bytes from the others in one array (own cache lines, and own pairs of
 * lines for the adjacent-line prefetcher); the cached copies are plain, each read and written by
 * its own side only.
 */
final class RingHandoff implements Handoff {
    static final int SIZE = 1024;
    private static final int MASK = SIZE - 1;
    /** Spins before a waiting side parks. */
    static final int SPINS = 1_000;
    /** One park of a waiting side (Linux rounds it up to ~50-60 us). */
    static final long PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(20);
    private static final int PAD = 16;
    private static final int TAIL = PAD;
    private static final int HEAD = 2 * PAD;
    private static final int PRODUCER_HEAD_COPY = 3 * PAD;
    private static final int CONSUMER_TAIL_COPY = 4 * PAD;
    private static final VarHandle SEQ = MethodHandles.arrayElementVarHandle(long[].class);

    private final long[] slots = new long[SIZE];
    private final long[] seq = new long[5 * PAD + 1];

    /** Producer only. */
    @Override
    public void put(long value) {
        long tail = seq[TAIL]; // plain: only the producer writes it
        for (int waited = 0; tail - seq[PRODUCER_HEAD_COPY] >= SIZE; waited++) {
            seq[PRODUCER_HEAD_COPY] = (long) SEQ.getAcquire(seq, HEAD); // pairs with take()'s setRelease of head
            if (tail - seq[PRODUCER_HEAD_COPY] >= SIZE) {
                backOff(waited);
            }
        }
        slots[(int) (tail & MASK)] = value;
        SEQ.setRelease(seq, TAIL, tail + 1); // pairs with take()'s getAcquire of tail
    }

    /** Consumer only. */
    @Override
    public long take() {
        long head = seq[HEAD]; // plain: only the consumer writes it
        for (int waited = 0; head >= seq[CONSUMER_TAIL_COPY]; waited++) {
            seq[CONSUMER_TAIL_COPY] = (long) SEQ.getAcquire(seq, TAIL); // pairs with put()'s setRelease of tail
            if (head >= seq[CONSUMER_TAIL_COPY]) {
                backOff(waited);
            }
        }
        long value = slots[(int) (head & MASK)];
        SEQ.setRelease(seq, HEAD, head + 1); // pairs with put()'s getAcquire of head
        return value;
    }

    /** Bounded spinning, then parking. */
    private static void backOff(int waited) {
        if (waited < SPINS) {
            Thread.onSpinWait();
        } else {
            LockSupport.parkNanos(PARK_NANOS);
        }
    }
}
