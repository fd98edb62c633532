package dev.statvar.lab.ordered;

import dev.statvar.StatRegistry;
import dev.statvar.probes.ordered.OrderedScheduler;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The three ways the study puts each stream's results out in ticket order. Each stream gets its own
 * instance of the mechanism (a scheduler, a monitor, a queue and consumer), so S streams are S
 * independent orderings; every design calls the same {@link Sink}.
 */
enum Design {
    /** statvar-probes' OrderedScheduler (capacity {@value #CAPACITY}): the output runs on a worker, in place or left behind. */
    SCHEDULER,
    /** A {@code synchronized} section per stream: a worker waits ({@code wait}) for its turn, outputs, {@code notifyAll}s. */
    SYNCHRONIZED,
    /** Workers put results into an ArrayBlockingQueue ({@value #CAPACITY}) per stream; one consumer thread per stream reorders and outputs. */
    QUEUE_CONSUMER;

    /** The scheduler's ring and the queue's capacity, per stream. */
    static final int CAPACITY = 1024;

    /** One design's streams in one cell. */
    interface Streams {
        /** The next ticket of stream {@code s}, in task-creation order. */
        long ticket(int s);

        /** Puts task {@code t}'s result out in ticket order (or hands it to what does). */
        void output(int s, long t, long created, long result) throws InterruptedException;

        /** Threads the design starts itself (consumers), for the CPU count. */
        List<Thread> ownThreads();

        /** Stops the design's own threads. */
        void close() throws InterruptedException;
    }

    Streams create(Sink[] sinks, StatRegistry registry) {
        return switch (this) {
            case SCHEDULER -> new ViaScheduler(sinks, registry);
            case SYNCHRONIZED -> new ViaMonitor(sinks);
            case QUEUE_CONSUMER -> new ViaConsumer(sinks);
        };
    }

    private static final class ViaScheduler implements Streams {
        private final Sink[] sinks;
        private final OrderedScheduler[] schedulers;

        ViaScheduler(Sink[] sinks, StatRegistry registry) {
            this.sinks = sinks;
            schedulers = new OrderedScheduler[sinks.length];
            for (int s = 0; s < sinks.length; s++) {
                schedulers[s] = new OrderedScheduler(CAPACITY, registry, "scheduler"); // one set of stats, summed over the streams
            }
        }

        @Override
        public long ticket(int s) {
            return schedulers[s].ticket();
        }

        @Override
        public void output(int s, long t, long created, long result) {
            Sink sink = sinks[s];
            schedulers[s].run(t, () -> sink.output(t, created, result));
        }

        @Override
        public List<Thread> ownThreads() {
            return List.of();
        }

        @Override
        public void close() {
        }
    }

    private static final class ViaMonitor implements Streams {
        private final Sink[] sinks;
        private final AtomicLong[] tickets;
        private final Object[] locks;
        /** Per stream, the ticket whose turn it is; guarded by that stream's lock. */
        private final long[] turn;

        ViaMonitor(Sink[] sinks) {
            this.sinks = sinks;
            tickets = new AtomicLong[sinks.length];
            locks = new Object[sinks.length];
            turn = new long[sinks.length];
            for (int s = 0; s < sinks.length; s++) {
                tickets[s] = new AtomicLong();
                locks[s] = new Object();
            }
        }

        @Override
        public long ticket(int s) {
            return tickets[s].getAndIncrement();
        }

        @Override
        public void output(int s, long t, long created, long result) throws InterruptedException {
            Object lock = locks[s];
            synchronized (lock) {
                while (turn[s] != t) {
                    lock.wait(); // woken by the notifyAll of each output of this stream
                }
                sinks[s].output(t, created, result);
                turn[s] = t + 1;
                lock.notifyAll();
            }
        }

        @Override
        public List<Thread> ownThreads() {
            return List.of();
        }

        @Override
        public void close() {
        }
    }

    private static final class ViaConsumer implements Streams {
        private record Item(long ticket, long created, long result) {
        }

        private static final Item STOP = new Item(-1, 0, 0);
        private final AtomicLong[] tickets;
        private final List<BlockingQueue<Item>> queues = new ArrayList<>();
        private final List<Thread> consumers = new ArrayList<>();

        ViaConsumer(Sink[] sinks) {
            tickets = new AtomicLong[sinks.length];
            for (int s = 0; s < sinks.length; s++) {
                tickets[s] = new AtomicLong();
                BlockingQueue<Item> q = new ArrayBlockingQueue<>(CAPACITY);
                queues.add(q);
                Sink sink = sinks[s];
                Thread c = new Thread(() -> consume(q, sink), "ordered-consumer-" + s);
                c.setDaemon(true);
                consumers.add(c);
                c.start();
            }
        }

        /** The consumer: takes results as they come, keeps the early ones until their turn (a heap by ticket). */
        private static void consume(BlockingQueue<Item> q, Sink sink) {
            PriorityQueue<Item> early = new PriorityQueue<>((a, b) -> Long.compare(a.ticket(), b.ticket()));
            long next = 0;
            try {
                for (Item i = q.take(); i != STOP; i = q.take()) {
                    early.add(i);
                    while (!early.isEmpty() && early.peek().ticket() == next) {
                        Item o = early.poll();
                        sink.output(o.ticket(), o.created(), o.result());
                        next++;
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public long ticket(int s) {
            return tickets[s].getAndIncrement();
        }

        @Override
        public void output(int s, long t, long created, long result) throws InterruptedException {
            queues.get(s).put(new Item(t, created, result));
        }

        @Override
        public List<Thread> ownThreads() {
            return consumers;
        }

        @Override
        public void close() throws InterruptedException {
            for (BlockingQueue<Item> q : queues) {
                q.put(STOP);
            }
            for (Thread c : consumers) {
                c.join();
            }
        }
    }
}
