package io.crater.job;

import io.crater.platform.Sql;
import java.time.Instant;

/** A template at one of its versions as {@link TemplateService#SELECT} reads it, with the slug of the account it is shared with and its author. */
record TemplateRow(
        long id,
        String publicId,
        boolean builtin,
        String visibility,
        String account,
        String owner,
        int version,
        Instant updatedAt,
        String name,
        String description,
        String kind,
        String parametersJson,
        String specJson,
        Long ownerId) {

    static TemplateRow of(Object[] r) {
        return new TemplateRow(
                Sql.longOf(r[0]),
                (String) r[1],
                (Boolean) r[2],
                (String) r[3],
                (String) r[4],
                (String) r[5],
                ((Number) r[6]).intValue(),
                Sql.instant(r[7]),
                (String) r[8],
                (String) r[9],
                (String) r[10],
                (String) r[11],
                (String) r[12],
                r[13] == null ? null : Sql.longOf(r[13]));
    }

    /** Whether the user wrote it. */
    boolean ownedBy(long userId) {
        return ownerId != null && ownerId == userId;
    }
}
