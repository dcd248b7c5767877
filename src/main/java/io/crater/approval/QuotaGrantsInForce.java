package io.crater.approval;

import io.crater.account.QuotaGrants;
import io.crater.platform.Sql;
import io.crater.policy.Grant;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;

/** Quota grants as approvals store them: approved requests of kind {@code quota-grant} whose end is ahead. */
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

    @Override
    public Uni<List<Granted>> inForce(Long accountId, Instant now) {
        String sql = "SELECT " + Row.COLUMNS + " FROM approvals WHERE kind = 'quota-grant' AND state = 'approved'"
                + " AND until > ?1";
        Uni<List<Object[]>> rows =
                accountId == null ? Sql.rows(sql, now) : Sql.rows(sql + " AND account_id = ?2", now, accountId);
        return rows.map(found -> found.stream().map(r -> Row.of(r).granted()).toList());
    }
}
