/**
 * Jean-Philippe Bempel's "Volatile and memory barriers" and "PrintAssembly output explained!" (2015): what each kind of
 * store costs and which instruction the JIT emits for it, {@code ./statvar lab stores}.
 *
 * <p><b>Protocol</b>: six kinds of store ({@link dev.statvar.lab.stores.StoreKind}: plain,
 * opaque, release, volatile, getAndSet, plain + fullFence) each in a store-only loop and a
 * store-then-load loop ({@link dev.statvar.lab.stores.StoreLoops}), at 1 thread and with a second
 * thread spinning on {@code getOpaque} of the written field; statvar's {@code Counter.add},
 * {@code Gauge.report} and {@code Histogram.record} in their own loops at 1 thread. Each kind runs
 * in a fresh JVM ({@link dev.statvar.lab.stores.StoreRunner}): per cell warm-up runs, then
 * measured runs of a fixed time in calls of 10,000 stores; ns per store = elapsed / stores, the
 * median run reported. A separate JVM prints the C2 code of every loop and of Bempel's
 * reordering example ({@link dev.statvar.lab.stores.Reorder}) with
 * {@code -XX:CompileCommand=print} ({@link dev.statvar.lab.stores.Listings}): read by hsdis if a
 * working plugin loads, else HotSpot's hex decoded by objdump ({@link dev.statvar.lab.stores.MachCode}),
 * annotated by shape ({@link dev.statvar.lab.stores.Annotator}, heuristics), its barriers found
 * ({@link dev.statvar.lab.stores.Barriers}) and checked against the kind: volatile, getAndSet and
 * fence must have one, plain, opaque, release and statvar's update paths none; a run where that
 * does not hold is flagged and exits 1. The reordering example's store order is read from the
 * values stored ({@link dev.statvar.lab.stores.StoreOrder}).
 *
 * <p><b>Outputs</b>: the console report ({@link dev.statvar.lab.stores.StoresReport}) with Bempel's
 * claims classified ({@link dev.statvar.lab.stores.ArticleClaims}), {@code stores.csv} (every
 * run), {@code stores.json} ({@code "study": "stores"}, {@code cells} keyed by kind, loop and
 * threads; {@link dev.statvar.lab.stores.StoresData}), {@code stores-listings.txt}, and the tables
 * for docs/LAB.md ({@link dev.statvar.lab.stores.StoresDoc}).
 */
package dev.statvar.lab.stores;
