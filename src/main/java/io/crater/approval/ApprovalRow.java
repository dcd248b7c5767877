package io.crater.approval;

import io.crater.platform.Sql;
import java.time.Instant;

/** An approval as {@link ApprovalService#COLUMNS} reads it, with its account's slug and the people's names. */
record ApprovalRow(
        long id,
        String kind,
        String state,
        String account,
        String requesterUsername,
        String requesterName,
        String resource,
        Long amountMilli,
        Instant until,
        String model,
        String job,
        String reason,
        String reviewerUsername,
        String reviewerName,
        String comment,
        Instant createdAt,
        Instant decidedAt,
        long requesterId,
        long accountId) {

    static ApprovalRow of(Object[] r) {
        return new ApprovalRow(
                Sql.longOf(r[0]),
                (String) r[1],
                (String) r[2],
                (String) r[3],
                (String) r[4],
                (String) r[5],
                (String) r[6],
                r[7] == null ? null : Sql.longOf(r[7]),
                Sql.instant(r[8]),
                (String) r[9],
                (String) r[10],
                (String) r[11],
                (String) r[12],
                (String) r[13],
                (String) r[14],
                Sql.instant(r[15]),
                Sql.instant(r[16]),
                Sql.longOf(r[17]),
                Sql.longOf(r[18]));
    }
}
