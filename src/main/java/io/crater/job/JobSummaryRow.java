package io.crater.job;

import io.crater.platform.Json;
import io.crater.platform.Sql;
import io.crater.policy.Reason;
import java.time.Instant;
import java.util.List;

/** A job as lists show it ({@link JobQueries#SUMMARY_COLUMNS}), with its owner's and account's ids. */
record JobSummaryRow(
        long id,
        String publicId,
        String name,
        String kind,
        String state,
        String account,
        String owner,
        boolean borrowing,
        String reasonsJson,
        Instant createdAt,
        Instant startedAt,
        Instant finishedAt,
        long userId,
        long accountId) {

    static JobSummaryRow of(Object[] r) {
        return new JobSummaryRow(
                Sql.longOf(r[0]),
                (String) r[1],
                (String) r[2],
                (String) r[3],
                (String) r[4],
                (String) r[5],
                (String) r[6],
                (Boolean) r[7],
                (String) r[8],
                Sql.instant(r[9]),
                Sql.instant(r[10]),
                Sql.instant(r[11]),
                Sql.longOf(r[12]),
                Sql.longOf(r[13]));
    }

    /** The reasons it is waiting (or was, before it left the queue). */
    List<Reason> reasons() {
        return reasonsJson == null ? List.of() : List.of(Json.read(reasonsJson, Reason[].class));
    }
}
