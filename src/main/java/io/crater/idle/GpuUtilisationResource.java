package io.crater.idle;

import io.crater.identity.CurrentUser;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** A job's accelerator utilisation, for the console's chart and its idle warning. */
@Path("/api/v1/jobs/{id}/gpu-utilisation")
@Tag(name = "jobs")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
public class GpuUtilisationResource {

    @Inject
    CurrentUser current;

    @Inject
    IdleQueries queries;

    @GET
    @Operation(
            summary =
                    "Utilisation samples per pod and accelerator since `since` (default: the idle window), and the idle decision about the job now, with its numbers")
    public Uni<IdleViews.Utilisation> get(@PathParam("id") String id, @QueryParam("since") String since) {
        return current.caller().flatMap(c -> queries.utilisation(id, since, c));
    }
}
