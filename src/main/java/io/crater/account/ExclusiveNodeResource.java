package io.crater.account;

import io.crater.cluster.ClusterViews;
import io.crater.identity.CurrentUser;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** A node made exclusive to one team account, and shared again (platform admins; docs/nodes.md). */
@Path("/api/v1/admin/nodes/{name}/exclusive")
@Tag(name = "cluster")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed("admin")
public class ExclusiveNodeResource {

    @Inject
    CurrentUser current;

    @Inject
    ExclusiveNodes exclusive;

    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Make a node exclusive to a team account: only its jobs are placed there")
    public Uni<ClusterViews.NodeView> give(@PathParam("name") String name, ExclusiveNodes.ExclusiveRequest req) {
        return current.caller().flatMap(c -> exclusive.give(name, req, c));
    }

    @DELETE
    @Operation(summary = "Share an exclusive node with every account again")
    public Uni<ClusterViews.NodeView> share(@PathParam("name") String name) {
        return current.caller().flatMap(c -> exclusive.share(name, c));
    }
}
