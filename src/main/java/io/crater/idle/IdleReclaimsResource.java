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

/** What idle reclamation took back in an account. */
@Path("/api/v1/accounts/{slug}/idle-reclaims")
@Tag(name = "accounts")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
public class IdleReclaimsResource {

    @Inject
    CurrentUser current;

    @Inject
    IdleQueries queries;

    @GET
    @Operation(
            summary =
                    "Interactive jobs of the account stopped for idle accelerators since `since`: sums per member (stops, accelerator-hours freed and held idle) and the latest stops (account admins, platform admins)")
    public Uni<IdleViews.Reclaims> get(@PathParam("slug") String slug, @QueryParam("since") String since) {
        return current.caller().flatMap(c -> queries.reclaims(slug, since, c));
    }
}
