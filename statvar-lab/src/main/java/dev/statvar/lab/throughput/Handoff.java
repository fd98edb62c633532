package dev.statvar.lab.throughput;

/**
 * A single-producer, single-consumer handoff of {@code long} values between two threads, FIFO,
 * blocking when full (put) and when empty (take): the two implementations of Cliff Click's
 * "A Pair of (somebody else's) Concurrency Bugs", a JDK
 * BlockingQueue and a Disruptor-like ring buffer.
 *
 * <p>Threads: one producer thread calls {@link #put}, one consumer thread calls {@link #take};
 * each implementation's javadoc says how a value put happens-before its take.
 */
interface Handoff {
    /** Hands {@code value} (>= 0, or {@link #END}) over; waits while the handoff is full. */
    void put(long value);

    /** The next value put; waits while there is none. */
    long take();

    /** What {@link #take()} returns for the value {@code value} put (the consumer checks the order with it). */
    default long expected(long value) {
        return value;
    }

    /** The value a producer puts last: the consumer stops at it (not counted as an op). */
    long END = -1;

    /** The article's two implementations. */
    enum Impl {
        /** {@link java.util.concurrent.ArrayBlockingQueue}, 1,024 slots. */
        QUEUE,
        /** {@link RingHandoff}: the Disruptor's idea, 1,024 slots. */
        RING;

        Handoff create() {
            return this == QUEUE ? new QueueHandoff(RingHandoff.SIZE) : new RingHandoff();
        }

        String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }
}
