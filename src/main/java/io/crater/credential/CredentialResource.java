package io.crater.credential;

import io.crater.identity.CurrentUser;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The signed-in user's credentials: write-only secrets jobs reference by name. */
@Path("/api/v1/me/credentials")
@Tag(name = "credentials")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class CredentialResource {

    @Inject
    CurrentUser current;

    @Inject
    CredentialService credentials;

    @GET
    @Operation(summary = "One's credentials (names, kinds and times; never a value)")
    public Uni<CredentialViews.Items> list() {
        return current.caller().flatMap(credentials::list).map(CredentialViews.Items::new);
    }

    @GET
    @Path("/{name}")
    @Operation(summary = "One of one's credentials (never its value)")
    public Uni<CredentialViews.Credential> get(@PathParam("name") String name) {
        return current.caller().flatMap(c -> credentials.get(name, c));
    }

    @POST
    @Operation(summary = "Store a credential")
    public Uni<Response> create(CredentialViews.CreateCredential req) {
        return current.caller()
                .flatMap(c -> credentials.create(req, c))
                .map(v -> Response.status(201).entity(v).build());
    }

    @PUT
    @Path("/{name}")
    @Operation(summary = "Replace a credential's value")
    public Uni<CredentialViews.Credential> replace(
            @PathParam("name") String name, CredentialViews.ReplaceCredential req) {
        return current.caller().flatMap(c -> credentials.replace(name, req, c));
    }

    @DELETE
    @Path("/{name}")
    @Operation(summary = "Delete a credential")
    public Uni<Response> delete(@PathParam("name") String name) {
        return current.caller()
                .flatMap(c -> credentials.delete(name, c))
                .map(v -> Response.noContent().build());
    }
}
