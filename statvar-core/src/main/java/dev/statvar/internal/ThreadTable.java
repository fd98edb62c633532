package dev.statvar.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;

/**
 * Finds, makes and grows the calling platform thread's {@link Block} (its cells in one
 * registry). Any thread calls {@link #lookup} (no lock, no locked instruction) and the slow
 * paths (the engine lock); the collector takes new blocks ({@link #takeFresh}) and frees dead
 * threads' slots ({@link #release}).
 *
 * <pre>
 * Design
 * ------
 * A table of Blocks indexed by (thread id &amp; mask): a {@link PerThreadTable}, the one table
 * implementation (placing, doubling, freeing), which each histogram's table of views uses too.
 * The owner check compares the Block's Thread with Thread.currentThread() by reference, so a
 * Thread subclass overriding getId() (JDK 17-18; threadId() is final from JDK 19 and used there)
 * can at worst collide, never write another thread's cells. Hit ({@link #lookup}): 5 loads and
 * a compare. The table and its slots are written only under the engine lock, with setRelease,
 * and read on the update path with getAcquire (pairing TABLE); the collector clears a dead
 * thread's slot with a CAS, which fails if install() gave the slot to another thread meanwhile.
 *
 * Miss (first use, a collision with another live thread, a pool that erased ThreadLocals): the
 * thread finds its block through a ThreadLocal holding a WeakReference (a JDK class: nothing a
 * thread keeps references a statvar class strongly, so a dropped registry never pins its class
 * loader); without it, through the table or, for a thread that collided, the spilled map, under
 * the lock; else it makes one. So there is at most one block per live thread, whatever pools do.
 * A block is installed when its slot is free or held by a dead thread; the table doubles (to
 * PerThreadTable.MAX) when an install collides with a live thread and more than half of the
 * slots hold live threads' blocks: a new block costs O(1) amortised, also when dead threads pile
 * up between collects. A thread on the slow path retries installing itself every
 * INSTALL_RETRY_MASK + 1 calls.
 *
 * Growth: a stat registered after a thread's array was sized makes the array too short; the
 * owner copies it into a longer one under the lock, which excludes the collector's switch and
 * reads (their writes, EPOCH and G_SEEN, must not be lost by the copy). Histogram arrays and
 * local views' arrays are made and grown under the lock as well.
 *
 * New blocks go to a list (fresh) that the collector takes under the lock in O(1).
 * </pre>
 */
final class ThreadTable {
    private static final VarHandle TABLE;
    private static final VarHandle BLOCKS = MethodHandles.arrayElementVarHandle(Block[].class);

    static {
        try {
            TABLE = MethodHandles.lookup().findVarHandle(ThreadTable.class, "table", Block[].class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final int INITIAL_TABLE = 64;
    /** A thread on the slow path retries installing itself into the table every this many calls + 1. */
    private static final int INSTALL_RETRY_MASK = 1023;

    private final Object engineLock;
    private final Epoch epoch;
    /** For the arrays' growth: how far the stats of each kind registered so far reach (engine lock). */
    private final Registrations registrations;
    /**
     * The calling thread's Block, weakly: a thread outliving this registry keeps no strong
     * reference to a statvar object, and a pool that erases ThreadLocals only costs a lookup.
     */
    private final ThreadLocal<WeakReference<Block>> ownBlock = new ThreadLocal<>();

    /** Thread id &amp; (length - 1) to that thread's Block. Written under the engine lock (setRelease); pairing TABLE. */
    private Block[] table;

    // ---- guarded by the engine lock ----
    /** Blocks made since the collector last took them. */
    private ArrayList<Block> fresh = new ArrayList<>();
    /** The blocks of live threads not in the table (their slot is taken by another live thread), by thread. */
    private final IdentityHashMap<Thread, Block> spilled = new IdentityHashMap<>();

    ThreadTable(Object engineLock, Epoch epoch, Registrations registrations) {
        this.engineLock = engineLock;
        this.epoch = epoch;
        this.registrations = registrations;
        TABLE.setRelease(this, new Block[INITIAL_TABLE]); // pairing TABLE
    }

    // ------------------------------------------------------------------ the update path

    /** The calling thread's Block if the table holds it, else null. No lock. Pairing TABLE. */
    Block lookup(Thread t) {
        Block[] tab = (Block[]) TABLE.getAcquire(this);
        Block b = (Block) BLOCKS.getAcquire(tab, PerThreadTable.slot(t, tab.length));
        return b != null && b.owner == t ? b : null;
    }

    // ------------------------------------------------------------------ slow paths (the calling platform thread)

    /**
     * The calling thread's Block: through its ThreadLocal, else (first use, or a pool erased its
     * ThreadLocals) the one the table or the spilled map holds, else a new one.
     */
    Block own(Thread t) {
        WeakReference<Block> r = ownBlock.get();
        Block b = r != null ? r.get() : null;
        if (b == null) {
            b = lookup(t);
            if (b == null) {
                b = blockOf(t);
            }
            ownBlock.set(new WeakReference<>(b));
        }
        return b;
    }

    /** {@code b}'s gauge array, covering {@code limit}: made or grown as needed. Caller is the owner. */
    long[] cells(Block b, int limit) {
        long[] c = b.cells; // owner-only field: our own write
        if (limit > c.length) {
            return grow(b, limit, false);
        }
        retryInstall(b);
        return c;
    }

    /** The calling thread's counter array, covering {@code limit}: made, grown and installed as needed. */
    long[] counters(Thread t, int limit) {
        return counters(own(t), limit);
    }

    /** {@code b}'s counter array, covering {@code limit}: grown as needed. Caller is the owner. */
    long[] counters(Block b, int limit) {
        long[] c = b.counters; // owner-only field: our own write
        if (limit > c.length) {
            return grow(b, limit, true);
        }
        retryInstall(b);
        return c;
    }

    /** The Block of live thread {@code t}, made and installed if it has none. */
    private Block blockOf(Thread t) {
        synchronized (engineLock) {
            Block b = spilled.get(t);
            if (b == null && (b = lookup(t)) == null) {
                b = new Block(t);
                fresh.add(b);
                if (!install(b)) {
                    spilled.put(t, b);
                }
            }
            return b;
        }
    }

    /** Replaces the owner's gauge or counter array with a longer one, or makes its first. Caller is the owner. */
    private long[] grow(Block b, int limit, boolean counters) {
        // test-only switch: GROW_UNLOCKED copies without the lock (a fresh monitor excludes nobody)
        synchronized (Broken.GROW_UNLOCKED ? new Object() : engineLock) {
            long[] old = counters ? b.counters : b.cells;
            if (limit <= old.length) {
                return old;
            }
            int extent = counters ? registrations.countersLimit() : registrations.gaugesLimit();
            int grownAt = counters ? b.countersGrownAt : b.cellsGrownAt;
            long[] c = CellArrays.grow(old, limit, extent, grownAt, Threads.id(b.owner), epoch.current());
            // under the lock: read by the collector under it, and by the owner itself
            if (counters) {
                b.countersGrownAt = extent;
                b.publishCounters(c); // the collector reads it without the lock
                if (b.counterViews != null) {
                    for (LocalCounter v : b.counterViews) {
                        if (v != null) {
                            v.cells = c; // owner-only field: we are the owner
                        }
                    }
                }
            } else {
                b.cellsGrownAt = extent;
                b.cells = c;
            }
            return c;
        }
    }

    /** Now and then, a thread on the slow path tries to take its table slot (it may have been freed). */
    void retryInstall(Block b) {
        if ((++b.slowCalls & INSTALL_RETRY_MASK) == 0) {
            synchronized (engineLock) {
                if (spilled.containsKey(b.owner) && install(b)) {
                    spilled.remove(b.owner);
                }
            }
        }
    }

    /**
     * The calling platform thread's view of histogram {@code h}: the one its Block keeps at
     * {@code h}'s index, else made there (array grown as needed) and installed in {@code h}'s
     * table, under the lock (the collector reads and sweeps those arrays under it). The kept view
     * must be {@code h}'s own: the slot may have held a removed histogram's view (a reclaimed slot
     * is reused, and the collector's sweep of the old view may not be visible yet). A reclaimed
     * {@code h} gets a view of its own that the Block does not keep (its slot is another's). For a
     * thread that collided in {@code h}'s table, installing is retried every INSTALL_RETRY_MASK + 1 calls.
     */
    LocalHistogram histogramView(Thread t, HistogramImpl h) {
        Block b = own(t);
        int index = h.hindex();
        LocalHistogram[] kept = b.histViews; // owner-written array (the collector nulls elements under the lock)
        LocalHistogram x = kept != null && index < kept.length ? kept[index] : null;
        if (x != null && x.shared() == h) {
            if ((++b.slowCalls & INSTALL_RETRY_MASK) == 0) {
                synchronized (engineLock) {
                    h.install(x);
                }
            }
            return x;
        }
        synchronized (engineLock) {
            x = new LocalHistogram(t, h);
            if (!h.reclaimed) {
                kept = b.histViews;
                if (kept == null || index >= kept.length) {
                    kept = kept == null ? new LocalHistogram[Math.max(4, index + 1)] : Arrays.copyOf(kept, Math.max(index + 1, 2 * kept.length));
                    b.histViews = kept;
                }
                kept[index] = x;
            }
            h.install(x);
            return x;
        }
    }

    /**
     * The calling thread's array for histogram {@code h}, made or grown under the lock to cover
     * bucket {@code index}; for a reclaimed {@code h}, an array that covers it and that nobody
     * reads (its records are dropped: its slot is another histogram's).
     */
    long[] histogram(Thread t, Block b, HistogramImpl h, int index) {
        synchronized (engineLock) { // excludes the collector's switch, reads and sweeps (it writes EPOCH, G_SEEN)
            if (h.reclaimed && !Broken.REUSE_HELD) { // test-only switch: REUSE_HELD writes into the slot's arrays regardless
                return HistogramCells.unread(index, h.bits());
            }
            int gen = Broken.REUSE_HELD ? registrations.histogramGen(h.hindex()) : h.gen();
            b.hists = HistogramCells.slots(b.hists, h.hindex());
            return HistogramCells.cover(b.hists, h.hindex(), index, h.bits(), gen, Threads.id(t), epoch.current());
        }
    }

    /**
     * The calling thread's own array for local views of {@code s} (the stat at {@link
     * Layout#DATA_START}), made on first use; published to the collector by the lock.
     */
    long[] localCells(Thread t, Stat s) {
        Block b = own(t);
        synchronized (engineLock) {
            if (b.views == null) {
                b.views = new HashMap<>();
            }
            long[] v = b.views.get(s.index);
            if (v == null) {
                v = CellArrays.create(Layout.DATA_START + s.limit - s.offset, Threads.id(t), epoch.current());
                b.views.put(s.index, v);
            }
            return v;
        }
    }

    /**
     * Puts a block into its slot if free or held by a terminated thread, first doubling the table
     * if the slot is a live thread's and more than half of the slots are ({@link PerThreadTable}):
     * then the spilled blocks are placed in the new table too. Engine lock held.
     *
     * @return false if a live thread holds the slot: the caller spills {@code b}
     */
    private boolean install(Block b) {
        Block[] tab = PerThreadTable.makeRoom(table, b); // under the lock: written only under it
        if (tab != table) {
            TABLE.setRelease(this, tab); // pairing TABLE
            spilled.values().removeIf(x -> x != b && PerThreadTable.place(tab, x));
        }
        return PerThreadTable.place(tab, b);
    }

    // ------------------------------------------------------------------ the collector

    /** The blocks made since the last take. Engine lock held; O(1). */
    ArrayList<Block> takeFresh() {
        ArrayList<Block> f = fresh;
        if (f.isEmpty()) {
            return new ArrayList<>(0);
        }
        fresh = new ArrayList<>();
        return f;
    }

    /** Blocks made since the last take. Engine lock held. */
    int freshCount() {
        return fresh.size();
    }

    /** The current table, for {@link #release}; no lock. Pairing TABLE. */
    Block[] current() {
        return (Block[]) TABLE.getAcquire(this);
    }

    /** Frees a dead thread's slot unless install() already gave it to another thread (a CAS; no lock). Pairing TABLE. */
    void release(Block b) {
        PerThreadTable.release(current(), b);
    }

    /** Drops dead threads from the spilled map. Engine lock held. */
    void released() {
        if (!spilled.isEmpty()) { // few: threads that collided
            spilled.values().removeIf(b -> !b.owner.isAlive());
        }
    }
}
