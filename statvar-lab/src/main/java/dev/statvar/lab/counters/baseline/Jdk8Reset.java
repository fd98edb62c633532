package dev.statvar.lab.counters.baseline;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * JDK 8's {@code LongAdder.sumThenReset} and {@code LongAccumulator.getThenReset}, run on this
 * JDK's own adder: since JDK 9 both swap each cell atomically ({@code getAndSet}), so the lost
 * update the article found cannot happen with them; JDK 8 read a cell, then wrote the identity
 * into it, two volatile accesses with a window between them where an add is lost:
 *
 * <pre>
 * long sum = base; base = 0L;                       // JDK 8, java.util.concurrent.atomic.LongAdder
 * for (Cell a : cells) if (a != null) { sum += a.value; a.value = 0L; }
 * </pre>
 *
 * The fields are Striped64's ({@code base}, {@code cells}, {@code Cell.value}: all volatile, as
 * in JDK 8), read and written here with the same volatile accesses JDK 8 used. Reaching them needs
 * {@code --add-opens java.base/java.util.concurrent.atomic=ALL-UNNAMED}, which the lab's forked
 * JVMs and its tests pass.
 */
public final class Jdk8Reset {
    /** The JVM option this class needs. */
    public static final String ADD_OPENS = "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED";
    private static final VarHandle BASE;
    private static final VarHandle CELLS;
    private static final VarHandle VALUE;

    static {
        try {
            Class<?> striped = Class.forName("java.util.concurrent.atomic.Striped64");
            Class<?> cell = Class.forName("java.util.concurrent.atomic.Striped64$Cell");
            MethodHandles.Lookup s = MethodHandles.privateLookupIn(striped, MethodHandles.lookup());
            BASE = s.findVarHandle(striped, "base", long.class);
            CELLS = s.findVarHandle(striped, "cells", cell.arrayType());
            VALUE = MethodHandles.privateLookupIn(cell, MethodHandles.lookup()).findVarHandle(cell, "value", long.class);
        } catch (ReflectiveOperationException | IllegalAccessError e) {
            throw new IllegalStateException("JDK 8's reset needs the JVM option " + ADD_OPENS + " (the lab's forked runs pass it)", e);
        }
    }

    private Jdk8Reset() {
    }

    /** JDK 8's {@code LongAdder.sumThenReset()}. */
    static long sumThenReset(LongAdder adder) {
        return thenReset(adder, 0L);
    }

    /** JDK 8's {@code LongAccumulator.getThenReset()} for a sum (the lab's accumulator: {@code left + right}, identity 0). */
    static long getThenReset(LongAccumulator sum) {
        return thenReset(sum, 0L);
    }

    private static long thenReset(Number striped, long identity) {
        Object[] as = (Object[]) CELLS.getVolatile(striped);
        long sum = (long) BASE.getVolatile(striped);
        BASE.setVolatile(striped, identity);
        if (as != null) {
            for (Object a : as) {
                if (a != null) {
                    sum += (long) VALUE.getVolatile(a); // JDK 8: a.value (volatile read) ...
                    VALUE.setVolatile(a, identity);     // ... then a.value = 0L: an add between the two is lost
                }
            }
        }
        return sum;
    }
}
