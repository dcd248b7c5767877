package io.crater.job;

import io.crater.platform.Sql;
import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * How long jobs waited for admission, for usage reports: per group, the jobs admitted in a span with their mean and
 * 90th-percentile wait from submission to admission.
 */
public final class JobWaits {

    private JobWaits() {}

    /** One group's waits: {@code key} as the report groups ({@code ""}, a user or account id, a day or a month). */
    public record Group(String key, long jobs, double meanSeconds, double p90Seconds) {

        /** A row of {@code key, count, mean seconds, p90 seconds}. */
        static Group of(Object[] r) {
            return new Group(
                    (String) r[0],
                    Sql.longOf(r[1]),
                    round(((Number) r[2]).doubleValue()),
                    round(((Number) r[3]).doubleValue()));
        }
    }

    /**
     * The waits of jobs admitted in [from, to), of {@code account} (null: every account) and {@code user} (null:
     * every member), grouped by {@code by}: {@code user}, {@code account}, {@code day} or {@code month} (in
     * {@code zone}), anything else one group {@code ""}. In the caller's session.
     */
    public static Uni<List<Group>> of(Long account, Long user, Instant from, Instant to, String by, ZoneId zone) {
        String key = switch (by) {
            case "user" -> "CAST(user_id AS text)";
            case "account" -> "CAST(account_id AS text)";
            case "day" -> "to_char(admitted_at AT TIME ZONE '" + zone.getId() + "', 'YYYY-MM-DD')";
            case "month" -> "to_char(admitted_at AT TIME ZONE '" + zone.getId() + "', 'YYYY-MM')";
            default -> "''";
        };
        List<Object> params = new ArrayList<>(List.of(from, to));
        StringBuilder who = new StringBuilder();
        if (account != null) {
            params.add(account);
            who.append(" AND account_id = ?").append(params.size());
        }
        if (user != null) {
            params.add(user);
            who.append(" AND user_id = ?").append(params.size());
        }
        return Sql.rows(
                        "SELECT " + key + " AS k, count(*), avg(w), percentile_cont(0.9) WITHIN GROUP (ORDER BY w)"
                                + " FROM (SELECT *, EXTRACT(EPOCH FROM (admitted_at - created_at)) AS w FROM jobs"
                                + " WHERE admitted_at >= CAST(?1 AS timestamptz) AND admitted_at < CAST(?2 AS timestamptz)"
                                + who + ") j GROUP BY k ORDER BY k",
                        params.toArray())
                .map(rows -> rows.stream().map(Group::of).toList());
    }

    private static double round(double seconds) {
        return Math.round(seconds * 10) / 10.0;
    }
}
