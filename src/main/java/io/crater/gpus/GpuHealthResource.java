package io.crater.gpus;

import io.crater.identity.CurrentUser;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** A node's GPU health for platform admins (docs/nodes.md, "Quarantine"). */
@Path("/api/v1/admin/nodes/{name}/health")
@Tag(name = "cluster")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed("admin")
public class GpuHealthResource {

    @Inject
    CurrentUser current;

    @Inject
    GpuHealthService health;

    @GET
    @Operation(summary = "A node's GPU health: suspect or quarantined, why, and the evidence (XIDs, ECC errors, jobs)")
    public Uni<GpuHealthService.HealthView> health(@PathParam("name") String name) {
        return current.caller().flatMap(c -> health.health(name, c));
    }

    @POST
    @Path("/clear")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Clear a node's GPU quarantine with a reason: healthy again, its quarantine cordon lifted")
    public Uni<GpuHealthService.HealthView> clear(@PathParam("name") String name, GpuHealthService.ClearRequest req) {
        return current.caller().flatMap(c -> health.clear(name, req, c));
    }
}
