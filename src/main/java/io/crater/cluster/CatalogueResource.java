package io.crater.cluster;

import io.crater.identity.CurrentUser;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The accelerator catalogue: everyone reads it; platform admins add models (by hand or from what the nodes
 * publish), change their names, memory and restriction, retire them and delete those nothing uses.
 */
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

    @Inject
    CatalogueProposals proposals;

    @GET
    @Operation(summary = "The accelerator models Crater knows, retired ones included")
    public Uni<Items<AcceleratorModel>> list() {
        return current.caller().map(c -> new Items<>(catalogue.models()));
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Add a model to the catalogue (platform admins)")
    public Uni<Response> add(CatalogueService.NewModel req) {
        return current.caller().flatMap(c -> catalogue.add(req, c)).map(CatalogueResource::created);
    }

    @PATCH
    @Path("/{key}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Change a model's display name, vendor, memory per card or restricted flag (platform admins)")
    public Uni<AcceleratorModel> update(@PathParam("key") String key, CatalogueService.UpdateModel req) {
        return current.caller().flatMap(c -> catalogue.update(key, req, c));
    }

    @POST
    @Path("/{key}/retire")
    @Operation(summary = "Retire a model: no new submissions or quota grants; running jobs go on (platform admins)")
    public Uni<AcceleratorModel> retire(@PathParam("key") String key) {
        return current.caller().flatMap(c -> catalogue.retire(key, true, c));
    }

    @POST
    @Path("/{key}/unretire")
    @Operation(summary = "Bring a retired model back (platform admins)")
    public Uni<AcceleratorModel> unretire(@PathParam("key") String key) {
        return current.caller().flatMap(c -> catalogue.retire(key, false, c));
    }

    @DELETE
    @Path("/{key}")
    @Operation(summary = "Delete a model nothing uses; 409 ModelInUse names what does (platform admins)")
    public Uni<Response> delete(@PathParam("key") String key) {
        return current.caller()
                .flatMap(c -> catalogue.delete(key, c))
                .map(v -> Response.noContent().build());
    }

    @GET
    @Path("/proposals")
    @Operation(summary = "Models the nodes publish that the catalogue lacks (platform admins)")
    public Uni<Items<CatalogueProposals.Proposal>> proposals() {
        return current.caller().map(c -> new Items<>(proposals.list(c)));
    }

    @POST
    @Path("/proposals/{key}/accept")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Add a proposed model to the catalogue, optionally renamed (platform admins)")
    public Uni<Response> accept(@PathParam("key") String key, CatalogueProposals.Accept req) {
        return current.caller().flatMap(c -> proposals.accept(key, req, c)).map(CatalogueResource::created);
    }

    private static Response created(AcceleratorModel m) {
        return Response.created(URI.create("/api/v1/accelerator-models/" + m.key()))
                .entity(m)
                .build();
    }
}
