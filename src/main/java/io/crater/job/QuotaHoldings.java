package io.crater.job;

import io.crater.account.QuotaUsage;
import io.crater.platform.Sql;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/** What jobs hold of their accounts' quotas: the jobs admitted and not ended, outside backfill. */
@ApplicationScoped
public class QuotaHoldings implements QuotaUsage {

    private static final String HOLDING =
            " NOT j.backfill AND j.state IN ('Admitted', 'Pending', 'Running', 'Stopping')";

    /** A row of {@link #held}. */
    record HeldRow(long accountId, long userId, String resource, long milli) {
        static HeldRow of(Object[] r) {
            return new HeldRow(Sql.longOf(r[0]), Sql.longOf(r[1]), (String) r[2], Sql.longOf(r[3]));
        }
    }

    /** A row of {@link #counts}. */
    record CountRow(long accountId, long userId, long jobs, long interactive) {
        static CountRow of(Object[] r) {
            return new CountRow(Sql.longOf(r[0]), Sql.longOf(r[1]), Sql.longOf(r[2]), Sql.longOf(r[3]));
        }
    }

    @Override
    public Uni<List<Held>> held(Long accountId) {
        String sql = "SELECT j.account_id, j.user_id, r.resource, sum(r.milli) FROM jobs j JOIN job_requests r"
                + " ON r.job_id = j.id WHERE" + HOLDING;
        String group = " GROUP BY j.account_id, j.user_id, r.resource";
        Uni<List<Object[]>> rows =
                accountId == null ? Sql.rows(sql + group) : Sql.rows(sql + " AND j.account_id = ?1" + group, accountId);
        return rows.map(found -> found.stream()
                .map(HeldRow::of)
                .map(h -> new Held(h.accountId(), h.userId(), h.resource(), h.milli()))
                .toList());
    }

    @Override
    public Uni<List<Count>> counts() {
        return Sql.rows("SELECT j.account_id, j.user_id, count(*), count(*) FILTER (WHERE j.interactive)"
                        + " FROM jobs j WHERE" + HOLDING + " GROUP BY j.account_id, j.user_id")
                .map(found -> found.stream()
                        .map(CountRow::of)
                        .map(c -> new Count(c.accountId(), c.userId(), (int) c.jobs(), (int) c.interactive()))
                        .toList());
    }
}
