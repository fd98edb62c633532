package dev.statvar.lab.counters.baseline;

import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;

/**
 * Article section "Compound counters": a counter made of thread-local views, parameterised by the
 * class of the view ({@link TrivialCounter}, {@link VolatileCounter}, {@link SimpleCounter},
 * {@link AtomicCounter}, ...); {@link #getAndReset()} resets every view and adds their values.
 *
 * <p>Demonstrates that not sharing variables between threads removes most of the cost. Each
 * thread must call {@link #getThreadLocalView()} once and use only its view. Its own value (for
 * direct {@link #add(long)}) is synchronised. Views are never removed (the article skips this).
 *
 * <p>Known bugs: those of the view class, minus the client-client races (one client per view).
 * Over {@link TrivialCounter} and {@link VolatileCounter} it still loses counts and misses resets
 * (the server's reset races the client's add); over {@link SimpleCounter} and
 * {@link AtomicCounter} it is exact. Over {@link LazyCounter} with direct retrieval it loses the
 * updates that land in a value object after the server read it (article section "Indirect
 * counters").
 *
 * <p>Not {@code final} (the article writes {@code final} but later extends it in
 * {@link FastAtomicCounter}).
 */
public class CompoundCounter extends ServerCounter {
    private ArrayList<ServerCounter> views = new ArrayList<ServerCounter>();
    private Class<? extends ServerCounter> clazz;
    private long localValue = 0;

    public CompoundCounter(Class<? extends ServerCounter> clazz) {
        this.clazz = clazz;
    }

    @Override
    public synchronized Counter getThreadLocalView() {
        try {
            ServerCounter view = clazz.getDeclaredConstructor().newInstance();
            views.add(view);
            return view;
        } catch (InstantiationException | IllegalAccessException | InvocationTargetException
                | NoSuchMethodException e) {
            throw new RuntimeException(e);
        }
    }

    @Override
    public synchronized void add(long increment) {
        localValue += increment;
    }

    @Override
    public synchronized long getAndReset() {
        long sum = localValue;
        localValue = 0;
        for (ServerCounter view : views) {
            sum += view.getAndReset();
        }
        return sum;
    }
}
