package io.crater.account;

import io.crater.platform.Sql;
import java.time.Instant;

/** An account as stored. */
record AccountRow(long id, String slug, String name, String kind, int gid, Instant expiresAt, Instant archivedAt) {

    static final String COLUMNS = "a.id, a.slug, a.name, a.kind, a.gid, a.expires_at, a.archived_at";

    static AccountRow of(Object[] r) {
        return new AccountRow(
                Sql.longOf(r[0]),
                (String) r[1],
                (String) r[2],
                (String) r[3],
                ((Number) r[4]).intValue(),
                Sql.instant(r[5]),
                Sql.instant(r[6]));
    }

    boolean archived() {
        return archivedAt != null;
    }

    boolean personal() {
        return "personal".equals(kind);
    }
}
