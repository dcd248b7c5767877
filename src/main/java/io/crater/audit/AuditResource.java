package io.crater.audit;

import io.crater.identity.Caller;
import io.crater.identity.CurrentUser;
import io.crater.platform.ApiException;
import io.crater.platform.Page;
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
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The audit trail and the refused attempts, newest first, for platform admins. */
@Path("/api/v1/audit")
@Tag(name = "audit")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
public class AuditResource {

    /** One recorded change. */
    @Schema(name = "AuditEntry")
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

    @Inject
    AuditQueries queries;

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
            return Panache.withSession(() -> queries.entries(actor, action, account, from, to, cursor, limit));
        });
    }

    @GET
    @Path("/denied")
    @Operation(summary = "Refused (403) calls, newest first")
    public Uni<Page<Denied>> denied(@QueryParam("cursor") String cursor, @QueryParam("limit") Integer limit) {
        return current.caller().flatMap(c -> {
            requireAdmin(c);
            return Panache.withSession(() -> queries.denied(cursor, limit));
        });
    }

    private static void requireAdmin(Caller c) {
        if (!c.platformAdmin()) {
            throw ApiException.forbidden("NotPlatformAdmin", "only platform administrators read the audit trail");
        }
    }
}
