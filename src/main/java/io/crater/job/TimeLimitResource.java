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

/** An account's job time limits. */
@Path("/api/v1/accounts/{slug}/time-limits")
@Tag(name = "accounts")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
public class TimeLimitResource {

    @Inject
    CurrentUser current;

    @Inject
    TimeLimitService limits;

    @GET
    @Operation(summary = "The account's default and longest job run times (its own, and those in effect)")
    public Uni<TimeLimitService.TimeLimits> get(@PathParam("slug") String slug) {
        return current.caller().flatMap(c -> limits.get(slug, c));
    }

    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Set the account's job time limits within the platform's (platform admins)")
    public Uni<TimeLimitService.TimeLimits> put(@PathParam("slug") String slug, TimeLimitService.TimeLimits req) {
        return current.caller().flatMap(c -> limits.put(slug, req, c));
    }
}
