package io.crater.account;

import io.crater.platform.CacheInvalidations;
import io.crater.platform.NotifiedCache;
import io.crater.platform.Sql;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Set;

/**
 * The accounts each user is a member of, kept until a membership or an account changes (on any replica: the tables'
 * triggers notify). Every job list of a member starts with them; with this, a member's page is one statement.
 */
@ApplicationScoped
public class MemberAccounts {

    @Inject
    CacheInvalidations caches;

    /** An account the user is a member of. */
    public record Membership(long accountId, String slug) {
        static Membership of(Object[] r) {
            return new Membership(Sql.longOf(r[0]), (String) r[1]);
        }
    }

    private NotifiedCache<Long, List<Membership>> byUser;

    @PostConstruct
    void init() {
        byUser = caches.cache(
                "member-accounts",
                Set.of("accounts", "account_members"),
                10_000,
                userId -> Sql.rows(
                                "SELECT a.id, a.slug FROM account_members m JOIN accounts a ON a.id = m.account_id"
                                        + " WHERE m.user_id = ?1 ORDER BY a.id",
                                userId)
                        .map(rows -> rows.stream().map(Membership::of).toList()));
    }

    /** The user's memberships, in ascending account id, in the caller's session. */
    public Uni<List<Membership>> of(long userId) {
        return byUser.get(userId);
    }
}
