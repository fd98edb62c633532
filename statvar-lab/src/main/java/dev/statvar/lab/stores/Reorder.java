package dev.statvar.lab.stores;

/**
 * Jean-Philippe Bempel's reordering example ("Volatile and memory barriers", 2015): six static int fields assigned {@code i << 1 .. i << 6} in
 * order, once all plain ({@link Plain}) and once with the first and the last volatile
 * ({@link Volatiles}). The study reads the order of the stores in the JIT's code of
 * {@code assign}. Threading: only the thread of the listing's JVM calls them; the volatile
 * stores pair with no load (the example is about the order the JIT emits, as in the article).
 */
final class Reorder {
    private Reorder() {
    }

    static final class Plain {
        static int field1;
        static int field2;
        static int field3;
        static int field4;
        static int field5;
        static int field6;

        private Plain() {
        }

        static void assign(int i) {
            field1 = i << 1;
            field2 = i << 2;
            field3 = i << 3;
            field4 = i << 4;
            field5 = i << 5;
            field6 = i << 6;
        }
    }

    static final class Volatiles {
        static volatile int field1; // volatile store; pairs with no load (the JIT's order is the point)
        static int field2;
        static int field3;
        static int field4;
        static int field5;
        static volatile int field6; // as field1

        private Volatiles() {
        }

        static void assign(int i) {
            field1 = i << 1;
            field2 = i << 2;
            field3 = i << 3;
            field4 = i << 4;
            field5 = i << 5;
            field6 = i << 6;
        }
    }

    /** Calls both {@code assign}s often enough for C2 to compile them. */
    static void exercise() {
        for (int i = 0; i < 200_000; i++) {
            Plain.assign(i);
            Volatiles.assign(i);
        }
    }
}
