package io.crater.job;

import io.crater.identity.CurrentUser;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** What an account's members may use, and the bandwidth caps of its jobs' pods. */
@Path("/api/v1/accounts/{slug}/features")
@Tag(name = "accounts")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
public class FeatureResource {

    @Inject
    CurrentUser current;

    @Inject
    FeatureService features;

    @GET
    @Operation(
            summary =
                    "The job kinds and features the account's members may use and its bandwidth caps (own and in force)")
    public Uni<FeatureService.AccountFeatures> get(@PathParam("slug") String slug) {
        return current.caller().flatMap(c -> features.get(slug, c));
    }

    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Set what the account's members may use and its bandwidth caps (platform admins)")
    public Uni<FeatureService.AccountFeatures> put(@PathParam("slug") String slug, FeatureService.AccountFeatures req) {
        return current.caller().flatMap(c -> features.put(slug, req, c));
    }
}
