package dev.statvar.probes;

/**
 * Waits that an interrupt does not cut short: a probe's {@code close()} promises that its thread
 * has ended when it returns, whoever interrupts the closing thread. The interrupt status is kept
 * for the caller.
 */
final class Uninterruptibly {
    /** A blocking wait that may throw {@link InterruptedException}. */
    @FunctionalInterface
    interface Wait {
        void await() throws InterruptedException;
    }

    private Uninterruptibly() {
    }

    /** Runs {@code wait} again after each interrupt until it returns; then restores the interrupt status. */
    static void await(Wait wait) {
        boolean interrupted = false;
        while (true) {
            try {
                wait.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true; // the status is now clear, so the next await blocks again
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits until {@code t} has ended (unless it is the calling thread). */
    static void join(Thread t) {
        if (t != Thread.currentThread()) {
            await(t::join);
        }
    }
}
