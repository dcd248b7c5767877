package io.crater.account;

import io.crater.platform.Sql;
import java.time.Instant;

/** An account as stored. */
record AccountRow(long id, String slug, String name, String kind, int gid, Instant expiresAt) {

    static final String COLUMNS = "a.id, a.slug, a.name, a.kind, a.gid, a.expires_at";

    static AccountRow of(Object[] r) {
        return new AccountRow(
                Sql.longOf(r[0]),
                (String) r[1],
                (String) r[2],
                (String) r[3],
                ((Number) r[4]).intValue(),
                Sql.instant(r[5]));
    }

    boolean personal() {
        return "personal".equals(kind);
    }
}
