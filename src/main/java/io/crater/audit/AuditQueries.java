package io.crater.audit;

import io.crater.platform.Json;
import io.crater.platform.Page;
import io.crater.platform.Sql;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** The audit feature's reads of its own tables, newest first, a page at a time. */
@ApplicationScoped
class AuditQueries {

    /** Audit entries matching the filters (null or blank: any). */
    Uni<Page<AuditResource.Entry>> entries(
            String actor, String action, String account, Instant from, Instant to, String cursor, Integer limit) {
        int n = Page.limit(limit);
        StringBuilder sql = new StringBuilder("SELECT " + EntryRows.COLUMNS + " FROM audit_log WHERE id < ?1");
        List<Object> params = new ArrayList<>(List.of(before(cursor)));
        filter(sql, params, "actor = ?", actor);
        filter(sql, params, "action = ?", action);
        filter(sql, params, "account = ?", account);
        filter(sql, params, "at >= ?", from);
        filter(sql, params, "at < ?", to);
        sql.append(" ORDER BY id DESC LIMIT ").append(n + 1);
        return Sql.rows(sql.toString(), params.toArray()).map(rows -> {
            List<AuditResource.Entry> items =
                    rows.stream().limit(n).map(EntryRows::of).toList();
            return Page.of(items, rows.size() > n, i -> i.id());
        });
    }

    /** Refused calls. */
    Uni<Page<AuditResource.Denied>> denied(String cursor, Integer limit) {
        int n = Page.limit(limit);
        return Sql.rows(
                        "SELECT " + DeniedRows.COLUMNS + " FROM denied_attempts WHERE id < ?1"
                                + " ORDER BY id DESC LIMIT " + (n + 1),
                        before(cursor))
                .map(rows -> {
                    List<AuditResource.Denied> items =
                            rows.stream().limit(n).map(DeniedRows::of).toList();
                    return Page.of(items, rows.size() > n, i -> i.id());
                });
    }

    /** The columns of an audit entry and how they read. */
    private static final class EntryRows {
        static final String COLUMNS = "id, at, actor, account, action, target_type, target_id, CAST(before AS text),"
                + " CAST(after AS text), result, client_address";

        static AuditResource.Entry of(Object[] r) {
            return new AuditResource.Entry(
                    Sql.longOf(r[0]),
                    Sql.instant(r[1]),
                    (String) r[2],
                    (String) r[3],
                    (String) r[4],
                    (String) r[5],
                    (String) r[6],
                    Json.read((String) r[7]),
                    Json.read((String) r[8]),
                    (String) r[9],
                    (String) r[10]);
        }
    }

    /** The columns of a denied attempt and how they read. */
    private static final class DeniedRows {
        static final String COLUMNS = "id, at, actor, method, path, code, client_address";

        static AuditResource.Denied of(Object[] r) {
            return new AuditResource.Denied(
                    Sql.longOf(r[0]),
                    Sql.instant(r[1]),
                    (String) r[2],
                    (String) r[3],
                    (String) r[4],
                    (String) r[5],
                    (String) r[6]);
        }
    }

    private static long before(String cursor) {
        return cursor == null || cursor.isBlank() ? Long.MAX_VALUE : Page.afterId(cursor);
    }

    private static void filter(StringBuilder sql, List<Object> params, String clause, Object value) {
        if (value == null || (value instanceof String s && s.isBlank())) {
            return;
        }
        params.add(value);
        sql.append(" AND ").append(clause).append(params.size());
    }
}
