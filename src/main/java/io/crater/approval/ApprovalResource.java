package io.crater.approval;

import io.crater.approval.ApprovalViews.Approval;
import io.crater.identity.CurrentUser;
import io.crater.platform.Page;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Requests for quota grants, job locks and restricted models, and their review. */
@Path("/api/v1/approvals")
@Tag(name = "approvals")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class ApprovalResource {

    @Inject
    CurrentUser current;

    @Inject
    ApprovalService approvals;

    @POST
    @Operation(summary = "Ask for a quota grant, a job lock or access to a restricted model")
    public Uni<Response> create(ApprovalViews.CreateApproval req) {
        return current.caller()
                .flatMap(c -> approvals.create(req, c))
                .map(a -> Response.status(201).entity(a).build());
    }

    @GET
    @Operation(summary = "Requests: scope=mine (what I asked for) or review (what I may decide), optionally by state")
    public Uni<Page<Approval>> list(
            @QueryParam("scope") String scope,
            @QueryParam("state") String state,
            @QueryParam("cursor") String cursor,
            @QueryParam("limit") Integer limit) {
        return current.caller().flatMap(c -> approvals.list(scope, state, cursor, limit, c));
    }

    @POST
    @Path("/{id}/approve")
    @Operation(summary = "Approve a pending request (never one's own)")
    public Uni<Approval> approve(@PathParam("id") long id, ApprovalViews.Decision body) {
        return current.caller().flatMap(c -> approvals.decide(id, "approve", body == null ? null : body.comment(), c));
    }

    @POST
    @Path("/{id}/reject")
    @Operation(summary = "Reject a pending request")
    public Uni<Approval> reject(@PathParam("id") long id, ApprovalViews.Decision body) {
        return current.caller().flatMap(c -> approvals.decide(id, "reject", body == null ? null : body.comment(), c));
    }

    @POST
    @Path("/{id}/cancel")
    @Operation(summary = "Withdraw one's own pending request")
    public Uni<Approval> cancel(@PathParam("id") long id) {
        return current.caller().flatMap(c -> approvals.decide(id, "cancel", null, c));
    }
}
