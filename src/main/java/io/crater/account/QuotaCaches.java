package io.crater.account;

import io.crater.account.QuotaRows.Amount;
import io.crater.account.QuotaRows.Limit;
import io.crater.account.QuotaRows.StoredLimit;
import io.crater.platform.CacheInvalidations;
import io.crater.platform.NotifiedCache;
import io.crater.platform.Sql;
import io.crater.policy.MemberLimits;
import io.crater.policy.QuotaLimit;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * An account's quota lines and a member's effective limits as a submission reads them, kept in memory until a write
 * to {@code quotas}, or to {@code member_limits} or {@code member_limit_resources}, invalidates them on every replica
 * ({@link NotifiedCache}). Usage and grants are not here: they change with jobs and approvals.
 */
@ApplicationScoped
public class QuotaCaches {

    @Inject
    CacheInvalidations caches;

    /** A member of an account. */
    record Member(long accountId, long userId) {}

    private NotifiedCache<Long, Map<String, QuotaLimit>> lines;
    private NotifiedCache<Member, MemberLimits> memberLimits;

    @PostConstruct
    void init() {
        lines = caches.cache("quota-lines", Set.of("quotas"), 10_000, QuotaCaches::readLimits);
        memberLimits = caches.cache(
                "member-limits",
                Set.of("member_limits", "member_limit_resources"),
                10_000,
                m -> readStored(m.accountId(), null)
                        .flatMap(d -> readStored(m.accountId(), m.userId()).map(o -> MemberLimits.effective(d, o))));
    }

    /** The account's quota per resource (no grants, no usage), sorted by resource. */
    Uni<Map<String, QuotaLimit>> limits(long accountId) {
        return lines.get(accountId);
    }

    /** The limits in effect for a member: the account default with the member's override on top. */
    Uni<MemberLimits> effectiveLimits(long accountId, long userId) {
        return memberLimits.get(new Member(accountId, userId));
    }

    private static Uni<Map<String, QuotaLimit>> readLimits(long accountId) {
        return Sql.rows("SELECT " + Limit.COLUMNS + " FROM quotas WHERE account_id = ?1", accountId)
                .map(rows -> {
                    Map<String, QuotaLimit> out = new TreeMap<>();
                    rows.stream().map(Limit::of).forEach(l -> out.put(l.resource(), l.limit()));
                    return Collections.unmodifiableMap(out);
                });
    }

    /** The account default ({@code userId} null) or the member's own override, as stored. */
    static Uni<MemberLimits> readStored(long accountId, Long userId) {
        String where = userId == null ? "user_id IS NULL" : "user_id = ?2";
        Object[] params = userId == null ? new Object[] {accountId} : new Object[] {accountId, userId};
        return Sql.rows(
                        "SELECT " + StoredLimit.COLUMNS + " FROM member_limits WHERE account_id = ?1 AND " + where,
                        params)
                .flatMap(rows -> {
                    if (rows.isEmpty()) {
                        return Uni.createFrom().item(MemberLimits.NONE);
                    }
                    StoredLimit l = StoredLimit.of(rows.get(0));
                    return Sql.rows(
                                    "SELECT resource, max_milli FROM member_limit_resources WHERE limit_id = ?1",
                                    l.id())
                            .map(res -> {
                                Map<String, Long> m = new TreeMap<>();
                                res.stream().map(Amount::of).forEach(a -> m.put(a.resource(), a.milli()));
                                return new MemberLimits(m, l.maxRunningJobs(), l.maxInteractiveSessions());
                            });
                });
    }
}
