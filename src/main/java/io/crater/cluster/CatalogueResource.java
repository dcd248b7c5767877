package io.crater.cluster;

import io.crater.identity.CurrentUser;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The accelerator catalogue: everyone reads it, platform admins curate names, vendors and restrictions. */
@Path("/api/v1/accelerator-models")
@Tag(name = "cluster")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
public class CatalogueResource {

    /** A list body. */
    public record Items<T>(List<T> items) {}

    @Inject
    CurrentUser current;

    @Inject
    CatalogueService catalogue;

    @GET
    @Operation(summary = "The accelerator models Crater knows")
    public Uni<Items<AcceleratorModel>> list() {
        return current.caller().map(c -> new Items<>(catalogue.models()));
    }

    @PATCH
    @Path("/{key}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Change a model's display name, vendor or restricted flag (platform admins)")
    public Uni<AcceleratorModel> update(@PathParam("key") String key, CatalogueService.UpdateModel req) {
        return current.caller().flatMap(c -> catalogue.update(key, req, c));
    }
}
