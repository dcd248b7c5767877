package io.crater.platform;

import io.smallrye.mutiny.Uni;

/**
 * Whether this replica holds the leader's Lease. Singleton loops (admission, idle reclamation, GPU health, the Volcano
 * Queue sync, the directory sync) run only where it answers true; features below admission ask through this
 * interface, which admission implements.
 */
public interface Leadership {

    /** Whether this replica leads now. */
    boolean leading();

    /**
     * The epoch fence for a leader loop's writes, to be the first statement of its transaction: fails with {@link
     * Fenced} unless this replica leads and its epoch is still the current one, and holds the epoch's row {@code FOR
     * SHARE} to the end of the transaction, so a replica taking over (which moves the epoch) waits for the writes
     * of the one before it and no write of a deposed leader lands after.
     */
    Uni<Void> fenced();

    /** Runs {@code action} on this replica each time it starts to lead (on a thread of admission's). */
    void whenLeading(Runnable action);

    /** This replica's epoch is no longer the current one, or it does not lead. */
    final class Fenced extends RuntimeException {
        public Fenced() {
            super("not the leader, or its epoch is no longer current", null, false, false);
        }

        /** Whether {@code e} or its cause is a {@link Fenced}. */
        public static boolean in(Throwable e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof Fenced) {
                    return true;
                }
            }
            return false;
        }
    }
}
