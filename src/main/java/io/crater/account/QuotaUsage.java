package io.crater.account;

import io.smallrye.mutiny.Uni;
import java.util.List;

/**
 * What jobs hold of their accounts' quotas: the requests of jobs admitted and not ended, outside backfill. Jobs build
 * on accounts, so accounts ask through this interface and {@code job} answers it, in the caller's session (an
 * admission round reads it in its transaction).
 */
public interface QuotaUsage {

    /** The summed requests of one member's holding jobs for one resource, in milli-units. */
    record Held(long accountId, long userId, String resource, long milli) {}

    /** How many holding jobs a member has, and of those interactive. */
    record Count(long accountId, long userId, int jobs, int interactive) {}

    /** {@link Held} of one account's members (null: of every account's). */
    Uni<List<Held>> held(Long accountId);

    /** {@link Count} of every member with a holding job. */
    Uni<List<Count>> counts();
}
