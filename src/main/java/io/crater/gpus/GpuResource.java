package io.crater.gpus;

import io.crater.identity.CurrentUser;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The cluster's GPUs: per node each card with its readings and holder, per model allocation and free cards. */
@Path("/api/v1/cluster/gpus")
@Tag(name = "cluster")
@Produces(MediaType.APPLICATION_JSON)
@Authenticated
public class GpuResource {

    @Inject
    CurrentUser current;

    @Inject
    GpuService gpus;

    @GET
    @Operation(
            summary = "GPUs per node with utilisation, memory, power, temperature and holder; per model allocated,"
                    + " free and mean utilisation",
            description = "minFree=N&model=M keeps the nodes with at least N free cards of model M")
    public Uni<GpuViews.Overview> overview(@QueryParam("minFree") String minFree, @QueryParam("model") String model) {
        return current.caller().flatMap(c -> gpus.overview(c, minFree, model));
    }
}
