package io.crater.identity;

import io.smallrye.mutiny.Uni;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The accounts a user belongs to, as {@code /api/v1/me} shows them, and accounts' slugs (a user's default
 * account). The account feature owns accounts and memberships and implements it; identity, below it, only asks.
 */
public interface UserAccounts {

    /** The user's accounts, team accounts first, then by slug. */
    Uni<List<MeResource.Membership>> of(long userId);

    /** The slugs of accounts by id (unknown ids are left out), in the caller's session. */
    Uni<Map<Long, String>> slugs(Collection<Long> accountIds);

    /** The ids of the team accounts, not archived, with these slugs (others are left out), in the caller's session. */
    Uni<Map<String, Long>> activeTeams(Collection<String> slugs);
}
