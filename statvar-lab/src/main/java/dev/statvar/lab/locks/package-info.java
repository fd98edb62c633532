/**
 * {@code statvar lab locks}: seed 003's lock contention profiler made real. A workload of threads
 * over locks with designed contention levels (none, light, heavy, read-mostly, and rare 30 ms
 * holds) runs on statvar-probes' {@code ContendedLock} and {@code ContendedReadWriteLock}; the
 * report gives, per creation site, acquisitions, the contended share, and the wait's p50/p99/max,
 * beside what JFR's {@code jdk.ThreadPark} event reports at its default 20 ms threshold (what it
 * misses), and the seed's own output format. Each run is a fresh JVM.
 */
package dev.statvar.lab.locks;
