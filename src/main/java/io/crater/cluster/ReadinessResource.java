package io.crater.cluster;

import io.crater.identity.CurrentUser;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The cluster's readiness report (platform admins): the last one, or a new one taken now. */
@Path("/api/v1/cluster/readiness")
@Tag(name = "cluster")
@Produces(MediaType.APPLICATION_JSON)
@Authenticated
public class ReadinessResource {

    @Inject
    CurrentUser current;

    @Inject
    ReadinessService readiness;

    @GET
    @Operation(summary = "The last readiness report of the cluster: what it lacks that Crater needs")
    public Uni<ReadinessViews.Last> last() {
        return current.caller().map(c -> new ReadinessViews.Last(ReadinessViews.of(readiness.last(c))));
    }

    @POST
    @Path("/check")
    @Operation(summary = "Checks the cluster now and returns the new readiness report")
    public Uni<ReadinessViews.Report> check() {
        return current.caller().flatMap(readiness::check).map(ReadinessViews::of);
    }
}
