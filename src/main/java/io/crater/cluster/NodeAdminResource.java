package io.crater.cluster;

import io.crater.identity.CurrentUser;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Node administration for platform admins (docs/nodes.md): a node's detail; cordon, uncordon, drain, labels and
 * taints.
 */
@Path("/api/v1/admin/nodes/{name}")
@Tag(name = "cluster")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed("admin")
public class NodeAdminResource {

    @Inject
    CurrentUser current;

    @Inject
    NodeAdminService nodes;

    @Inject
    NodeDetailService detail;

    @GET
    @Operation(
            summary = "One node: its conditions, pods, Crater jobs with owners and accounts, and the cluster's events"
                    + " about it")
    public Uni<NodeDetailViews.NodeDetail> detail(@PathParam("name") String name) {
        return current.caller().flatMap(c -> detail.detail(name, c));
    }

    @POST
    @Path("/cordon")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Cordon a node with a reason: no new pods; waiting jobs it could hold name it")
    public Uni<ClusterViews.NodeView> cordon(@PathParam("name") String name, NodeAdminService.CordonRequest req) {
        return current.caller().flatMap(c -> nodes.cordon(name, req, c));
    }

    @POST
    @Path("/uncordon")
    @Operation(summary = "Uncordon a node: it takes pods again")
    public Uni<ClusterViews.NodeView> uncordon(@PathParam("name") String name) {
        return current.caller().flatMap(c -> nodes.uncordon(name, c));
    }

    @POST
    @Path("/drain")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(
            summary = "Cordon a node and evict its pods through the Eviction API; Crater's jobs there stop with"
                    + " NodeDrained")
    public Uni<NodeAdminService.DrainResult> drain(@PathParam("name") String name, NodeAdminService.CordonRequest req) {
        return current.caller().flatMap(c -> nodes.drain(name, req, c));
    }

    @PATCH
    @Path("/labels")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Set and remove a node's labels")
    public Uni<ClusterViews.NodeView> labels(@PathParam("name") String name, NodeAdminService.LabelEdit req) {
        return current.caller().flatMap(c -> nodes.labels(name, req, c));
    }

    @PATCH
    @Path("/taints")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Add (or replace, by key and effect) and remove a node's taints")
    public Uni<ClusterViews.NodeView> taints(@PathParam("name") String name, NodeAdminService.TaintEdit req) {
        return current.caller().flatMap(c -> nodes.taints(name, req, c));
    }
}
