package io.crater.platform;

/**
 * Whether this replica holds the leader's Lease. Singleton loops (admission, idle reclamation, the directory sync)
 * run only where it answers true; features below admission ask through this interface, which admission implements.
 */
public interface Leadership {

    /** Whether this replica leads now. */
    boolean leading();
}
