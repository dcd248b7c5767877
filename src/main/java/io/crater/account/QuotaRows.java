package io.crater.account;

import io.crater.platform.Sql;
import io.crater.policy.Grant;
import io.crater.policy.QuotaLimit;
import java.time.Instant;

/** The rows {@link QuotaService} reads, each with the columns it selects and their conversions. */
final class QuotaRows {

    private QuotaRows() {}

    /** A quota line as stored in {@code quotas}. */
    record Limit(long accountId, String resource, long guaranteed, long max) {
        static final String COLUMNS = "account_id, resource, guaranteed_milli, max_milli";

        static Limit of(Object[] r) {
            return new Limit(Sql.longOf(r[0]), (String) r[1], Sql.longOf(r[2]), Sql.longOf(r[3]));
        }

        QuotaLimit limit() {
            return new QuotaLimit(resource, guaranteed, max);
        }
    }

    /** An approved quota grant (an {@code approvals} row of kind quota-grant). */
    record GrantRow(long accountId, String resource, long amount, Instant decidedAt, Instant until) {
        static final String COLUMNS = "account_id, resource, amount_milli, decided_at, until";

        static GrantRow of(Object[] r) {
            return new GrantRow(
                    Sql.longOf(r[0]), (String) r[1], Sql.longOf(r[2]), Sql.instant(r[3]), Sql.instant(r[4]));
        }

        Grant grant() {
            return new Grant(resource, amount, decidedAt, until);
        }
    }

    /** An amount of one resource: a sum of requests, or a member limit's maximum. */
    record Amount(String resource, long milli) {
        static Amount of(Object[] r) {
            return new Amount((String) r[0], Sql.longOf(r[1]));
        }
    }

    /** Summed requests of one account's active jobs for one resource. */
    record AccountSum(long accountId, String resource, long milli) {
        static AccountSum of(Object[] r) {
            return new AccountSum(Sql.longOf(r[0]), (String) r[1], Sql.longOf(r[2]));
        }
    }

    /** A {@code member_limits} row without its resources. */
    record StoredLimit(long id, Integer maxRunningJobs, Integer maxInteractiveSessions) {
        static final String COLUMNS = "id, max_running_jobs, max_interactive_sessions";

        static StoredLimit of(Object[] r) {
            return new StoredLimit(Sql.longOf(r[0]), Sql.intOrNull(r[1]), Sql.intOrNull(r[2]));
        }
    }

    /** Summed requests of one member's active jobs for one resource. */
    record Usage(long accountId, long userId, String resource, long milli) {
        static Usage of(Object[] r) {
            return new Usage(Sql.longOf(r[0]), Sql.longOf(r[1]), (String) r[2], Sql.longOf(r[3]));
        }

        String member() {
            return accountId + "/" + userId;
        }
    }

    /** How many active jobs a member has, and of those interactive. */
    record MemberCount(long accountId, long userId, int jobs, int interactive) {
        static MemberCount of(Object[] r) {
            return new MemberCount(Sql.longOf(r[0]), Sql.longOf(r[1]), (int) Sql.longOf(r[2]), (int) Sql.longOf(r[3]));
        }

        String member() {
            return accountId + "/" + userId;
        }
    }

    /** A {@code member_limits} row (no user: the account's default) joined with one of its resources, if any. */
    record MemberLimit(
            long id,
            long accountId,
            Long userId,
            Integer maxRunningJobs,
            Integer maxInteractiveSessions,
            String resource,
            Long maxMilli) {
        static final String COLUMNS =
                "m.id, m.account_id, m.user_id, m.max_running_jobs, m.max_interactive_sessions, r.resource, r.max_milli";

        static MemberLimit of(Object[] r) {
            return new MemberLimit(
                    Sql.longOf(r[0]),
                    Sql.longOf(r[1]),
                    r[2] == null ? null : Sql.longOf(r[2]),
                    Sql.intOrNull(r[3]),
                    Sql.intOrNull(r[4]),
                    (String) r[5],
                    r[6] == null ? null : Sql.longOf(r[6]));
        }
    }
}
