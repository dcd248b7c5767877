package io.crater.identity;

import io.smallrye.mutiny.Uni;
import java.util.List;

/**
 * The accounts a user belongs to, as {@code /api/v1/me} shows them. The account feature owns memberships and
 * implements it; identity, below it, only asks.
 */
public interface UserAccounts {

    /** The user's accounts, team accounts first, then by slug. */
    Uni<List<MeResource.Membership>> of(long userId);
}
