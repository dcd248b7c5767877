package io.crater.images;

import io.crater.identity.CurrentUser;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Image builds: images built by a job in the cluster and put in the catalogue (docs/assets.md, "Builds"). */
@Path("/api/v1/images/builds")
@Tag(name = "images")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class ImageBuildResource {

    @Inject
    CurrentUser current;

    @Inject
    ImageBuildService builds;

    @GET
    @Operation(summary = "The caller's image builds, newest first (every build for a platform admin with all=true)")
    public Uni<ImageBuildViews.BuildPage> list(
            @QueryParam("all") boolean all, @QueryParam("cursor") String cursor, @QueryParam("limit") Integer limit) {
        return current.caller().flatMap(c -> builds.list(c, all, cursor, limit));
    }

    @GET
    @Path("/{id}")
    @Operation(summary = "One image build with its job's state and, when it ended, its result")
    public Uni<ImageBuildViews.Build> get(@PathParam("id") String id) {
        return current.caller().flatMap(c -> builds.get(id, c));
    }

    @POST
    @Operation(summary = "Start an image build from a base and packages or from a Dockerfile, as a job")
    public Uni<Response> create(ImageBuildViews.CreateBuild req, @HeaderParam("X-Crater-Account") String account) {
        return current.caller()
                .flatMap(c -> builds.create(req, account, c))
                .map(v -> Response.status(201).entity(v).build());
    }

    @POST
    @Path("/{id}/stop")
    @Operation(summary = "Stop an image build (its job)")
    public Uni<ImageBuildViews.Build> stop(@PathParam("id") String id) {
        return current.caller().flatMap(c -> builds.stop(id, c));
    }
}
