package io.crater.approval;

import io.crater.platform.Sql;
import java.time.Instant;

/**
 * An approval as {@link ApprovalService#COLUMNS} reads it; its account's slug and the people's names come from their
 * features.
 */
record ApprovalRow(
        long id,
        String kind,
        String state,
        long accountId,
        long requesterId,
        Long reviewerId,
        String resource,
        Long amountMilli,
        Instant until,
        String model,
        String job,
        String reason,
        String comment,
        Instant createdAt,
        Instant decidedAt) {

    static ApprovalRow of(Object[] r) {
        return new ApprovalRow(
                Sql.longOf(r[0]),
                (String) r[1],
                (String) r[2],
                Sql.longOf(r[3]),
                Sql.longOf(r[4]),
                r[5] == null ? null : Sql.longOf(r[5]),
                (String) r[6],
                r[7] == null ? null : Sql.longOf(r[7]),
                Sql.instant(r[8]),
                (String) r[9],
                (String) r[10],
                (String) r[11],
                (String) r[12],
                Sql.instant(r[13]),
                Sql.instant(r[14]));
    }
}
