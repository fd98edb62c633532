package dev.statvar.lab.throughput;

import java.util.concurrent.ArrayBlockingQueue;

/**
 * The JDK's answer: an {@link ArrayBlockingQueue} (one lock, two conditions: the producer and the
 * consumer park and unpark each other). The values travel as preallocated boxes (value modulo
 * the capacity, so the consumer can check the order), so that neither implementation allocates
 * per op and GC is not what tells them apart.
 *
 * <p>Threads: {@code put} and {@code take} go through the queue's lock, whose unlock by the
 * producer happens-before the consumer's lock of it (the queue's own guarantee: actions before
 * {@code put} happen-before those after the {@code take} that gets the element).
 */
final class QueueHandoff implements Handoff {
    private final ArrayBlockingQueue<Long> queue;
    private final Long[] boxes;
    private final int mask;
    private static final Long END_BOX = Long.valueOf(Handoff.END);

    QueueHandoff(int capacity) {
        if (Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("capacity must be a power of two, was " + capacity);
        }
        queue = new ArrayBlockingQueue<>(capacity);
        boxes = new Long[capacity];
        for (int i = 0; i < capacity; i++) {
            boxes[i] = Long.valueOf(i);
        }
        mask = capacity - 1;
    }

    @Override
    public void put(long value) {
        Long box = value == END ? END_BOX : boxes[(int) (value & mask)];
        boolean interrupted = false;
        while (true) {
            try {
                queue.put(box);
                break;
            } catch (InterruptedException e) {
                interrupted = true; // nobody interrupts the lab's workers; keep the value anyway
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** The value modulo the capacity (or {@link #END}): what the box holds. */
    @Override
    public long take() {
        while (true) {
            try {
                return queue.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("consumer interrupted", e);
            }
        }
    }

    @Override
    public long expected(long value) {
        return value & mask;
    }
}
