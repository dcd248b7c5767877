package io.crater.job;

import io.crater.platform.Sql;
import java.time.Instant;

/**
 * A template at one of its versions as {@link TemplateService#SELECT} reads it; the slug of the account it is shared
 * with and its author's username come from their features ({@link #named}).
 */
record TemplateRow(
        long id,
        String publicId,
        boolean builtin,
        String visibility,
        Long accountId,
        int version,
        Instant updatedAt,
        String name,
        String description,
        String kind,
        String parametersJson,
        String specJson,
        Long ownerId,
        String account,
        String owner) {

    /** The row without its names ({@link #account}, {@link #owner}: null). */
    static TemplateRow of(Object[] r) {
        return new TemplateRow(
                Sql.longOf(r[0]),
                (String) r[1],
                (Boolean) r[2],
                (String) r[3],
                r[4] == null ? null : Sql.longOf(r[4]),
                ((Number) r[5]).intValue(),
                Sql.instant(r[6]),
                (String) r[7],
                (String) r[8],
                (String) r[9],
                (String) r[10],
                (String) r[11],
                r[12] == null ? null : Sql.longOf(r[12]),
                null,
                null);
    }

    /** The row with the slug of the account it is shared with and its author's username. */
    TemplateRow named(String accountSlug, String ownerName) {
        return new TemplateRow(
                id,
                publicId,
                builtin,
                visibility,
                accountId,
                version,
                updatedAt,
                name,
                description,
                kind,
                parametersJson,
                specJson,
                ownerId,
                accountSlug,
                ownerName);
    }

    /** Whether the user wrote it. */
    boolean ownedBy(long userId) {
        return ownerId != null && ownerId == userId;
    }
}
