package io.crater.cluster;

import io.quarkus.security.Authenticated;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The cluster view: nodes (platform admins) and accelerator totals per model (everyone signed in). */
@Path("/api/v1/cluster")
@Tag(name = "cluster")
@Produces(MediaType.APPLICATION_JSON)
@Authenticated
public class ClusterResource {

    @Inject
    ClusterService cluster;

    @GET
    @Path("/nodes")
    @RolesAllowed("admin")
    @Operation(summary = "Nodes with capacity, allocation and accelerator model")
    public ClusterViews.Items<ClusterViews.NodeView> nodes() {
        return new ClusterViews.Items<>(cluster.nodes());
    }

    @GET
    @Path("/accelerators")
    @Operation(summary = "Per accelerator model: nodes, total, allocated and free")
    public ClusterViews.Items<ClusterViews.AcceleratorSummary> accelerators() {
        return new ClusterViews.Items<>(cluster.accelerators());
    }
}
