package io.crater.job;

import io.crater.platform.Sql;
import java.time.Duration;
import java.time.Instant;

/** The account a submission goes to, with its own time limits and the caller's role in it. */
record TargetRow(
        long id,
        String slug,
        String kind,
        Instant expiresAt,
        Duration interactiveDefault,
        Duration interactiveMax,
        Duration batchDefault,
        Duration batchMax,
        String role,
        Instant archivedAt) {
    static TargetRow of(Object[] r) {
        return new TargetRow(
                Sql.longOf(r[0]),
                (String) r[1],
                (String) r[2],
                Sql.instant(r[3]),
                seconds(r[4]),
                seconds(r[5]),
                seconds(r[6]),
                seconds(r[7]),
                (String) r[8],
                Sql.instant(r[9]));
    }

    private static Duration seconds(Object o) {
        return o == null ? null : Duration.ofSeconds(Sql.longOf(o));
    }
}
