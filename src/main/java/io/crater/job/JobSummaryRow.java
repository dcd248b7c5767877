package io.crater.job;

import io.crater.platform.Json;
import io.crater.platform.Sql;
import io.crater.policy.Reason;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A job as lists show it ({@link JobQueries#SUMMARY_COLUMNS}), with its owner's and account's ids and what it
 * requests; the names come from their features ({@link JobQueries#named}).
 */
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
        long accountId,
        Map<String, Long> requests) {

    /** The row without its names ({@link #account}, {@link #owner}: null), which {@link #named} adds. */
    static JobSummaryRow of(Object[] r) {
        return new JobSummaryRow(
                Sql.longOf(r[0]),
                (String) r[1],
                (String) r[2],
                (String) r[3],
                (String) r[4],
                null,
                null,
                (Boolean) r[5],
                (String) r[6],
                Sql.instant(r[7]),
                Sql.instant(r[8]),
                Sql.instant(r[9]),
                Sql.longOf(r[10]),
                Sql.longOf(r[11]),
                requests((String) r[12]));
    }

    /** The number of columns {@link #of} reads; a query may add its own after them. */
    static final int COLUMN_COUNT = 13;

    /** The requests column ({@link JobQueries#SUMMARY_COLUMNS}: a JSON object of milli-units by resource). */
    static Map<String, Long> requests(String json) {
        Map<String, Long> byResource = new TreeMap<>();
        if (json != null) {
            Json.read(json, Map.class).forEach((k, v) -> byResource.put((String) k, ((Number) v).longValue()));
        }
        return Collections.unmodifiableMap(byResource);
    }

    /** The row with its account's slug and its owner's username. */
    JobSummaryRow named(String accountSlug, String ownerName) {
        return new JobSummaryRow(
                id,
                publicId,
                name,
                kind,
                state,
                accountSlug,
                ownerName,
                borrowing,
                reasonsJson,
                createdAt,
                startedAt,
                finishedAt,
                userId,
                accountId,
                requests);
    }

    /** The reasons it is waiting (or was, before it left the queue). */
    List<Reason> reasons() {
        return reasonsJson == null ? List.of() : List.of(Json.read(reasonsJson, Reason[].class));
    }
}
