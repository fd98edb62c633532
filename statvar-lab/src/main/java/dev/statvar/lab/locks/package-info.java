/**
 * {@code statvar lab locks}: Jean-Philippe Bempel's lock contention profiler ("Measuring contention on locks", 2015) made real. A workload of threads
 * over locks with designed contention levels (none, light, heavy, read-mostly, and rare 30 ms
 * holds) runs on statvar-probes' {@code ContendedLock} and {@code ContendedReadWriteLock}; the
 * report gives, per creation site, acquisitions, the contended share, and the wait's p50/p99/max,
 * beside what JFR's {@code jdk.ThreadPark} event reports at its default 20 ms threshold (what it
 * misses), and the article's own output format. Each run is a fresh JVM.
 */
package dev.statvar.lab.locks;
