package io.crater.gpus;

import io.crater.identity.CurrentUser;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Free accelerators for anyone signed in: per model and node, and the room the caller's accounts have left. */
@Path("/api/v1/cluster/free-accelerators")
@Tag(name = "cluster")
@Produces(MediaType.APPLICATION_JSON)
@Authenticated
public class FreeAcceleratorResource {

    @Inject
    CurrentUser current;

    @Inject
    FreeAcceleratorService free;

    @GET
    @Operation(
            summary = "Free accelerators per model and node (cards, memory per card) and what each of the caller's"
                    + " accounts may still use of each model under its quota",
            description = "Counts only: no job, owner or account of anyone else")
    public Uni<FreeAcceleratorViews.FreeAccelerators> free() {
        return current.caller().flatMap(free::free);
    }
}
