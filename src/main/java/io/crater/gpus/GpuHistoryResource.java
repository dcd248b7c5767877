package io.crater.gpus;

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

/** The cluster's GPUs over time: per model and hour allocated, measured and used against the cards now. */
@Path("/api/v1/cluster/gpu-history")
@Tag(name = "cluster")
@Produces(MediaType.APPLICATION_JSON)
@Authenticated
public class GpuHistoryResource {

    @Inject
    GpuHistoryService history;

    @GET
    @Operation(
            summary = "Per accelerator model and hour: mean GPUs allocated, measured and used, efficiency, and the"
                    + " model's cards now, summed over every account",
            description = "hours=N (1 to 720, default 48) hours ending with the current one, which is partial")
    public Uni<GpuHistoryViews.History> history(@QueryParam("hours") String hours) {
        return history.history(hours);
    }
}
