package io.crater.audit;

import io.crater.identity.Caller;
import io.crater.identity.CurrentUser;
import io.crater.platform.ApiException;
import io.crater.platform.Json;
import io.crater.platform.Page;
import io.crater.platform.Sql;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The audit trail and the refused attempts, newest first, for platform admins. */
@Path("/api/v1/audit")
@Tag(name = "audit")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
public class AuditResource {

    /** One recorded change. */
    public record Entry(
            long id,
            Instant at,
            String actor,
            String account,
            String action,
            String targetType,
            String targetId,
            Object before,
            Object after,
            String result,
            String clientAddress) {}

    /** One refused call. */
    public record Denied(
            long id, Instant at, String actor, String method, String path, String code, String clientAddress) {}

    @Inject
    CurrentUser current;

    @GET
    @Operation(summary = "Audit entries filtered by actor, action, account and time")
    public Uni<Page<Entry>> list(
            @QueryParam("actor") String actor,
            @QueryParam("action") String action,
            @QueryParam("account") String account,
            @QueryParam("from") Instant from,
            @QueryParam("to") Instant to,
            @QueryParam("cursor") String cursor,
            @QueryParam("limit") Integer limit) {
        return current.caller().flatMap(c -> {
            requireAdmin(c);
            int n = Page.limit(limit);
            StringBuilder sql = new StringBuilder(
                    "SELECT id, at, actor, account, action, target_type, target_id, CAST(before AS text), CAST(after AS text),"
                            + " result, client_address FROM audit_log WHERE id < ?1");
            List<Object> params = new ArrayList<>(List.of(before(cursor)));
            filter(sql, params, "actor = ?", actor);
            filter(sql, params, "action = ?", action);
            filter(sql, params, "account = ?", account);
            filter(sql, params, "at >= ?", from);
            filter(sql, params, "at < ?", to);
            sql.append(" ORDER BY id DESC LIMIT ").append(n + 1);
            return Panache.withSession(() -> Sql.rows(sql.toString(), params.toArray()))
                    .map(rows -> {
                        List<Entry> items = rows.stream()
                                .limit(n)
                                .map(r -> new Entry(
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
                                        (String) r[10]))
                                .toList();
                        return Page.of(items, rows.size() > n, i -> i.id());
                    });
        });
    }

    @GET
    @Path("/denied")
    @Operation(summary = "Refused (403) calls, newest first")
    public Uni<Page<Denied>> denied(@QueryParam("cursor") String cursor, @QueryParam("limit") Integer limit) {
        return current.caller().flatMap(c -> {
            requireAdmin(c);
            int n = Page.limit(limit);
            return Panache.withSession(() -> Sql.rows(
                            "SELECT id, at, actor, method, path, code, client_address FROM denied_attempts WHERE id < ?1"
                                    + " ORDER BY id DESC LIMIT " + (n + 1),
                            before(cursor)))
                    .map(rows -> {
                        List<Denied> items = rows.stream()
                                .limit(n)
                                .map(r -> new Denied(
                                        Sql.longOf(r[0]),
                                        Sql.instant(r[1]),
                                        (String) r[2],
                                        (String) r[3],
                                        (String) r[4],
                                        (String) r[5],
                                        (String) r[6]))
                                .toList();
                        return Page.of(items, rows.size() > n, i -> i.id());
                    });
        });
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

    private static void requireAdmin(Caller c) {
        if (!c.platformAdmin()) {
            throw ApiException.forbidden("NotPlatformAdmin", "only platform administrators read the audit trail");
        }
    }
}
