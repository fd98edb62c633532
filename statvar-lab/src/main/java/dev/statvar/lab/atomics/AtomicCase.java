package dev.statvar.lab.atomics;

/**
 * The five ways of incrementing one shared counter that Martin Thompson's "Adventures with AtomicLong" (2011) and "Further Adventures With CAS Instructions And Micro Benchmarking" (2013) time, each as a Java
 * loop ({@link AtomicsRunner}) and a C loop ({@code atomics.c}).
 */
enum AtomicCase {
    ATOMICLONG("AtomicLong.incrementAndGet() until the total (Thompson's 2011 TestAtomicIncrement)",
            "lock xadd (JDK 8+ intrinsic)", "lock cmpxchg: the CAS loop of the 2011 JDK's incrementAndGet, which \"Adventures with AtomicLong\" timed"),
    LOCK_ADD("VarHandle getAndAdd(1), result unused, a fixed share per thread (Thompson's run_add)",
            "lock add, if the JIT drops the unused result; else lock xadd", "lock add (__atomic_fetch_add, result unused)"),
    LOCK_XADD("VarHandle getAndAdd(1), result used, until the total (Thompson's run_xadd)",
            "lock xadd", "lock xadd (__atomic_add_fetch)"),
    CAS_BOOL("compareAndSet(v, v + 1) retry loop, re-reading v after a failure (Thompson's run_cas)",
            "lock cmpxchg", "lock cmpxchg (__sync_bool_compare_and_swap)"),
    CAS_VAL("compareAndExchange(v, v + 1) retry loop, retrying with the witness (Thompson's 2013 run_cas2, corrected)",
            "lock cmpxchg", "lock cmpxchg (__sync_val_compare_and_swap)"),
    CAS_VAL_SEED("Thompson's 2013 run_cas2 as written: compareAndExchange(v, v + 1) until the witness equals v + 1, so each"
            + " increment is confirmed by one more, failing, CAS (and a thread may increment several times in one pass)",
            "lock cmpxchg", "lock cmpxchg (__sync_val_compare_and_swap)");

    final String description;
    final String javaInstruction;
    final String nativeInstruction;

    AtomicCase(String description, String javaInstruction, String nativeInstruction) {
        this.description = description;
        this.javaInstruction = javaInstruction;
        this.nativeInstruction = nativeInstruction;
    }

    /** Whether each thread learns the value it set, so that fairness and run lengths can be sampled. */
    boolean seesValues() {
        return this != LOCK_ADD;
    }

    /** Whether failed attempts are counted (the CAS retry loops; the native ATOMICLONG is one too). */
    boolean retries(String impl) {
        return this == CAS_BOOL || this == CAS_VAL || this == CAS_VAL_SEED || (this == ATOMICLONG && impl.equals("native"));
    }

    /** The method holding this case's loop in {@link AtomicsRunner} (for the JIT's assembly). */
    String javaMethod() {
        return switch (this) {
            case ATOMICLONG -> "loopAtomicLong";
            case LOCK_ADD -> "loopLockAdd";
            case LOCK_XADD -> "loopLockXadd";
            case CAS_BOOL -> "loopCasBool";
            case CAS_VAL -> "loopCasVal";
            case CAS_VAL_SEED -> "loopCasValSeed";
        };
    }

    /** The function holding this case's loop in atomics.c. */
    String nativeFunction() {
        return "run_" + name().toLowerCase(java.util.Locale.ROOT);
    }
}
