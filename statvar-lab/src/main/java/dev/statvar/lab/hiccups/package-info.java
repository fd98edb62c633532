/**
 * {@code statvar lab hiccups}: what statvar-probes' {@code HiccupMeter} sees of the platform's
 * pauses. The meter runs through known disturbances (none, CPU oversubscription, full GCs of a
 * large live set, thread dumps of many threads), each in a fresh JVM, beside JFR's own account of
 * the JVM's pauses (GC pauses and safepoint operations); the check is that the meter saw the
 * longest pause JFR reports.
 */
package dev.statvar.lab.hiccups;
