package dev.statvar.internal;

/**
 * An object one platform thread owns in one table: its {@link Block} in the thread table, a
 * {@link LocalHistogram} of a histogram. It sits in its handle's table ({@link PerThreadTable})
 * at the owner's slot; the update path finds it there and compares {@link #owner} with the
 * current thread by reference.
 */
abstract class PerThread {
    /** The only writer of the object's mutable state; compared by reference (no Thread subclass can spoof it). */
    final Thread owner;

    PerThread(Thread owner) {
        this.owner = owner;
    }
}
