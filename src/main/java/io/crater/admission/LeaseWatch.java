package io.crater.admission;

import java.time.Duration;
import java.time.Instant;

/**
 * The leader's own watchdog over its Lease, apart from the elector's callbacks (which fabric8 may skip: a lost
 * lease with {@code releaseOnCancel}, or renewals whose writes fail). Each read of the Lease that shows this
 * replica as the holder with a renewal still within the lease duration confirms it; leader work stops once the
 * last confirmation is older than the renew deadline, and resumes when a read confirms it again.
 */
final class LeaseWatch {

    private LeaseWatch() {}

    /**
     * Whether a read of the Lease confirms this replica as its holder at {@code now}: it names {@code identity}
     * and its renew time is less than {@code leaseDuration} ago. A lease with no renew time confirms nothing.
     */
    static boolean confirms(String holder, Instant renewed, String identity, Instant now, Duration leaseDuration) {
        return holder != null
                && holder.equals(identity)
                && renewed != null
                && now.isBefore(renewed.plus(leaseDuration));
    }

    /** Whether leader work may go on at {@code now}, given the last confirmation. */
    static boolean mayLead(Instant lastConfirmed, Instant now, Duration renewDeadline) {
        return lastConfirmed != null && now.isBefore(lastConfirmed.plus(renewDeadline));
    }
}
