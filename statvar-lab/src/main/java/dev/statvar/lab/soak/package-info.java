/**
 * {@code ./statvar lab soak}: statvar itself, not an article, under thread churn, virtual threads, a
 * collector and concurrent scrapes; every count must be accounted for (lost = 0) and the heap
 * bounded. Outputs: a progress line per interval and a verdict.
 */
package dev.statvar.lab.soak;
