/**
 * statvar's engine: not exported by the module {@code dev.statvar}, and may change in any release.
 *
 * <h2>Roles</h2>
 * <table>
 *   <caption>One class per role</caption>
 *   <tr><th>class</th><th>role</th></tr>
 *   <tr><td>{@link dev.statvar.internal.Engine}</td><td>registration and {@code collect()}'s four
 *       steps; owns the engine lock and the collect lock</td></tr>
 *   <tr><td>{@link dev.statvar.internal.Writers}</td><td>the slow half of every update path (first
 *       use, growth, cold threads, virtual threads, local views): the one writer role the handles reach</td></tr>
 *   <tr><td>{@link dev.statvar.internal.Registrations}</td><td>names, families, offsets, caps (engine lock)</td></tr>
 *   <tr><td>{@link dev.statvar.internal.ThreadTable}</td><td>finding, making and growing the calling
 *       platform thread's {@link dev.statvar.internal.Block}; one {@code lookup}</td></tr>
 *   <tr><td>{@link dev.statvar.internal.CounterImpl}, {@link dev.statvar.internal.LocalCounter}</td><td>a
 *       counter's handle (the any-thread counter path: the thread's Block, its counter array, the
 *       cell); one platform thread's view of one counter (its counter array and the cell index)</td></tr>
 *   <tr><td>{@link dev.statvar.internal.GaugeImpl}, {@link dev.statvar.internal.LocalGauge}</td><td>a
 *       gauge's handle (the any-thread gauge path: the thread's Block, its gauge array); one
 *       platform thread's view of one gauge (an array of its own)</td></tr>
 *   <tr><td>{@link dev.statvar.internal.HistogramImpl}, {@link dev.statvar.internal.LocalHistogram}</td><td>a
 *       histogram's handle and its table of per-thread views (the any-thread histogram path); one
 *       platform thread's view of one histogram, holding its array</td></tr>
 *   <tr><td>{@link dev.statvar.internal.PerThreadTable}, {@link dev.statvar.internal.PerThread}</td><td>the
 *       one per-thread table implementation, behind the thread table and each histogram's table (placing, growing, freeing a dead thread's slot); what
 *       their slots hold: an object and its owner thread</td></tr>
 *   <tr><td>{@link dev.statvar.internal.CounterCells}, {@link dev.statvar.internal.GaugeCells},
 *       {@link dev.statvar.internal.HistogramCells}, {@link dev.statvar.internal.MinMaxSlots}</td><td>the
 *       cell protocols, each writer half beside its reader half (MinMaxSlots: the per-interval
 *       min/max that gauges and histograms share)</td></tr>
 *   <tr><td>{@link dev.statvar.internal.Stripes}, {@link dev.statvar.internal.ColdCounts}</td><td>the cells
 *       shared by virtual threads and by platform threads cold for a stat; the hot/cold rule (a
 *       thread's updates of a gauge or histogram per interval before it gets its own copy)</td></tr>
 *   <tr><td>{@link dev.statvar.internal.IntervalCloser}</td><td>the collector's running totals per
 *       stat (previous, retired, all-time min/max) and closing an interval; {@code close} returns the value</td></tr>
 *   <tr><td>{@link dev.statvar.internal.Epoch}, {@link dev.statvar.internal.CellArrays},
 *       {@link dev.statvar.internal.Layout}</td><td>the interval number; making, copying and switching
 *       cell arrays (their only header writer); the cells' layout and the one cache-line constant</td></tr>
 * </table>
 *
 * <h2>Shared fields</h2>
 * Every field or cell more than one thread touches, once. "Owner": the thread a Block, a view or
 * a histogram array belongs to (or a stripe's lock holder). "Collector": the thread in
 * {@code Engine.collect()}, holding the collect lock. A pairing's name (in capitals) is what the
 * code's comments cite at each of its accesses.
 * <table>
 *   <caption>Writers, readers, memory modes, pairings and guards</caption>
 *   <tr><th>field or cell</th><th>writers (mode)</th><th>readers (mode)</th><th>pairing</th><th>guard, guarantee</th></tr>
 *   <tr><td>counter cell (a long in a thread's counter array, or in a stripe's array)</td><td>owner: plain read, {@code setOpaque} ({@code CounterCells.add});
 *       in a stripe, virtual threads: {@code getAndAdd} ({@code addShared})</td><td>collector: {@code getOpaque}
 *       ({@code CounterCells.read}); plain after DEATH</td><td>COUNT</td><td>none; a single writer per
 *       platform-thread cell, so no update is lost; an add is in the interval whose read first sees it</td></tr>
 *   <tr><td>gauge G_SUM, min/max slot cells; then G_COUNT</td><td>owner: {@code setOpaque}/{@code setRelease},
 *       then G_COUNT {@code setRelease} ({@code GaugeCells.report})</td><td>collector: G_COUNT
 *       {@code getAcquire} first ({@code readCount}), then G_SUM and the slots</td><td>GAUGE</td><td>the
 *       sum and min/max of every counted report are visible to the collector</td></tr>
 *   <tr><td>histogram sum, min/max; then the bucket</td><td>owner: {@code setOpaque}, then the bucket
 *       {@code setRelease} ({@code HistogramCells.record})</td><td>collector: buckets {@code getAcquire},
 *       then the sum ({@code readBuckets}, {@code readSum})</td><td>BUCKET</td><td>as GAUGE; count = sum of buckets</td></tr>
 *   <tr><td>EPOCH cell</td><td>{@code CellArrays.create} (plain, before publication); {@code copy}
 *       (engine lock); the collector's {@code switchEpoch} ({@code setVolatile}, engine lock)</td>
 *       <td>owner: {@code getOpaque} ({@code MinMaxSlots.update})</td><td>EPOCH</td><td>a report
 *       tags its min/max slot with the interval it read; the volatile switch precedes the collector's reads</td></tr>
 *   <tr><td>G_TAG and the min/max slots on a retag</td><td>owner: G_TAG MOVING ({@code setOpaque}),
 *       the slots and G_PLAST {@code setRelease}, G_TAG the new epoch ({@code setRelease})</td><td>collector: G_TAG
 *       {@code getAcquire}, slots {@code getOpaque}, {@code acquireFence}, G_TAG again</td><td>RETAG</td>
 *       <td>a seqlock the writer never waits on; the collector retries a bounded number of times, then
 *       reads the slots in move order and says inexact</td></tr>
 *   <tr><td>{@code Epoch.value}</td><td>collector: {@code setOpaque} ({@code advance}, engine lock)</td>
 *       <td>array makers: plain under the engine lock ({@code current}); cold threads' slow paths:
 *       {@code getOpaque} ({@code recent})</td><td>INTERVAL</td><td>a cold count's interval: one a
 *       little out of date only promotes a thread a little early</td></tr>
 *   <tr><td>G_SEEN</td><td>collector: {@code setRelease} after its reads of the slots ({@code MinMaxSlots.read});
 *       copies under the engine lock</td><td>collector (plain: its own); owner at a retag: {@code acquireFence}
 *       after its EPOCH read, then {@code getAcquire}</td><td>SEEN</td><td>a retag drops its previous slot only if
 *       the collector has read all of it (and read it before the drop); otherwise it merges it</td></tr>
 *   <tr><td>a histogram's G_COUNT ({@code HistogramCells.RECORDS})</td><td>owner (plain)</td><td>owner:
 *       numbering its records</td><td>none</td><td>owner-only</td></tr>
 *   <tr><td>{@code ThreadTable.table}, {@code HistogramImpl.table} and their slots ({@link dev.statvar.internal.PerThreadTable})</td>
 *       <td>slow paths: {@code setRelease} (engine lock: {@code install}, {@code PerThreadTable.place});
 *       collector: a dead thread's slot cleared by {@code compareAndSet} ({@code PerThreadTable.release})</td>
 *       <td>update path: {@code getAcquire} ({@code ThreadTable.lookup}, {@code HistogramImpl.record}); slow
 *       paths under the engine lock: the field plain, the slots {@code getAcquire} (the collector's CAS
 *       takes no lock)</td><td>TABLE</td><td>a thread finds only its own block or view (owner compared by reference)</td></tr>
 *   <tr><td>{@code LocalHistogram.cells}, {@code LocalHistogram.hot}</td><td>owner (plain)</td><td>owner (plain)</td><td>none</td><td>owner-only:
 *       a copy of the owner's {@code Block.hists} element (the collector reads that); hot from a {@code localView()}</td></tr>
 *   <tr><td>{@code Block.coldGauges}, {@code Block.coldHistograms} ({@code ColdCounts}), {@code Block.counterViews},
 *       {@code LocalCounter.cells}</td><td>owner (plain)</td><td>owner (plain)</td><td>none</td><td>owner-only: a
 *       view's array is the owner's {@code Block.counters}, repointed by the owner when it replaces that</td></tr>
 *   <tr><td>{@code Block.counters}</td><td>owner, holding the engine lock: {@code setRelease}
 *       ({@code publishCounters})</td><td>owner (plain: its own writes); collector: {@code getAcquire}
 *       ({@code countersAcquire}), no lock</td><td>COUNTERS</td><td>a copy holds the values at the
 *       copy, then only the copy is written: totals read by successive collects never go back</td></tr>
 *   <tr><td>{@code Block.cells}, {@code Block.views}, {@code Block.histViews}, {@code Block.hists} (array and elements)</td>
 *       <td>owner, holding the engine lock (elements of {@code hists}: {@code setRelease}); the collector's
 *       sweep nulls a removed histogram's elements of {@code hists} and {@code histViews}, under the engine lock</td><td>owner
 *       (its own writes; a {@code histViews} element is checked to be its histogram's); collector under the engine lock,
 *       or after DEATH</td><td>HISTARRAY (elements)</td>
 *       <td>the engine lock; a replaced histogram array gets H_LEN 0, so a view holding it falls to the slow path;
 *       an array of another slot generation (H_GEN) is never written for the slot's histogram nor read</td></tr>
 *   <tr><td>{@code Stripe.segments[k]}</td><td>{@code setRelease}, once (engine lock)</td><td>virtual and cold
 *       threads: {@code getAcquire}; collector under the engine lock</td><td>SEGMENT</td><td>never moved after publication</td></tr>
 *   <tr><td>a stripe segment's cards (Stripes)</td><td>stripe writers after their stores and a synchronization
 *       action (a counter's atomic add, a gauge's unlock of the stripe): {@code getVolatile}, {@code setOpaque} if clean; the collector clears dirty ones ({@code setOpaque}, engine lock),
 *       then {@code fullFence}</td><td>stripe writers ({@code getVolatile}); the collector ({@code getOpaque}, engine
 *       lock)</td><td>CARD</td><td>Dekker: the collector's read of a stat's cells sees a writer's stores, or the
 *       writer's load of the card follows the clear and it marks the card again; a clean card: cells as last read</td></tr>
 *   <tr><td>a stripe stat's collector cell ({@code Layout.STRIPE_COLLECTOR_CELLS})</td><td colspan="2">the
 *       collector (plain, engine lock)</td><td>none</td><td>the engine lock</td></tr>
 *   <tr><td>{@code Stripe.hists}</td><td>stripe-lock holders also holding the engine lock; the collector's sweep
 *       (elements to null), under the engine lock</td>
 *       <td>stripe-lock holders; collector under the engine lock</td><td>HISTARRAY</td><td>both locks; a stripe
 *       writer records only into an array of its histogram's generation (H_GEN), made under the engine lock</td></tr>
 *   <tr><td>{@code HistogramImpl.reclaimed}</td><td>collector, engine lock</td><td>slow paths, engine lock</td><td>none</td>
 *       <td>the engine lock: a reclaimed histogram's slow paths drop its records</td></tr>
 *   <tr><td>a terminated owner's cells</td><td>nobody any more</td><td>collector, plain, after
 *       {@code Thread.isAlive()} returned false</td><td>DEATH</td><td>JLS 17.4.4: {@code isAlive() == false}
 *       happens-after every action of that thread</td></tr>
 *   <tr><td>{@code StatList} array, size</td><td>registration: element, then size (volatile; engine lock)</td>
 *       <td>anyone: size (volatile), then the array</td><td>STATS</td><td>every stat below the size read is visible</td></tr>
 *   <tr><td>{@code StatList} element replaced (removal: a tombstone; a reclaimed slot's new stat)</td>
 *       <td>{@code StatList.set}: setRelease (engine lock)</td><td>anyone: {@code StatList.get}, getAcquire</td>
 *       <td>SLOT</td><td>the record read is complete (its fields, {@code Stat.seq} included)</td></tr>
 *   <tr><td>{@code Epoch}, {@code Registrations}, {@code ThreadTable}'s fresh list, spilled map, occupancy,
 *       {@code Stripes}' segment layout</td><td colspan="2">plain, engine lock</td><td>none</td><td>the engine lock</td></tr>
 *   <tr><td>{@code IntervalCloser}, {@code Engine.known}, {@code BucketCounts}</td><td colspan="2">the
 *       collector (plain)</td><td>none</td><td>the collect lock</td></tr>
 * </table>
 *
 * <h2>Policies</h2>
 * No {@code sun.misc.Unsafe}; cross-thread accesses go through {@code VarHandle}s and name their
 * mode. No update path spins or depends on {@code Thread.yield}; slow paths that may wait are
 * marked {@link dev.statvar.internal.SlowPath} and checked on the bytecode ({@code UpdatePathTest}).
 * Test-only switches that remove one synchronisation step live in {@link dev.statvar.internal.Broken}.
 */
package dev.statvar.internal;
