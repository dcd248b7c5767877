package io.crater.downloads;

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
import java.net.URI;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Datasets and models downloaded from a model hub into a file space, each run as a job of kind download. */
@Path("/api/v1/assets/downloads")
@Tag(name = "assets")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class DownloadResource {

    @Inject
    CurrentUser current;

    @Inject
    DownloadService downloads;

    @Inject
    DownloadActions actions;

    @GET
    @Operation(summary = "The downloads the caller sees, newest first (mine=true: only their own)")
    public Uni<DownloadViews.DownloadPage> list(@QueryParam("mine") boolean mine, @QueryParam("limit") Integer limit) {
        return current.caller().flatMap(c -> downloads.list(c, mine, limit));
    }

    @GET
    @Path("/{id}")
    @Operation(summary = "One download with its progress")
    public Uni<DownloadViews.Download> get(@PathParam("id") String id) {
        return current.caller().flatMap(c -> downloads.get(id, c));
    }

    @POST
    @Operation(
            summary = "Download a dataset or model from a hub: 201 with a new download, 200 with an earlier one of the"
                    + " same repository, commit and files")
    public Uni<Response> create(DownloadViews.CreateDownload req, @HeaderParam("X-Crater-Account") String account) {
        return current.caller()
                .flatMap(c -> downloads.create(req, account, c))
                .map(a -> Response.status(a.created() ? 201 : 200)
                        .location(URI.create(
                                "/api/v1/assets/downloads/" + a.download().id()))
                        .entity(a.download())
                        .build());
    }

    @POST
    @Path("/{id}/pause")
    @Operation(summary = "Stop a running download's job, keeping its files")
    public Uni<DownloadViews.Download> pause(@PathParam("id") String id) {
        return current.caller().flatMap(c -> actions.pause(id, c));
    }

    @POST
    @Path("/{id}/resume")
    @Operation(summary = "Continue a paused download with a new job")
    public Uni<DownloadViews.Download> resume(@PathParam("id") String id) {
        return current.caller().flatMap(c -> actions.resume(id, c));
    }

    @POST
    @Path("/{id}/retry")
    @Operation(summary = "Start a failed download again, optionally from another address of the hub")
    public Uni<DownloadViews.Download> retry(@PathParam("id") String id, DownloadViews.RetryDownload req) {
        return current.caller().flatMap(c -> actions.retry(id, req, c));
    }
}
