package io.crater.account;

import io.crater.policy.Grant;
import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.List;

/**
 * The quota grants in force. Approvals decide them and build on accounts, so accounts ask through this interface
 * and {@code approval} answers it, in the caller's session (an admission round reads them in its transaction).
 */
public interface QuotaGrants {

    /** A grant of one account. */
    record Granted(long accountId, Grant grant) {}

    /** The approved grants not ended at {@code now}, of one account (null: of every account). */
    Uni<List<Granted>> inForce(Long accountId, Instant now);
}
