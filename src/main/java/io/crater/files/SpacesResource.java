package io.crater.files;

import io.crater.identity.Caller;
import io.crater.identity.CurrentUser;
import io.crater.policy.FileQuota;
import io.quarkus.security.Authenticated;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.common.annotation.Blocking;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The file spaces a caller may see, with usage and quotas; platform admins set accounts' quotas here. */
@Path("/api/v1/spaces")
@Tag(name = "files")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
public class SpacesResource {

    @Inject
    SecurityIdentity identity;

    @Inject
    CurrentUser current;

    @Inject
    SpaceQuotas quotas;

    private Caller caller() {
        return new Caller(current.userOf(identity), current.clientAddress());
    }

    @GET
    @Blocking
    @Operation(summary = "The caller's spaces (own, each account's, public) with access, usage and quota")
    public List<FileViews.SpaceView> list() {
        return quotas.visible(caller());
    }

    @PUT
    @Blocking
    @Path("/{space}/quota")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Set an account space's quota (maxBytes, maxFiles; -1 unlimited); platform admins")
    public FileQuota.Limit setQuota(@PathParam("space") String space, FileViews.SetQuota req) {
        return quotas.set(caller(), space, req, false);
    }

    @DELETE
    @Blocking
    @Path("/{space}/quota")
    @Operation(summary = "Return an account space to the default quota; platform admins")
    public FileQuota.Limit clearQuota(@PathParam("space") String space) {
        return quotas.set(caller(), space, null, true);
    }
}
