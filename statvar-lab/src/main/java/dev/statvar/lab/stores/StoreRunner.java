package dev.statvar.lab.stores;

import dev.statvar.Counter;
import dev.statvar.Gauge;
import dev.statvar.Histogram;
import dev.statvar.StatRegistry;

import java.util.Arrays;
import java.util.Locale;

/**
 * The store study's child JVM. {@code StoreRunner KIND WARMUPS RUNS RUN_MS}: every cell of one
 * {@link StoreKind} (its loops x its thread counts), each {@code WARMUPS} unreported runs then
 * {@code RUNS} measured ones of {@code RUN_MS} each; prints {@code PROGRESS} and one {@code RESULT
 * KIND LOOP THREADS RUN NS_PER_STORE STORES} line per measured run. {@code StoreRunner --listing}:
 * runs every loop and Jean-Philippe Bempel's reordering example ("Volatile and memory barriers", 2015) long enough for C2 to compile them (the
 * study's listing JVM, started with {@code -XX:CompileCommand=print}); measures nothing.
 *
 * <p>A run calls the kind's loop with {@link #CHUNK} stores until {@code RUN_MS} have passed on
 * {@link System#nanoTime()}; ns per store = elapsed / stores. At 2 threads a reader thread spins on
 * {@code getOpaque} of the written field for the whole run.
 *
 * <p>Threading: the main thread is the writer. The reader thread reads {@link Cell#x}
 * ({@code getOpaque}, pairing with the writer's store of the kind measured) until
 * {@link #reading} turns false (a volatile store by the writer, read with a volatile load by the
 * reader); its count is read after {@link Thread#join()}.
 */
public final class StoreRunner {
    /** Stores per call of a loop method. */
    static final int CHUNK = 10_000;

    private volatile boolean reading;
    private long readerLoads;

    private StoreRunner() {
    }

    public static void main(String[] args) throws Exception {
        if (args[0].equals("--listing")) {
            listing();
            return;
        }
        StoreKind kind = StoreKind.valueOf(args[0]);
        int warmups = Integer.parseInt(args[1]);
        int runs = Integer.parseInt(args[2]);
        long runMs = Long.parseLong(args[3]);
        Loops loops = new Loops();
        for (String loop : kind.loops()) {
            for (int threads : kind.threads()) {
                System.out.printf(Locale.ROOT, "PROGRESS %s %s threads=%d%n", kind, loop, threads);
                for (int r = -warmups; r < runs; r++) {
                    double[] m = new StoreRunner().run(loops, kind, loop, threads, runMs);
                    if (r >= 0) {
                        System.out.printf(Locale.ROOT, "RESULT %s %s %d %d %.4f %d%n", kind, loop, threads, r + 1, m[0], (long) m[1]);
                    }
                }
                System.out.flush();
            }
        }
        System.out.println("BLACKHOLE " + loops.sink);
    }

    /** One run: {ns per store, stores}. */
    private double[] run(Loops loops, StoreKind kind, String loop, int threads, long runMs) throws InterruptedException {
        Cell cell = loops.cell;
        Thread reader = null;
        if (threads > 1) {
            reading = true;
            reader = new Thread(() -> {
                long n = 0;
                int s = 0;
                while (reading) { // volatile load; pairs with the writer's volatile store below
                    s += (int) StoreLoops.X.getOpaque(cell); // opaque; pairs with the loop's store
                    n++;
                }
                readerLoads = n + (s == 42 ? 1 : 0); // read by the writer after join
            }, "stores-reader");
            reader.start();
            while (reader.getState() == Thread.State.NEW) {
                Thread.onSpinWait();
            }
        }
        long stores = 0;
        long t0 = System.nanoTime();
        long end = t0 + runMs * 1_000_000;
        long now;
        do {
            loops.call(kind, loop, CHUNK);
            stores += CHUNK;
            now = System.nanoTime();
        } while (now < end);
        if (reader != null) {
            reading = false; // volatile store; pairs with the reader's volatile load
            reader.join();
            loops.sink += readerLoads;
        }
        return new double[] {(now - t0) / (double) stores, stores};
    }

    /** The listing JVM: every loop called {@code 1,500 x CHUNK} times, then the reordering example. */
    private static void listing() {
        Loops loops = new Loops();
        for (StoreKind k : StoreKind.values()) {
            for (String loop : k.loops()) {
                for (int i = 0; i < 1_500; i++) {
                    loops.call(k, loop, CHUNK);
                }
            }
        }
        Reorder.exercise();
        System.out.println("BLACKHOLE " + loops.sink + " " + Arrays.hashCode(new int[] {Reorder.Plain.field6, Reorder.Volatiles.field6}));
    }

    /** The loops' state on the writer thread: the cell, statvar's stats, and a sink for the results. */
    static final class Loops {
        final Cell cell = new Cell();
        final StatRegistry registry = StatRegistry.create();
        final Counter counter = registry.counter("stores_counter");
        final Gauge gauge = registry.gauge("stores_gauge");
        final Histogram histogram = registry.histogram("stores_histogram");
        long sink;

        void call(StoreKind kind, String loop, int n) {
            sink += switch (kind.method(loop)) {
                case "storePlain" -> StoreLoops.storePlain(cell, n);
                case "storeOpaque" -> StoreLoops.storeOpaque(cell, n);
                case "storeRelease" -> StoreLoops.storeRelease(cell, n);
                case "storeVolatile" -> StoreLoops.storeVolatile(cell, n);
                case "storeGetAndSet" -> StoreLoops.storeGetAndSet(cell, n);
                case "storeFullFence" -> StoreLoops.storeFullFence(cell, n);
                case "storeLoadPlain" -> StoreLoops.storeLoadPlain(cell, n);
                case "storeLoadOpaque" -> StoreLoops.storeLoadOpaque(cell, n);
                case "storeLoadRelease" -> StoreLoops.storeLoadRelease(cell, n);
                case "storeLoadVolatile" -> StoreLoops.storeLoadVolatile(cell, n);
                case "storeLoadGetAndSet" -> StoreLoops.storeLoadGetAndSet(cell, n);
                case "storeLoadFullFence" -> StoreLoops.storeLoadFullFence(cell, n);
                case "counterAdd" -> StoreLoops.counterAdd(counter, n);
                case "gaugeReport" -> StoreLoops.gaugeReport(gauge, n);
                case "histogramRecord" -> StoreLoops.histogramRecord(histogram, n);
                default -> throw new IllegalArgumentException(kind.method(loop));
            };
        }
    }
}
