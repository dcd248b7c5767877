package io.crater.job;

import io.smallrye.mutiny.Uni;

/**
 * Whether an account may run jobs on a restricted accelerator model: decided by approvals, which build on jobs,
 * so jobs ask through this interface and {@code approval} answers it.
 */
public interface ModelAccess {

    /** Whether the account holds an approved access request for the model, in the caller's session. */
    Uni<Boolean> granted(long accountId, String model);
}
