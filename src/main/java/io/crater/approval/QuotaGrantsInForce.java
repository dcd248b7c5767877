package io.crater.approval;

import io.crater.account.QuotaGrants;
import io.crater.platform.CacheInvalidations;
import io.crater.platform.NotifiedCache;
import io.crater.platform.Sql;
import io.crater.policy.Grant;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * Quota grants as approvals store them: approved requests of kind {@code quota-grant} whose end is ahead. One
 * account's are kept in memory until a write to {@code approvals} invalidates them on every replica ({@link
 * NotifiedCache}); those that end meanwhile are left out at each read.
 */
@ApplicationScoped
public class QuotaGrantsInForce implements QuotaGrants {

    /** One approved grant. */
    record Row(long accountId, String resource, long amount, Instant decidedAt, Instant until) {
        static final String COLUMNS = "account_id, resource, amount_milli, decided_at, until";

        static Row of(Object[] r) {
            return new Row(Sql.longOf(r[0]), (String) r[1], Sql.longOf(r[2]), Sql.instant(r[3]), Sql.instant(r[4]));
        }

        Granted granted() {
            return new Granted(accountId, new Grant(resource, amount, decidedAt, until));
        }
    }

    /** An account's grants not ended at {@code at}. */
    private record Loaded(Instant at, List<Granted> grants) {}

    @Inject
    CacheInvalidations caches;

    @Inject
    Clock clock;

    private NotifiedCache<Long, Loaded> byAccount;

    @PostConstruct
    void init() {
        byAccount = caches.cache("quota-grants", Set.of("approvals"), 10_000, accountId -> {
            Instant at = clock.instant();
            return read(accountId, at).map(found -> new Loaded(at, found));
        });
    }

    @Override
    public Uni<List<Granted>> inForce(Long accountId, Instant now) {
        if (accountId == null) {
            return read(null, now);
        }
        return byAccount
                .get(accountId)
                .flatMap(loaded -> now.isBefore(loaded.at())
                        // Asked for an earlier moment than the one remembered: grants ended in between are not in
                        // memory.
                        ? read(accountId, now)
                        : Uni.createFrom()
                                .item(loaded.grants().stream()
                                        .filter(g -> g.grant().end().isAfter(now))
                                        .toList()));
    }

    private static Uni<List<Granted>> read(Long accountId, Instant now) {
        String sql = "SELECT " + Row.COLUMNS + " FROM approvals WHERE kind = 'quota-grant' AND state = 'approved'"
                + " AND until > ?1";
        Uni<List<Object[]>> rows =
                accountId == null ? Sql.rows(sql, now) : Sql.rows(sql + " AND account_id = ?2", now, accountId);
        return rows.map(found -> found.stream().map(r -> Row.of(r).granted()).toList());
    }
}
