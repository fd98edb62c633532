package dev.statvar.lab.stores;

import dev.statvar.Counter;
import dev.statvar.Gauge;
import dev.statvar.Histogram;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The loops whose time and machine code the study reports: {@code n} stores of the loop index
 * into {@link Cell#x} in one mode each, and the same with a load of {@link Cell#y} after every
 * store (in the matching mode: plain, opaque, acquire, volatile; a plain load after the fence).
 * The store-then-load loops return the sum of the loads so that the JIT keeps them.
 *
 * <p>Threading: each loop runs on the one writer thread of its run; {@link Cell#x} is read
 * meanwhile by the reader thread ({@code getOpaque}, in {@link StoreRunner}), which pairs with the
 * loop's store; {@link Cell#y} is not written while the loops run. No loop synchronises with
 * anything else: what is measured is the store's own cost.
 */
final class StoreLoops {
    static final VarHandle X;
    static final VarHandle Y;

    static {
        try {
            X = MethodHandles.lookup().findVarHandle(Cell.class, "x", int.class);
            Y = MethodHandles.lookup().findVarHandle(Cell.class, "y", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private StoreLoops() {
    }

    static int storePlain(Cell c, int n) {
        for (int i = 0; i < n; i++) {
            c.x = i; // plain: no ordering; the reader's getOpaque may see it late or never
        }
        return 0;
    }

    static int storeOpaque(Cell c, int n) {
        for (int i = 0; i < n; i++) {
            X.setOpaque(c, i); // opaque; pairs with the reader's getOpaque
        }
        return 0;
    }

    static int storeRelease(Cell c, int n) {
        for (int i = 0; i < n; i++) {
            X.setRelease(c, i); // release (lazySet); the reader's getOpaque sees it, unordered
        }
        return 0;
    }

    static int storeVolatile(Cell c, int n) {
        for (int i = 0; i < n; i++) {
            X.setVolatile(c, i); // volatile; the reader's getOpaque sees it
        }
        return 0;
    }

    static int storeGetAndSet(Cell c, int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            s += (int) X.getAndSet(c, i); // volatile read-modify-write; the reader's getOpaque sees it
        }
        return s;
    }

    static int storeFullFence(Cell c, int n) {
        for (int i = 0; i < n; i++) {
            c.x = i; // plain, then a full fence; the reader's getOpaque sees it
            VarHandle.fullFence();
        }
        return 0;
    }

    static int storeLoadPlain(Cell c, int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            c.x = i; // plain; as storePlain
            s += c.y; // plain load of a field nobody writes now
        }
        return s;
    }

    static int storeLoadOpaque(Cell c, int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            X.setOpaque(c, i); // opaque; pairs with the reader's getOpaque
            s += (int) Y.getOpaque(c); // opaque load; y is not written now
        }
        return s;
    }

    static int storeLoadRelease(Cell c, int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            X.setRelease(c, i); // release; the reader's getOpaque sees it
            s += (int) Y.getAcquire(c); // acquire load: release then acquire may still reorder (store-load)
        }
        return s;
    }

    static int storeLoadVolatile(Cell c, int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            X.setVolatile(c, i); // volatile; the reader's getOpaque sees it
            s += (int) Y.getVolatile(c); // volatile load: may not move before the volatile store
        }
        return s;
    }

    static int storeLoadGetAndSet(Cell c, int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            s += (int) X.getAndSet(c, i); // volatile read-modify-write; the reader's getOpaque sees it
            s += (int) Y.getVolatile(c); // volatile load after it
        }
        return s;
    }

    static int storeLoadFullFence(Cell c, int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            c.x = i; // plain, then a full fence; the reader's getOpaque sees it
            VarHandle.fullFence();
            s += c.y; // plain load, ordered after the store by the fence
        }
        return s;
    }

    /** statvar's counter, {@code n} times (its own per-thread cell: a plain read and an opaque store). */
    static int counterAdd(Counter counter, int n) {
        for (int i = 0; i < n; i++) {
            counter.add();
        }
        return 0;
    }

    static int gaugeReport(Gauge gauge, int n) {
        for (int i = 0; i < n; i++) {
            gauge.report(i & 1023);
        }
        return 0;
    }

    static int histogramRecord(Histogram histogram, int n) {
        for (int i = 0; i < n; i++) {
            histogram.record(i & 1023);
        }
        return 0;
    }
}
