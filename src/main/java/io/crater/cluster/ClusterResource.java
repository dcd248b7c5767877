package io.crater.cluster;

import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The cluster view: nodes (platform admins) and accelerator totals per model (everyone signed in). The methods
 * return {@link Uni} so they run on the event loop like every API endpoint: request filters and token checks
 * read the database reactively, which is only allowed there.
 */
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
    public Uni<ClusterViews.Items<ClusterViews.NodeView>> nodes() {
        return Uni.createFrom().item(() -> new ClusterViews.Items<>(cluster.nodes()));
    }

    @GET
    @Path("/accelerators")
    @Operation(summary = "Per accelerator model: nodes, total, allocated and free")
    public Uni<ClusterViews.Items<ClusterViews.AcceleratorSummary>> accelerators() {
        return Uni.createFrom().item(() -> new ClusterViews.Items<>(cluster.accelerators()));
    }
}
