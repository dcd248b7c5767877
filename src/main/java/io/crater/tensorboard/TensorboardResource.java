package io.crater.tensorboard;

import io.crater.identity.CurrentUser;
import io.crater.interactive.AppOpenResource;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** TensorBoard panels: a person's log folders shown by a TensorBoard server that runs as a job, on its app origin. */
@Path("/api/v1/tensorboards")
@Tag(name = "tensorboards")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class TensorboardResource {

    @Inject
    CurrentUser current;

    @Inject
    TensorboardService panels;

    @Inject
    AppOpenResource apps;

    @GET
    @Operation(summary = "The caller's TensorBoard panels, newest first")
    public Uni<TensorboardViews.TensorboardList> list() {
        return current.caller().flatMap(panels::list);
    }

    @GET
    @Path("/{id}")
    @Operation(summary = "One of the caller's panels")
    public Uni<TensorboardViews.Tensorboard> get(@PathParam("id") String id) {
        return current.caller().flatMap(c -> panels.get(id, c));
    }

    @POST
    @Operation(
            summary =
                    "Make a panel over one to eight log folders (a space's folder or a job's working directory) and start its server as a job in the current account (X-Crater-Account)")
    public Uni<Response> create(
            TensorboardViews.CreateTensorboard req, @HeaderParam("X-Crater-Account") String account) {
        return current.caller()
                .flatMap(c -> panels.create(req, account, c))
                .map(v -> Response.status(201).entity(v).build());
    }

    @POST
    @Path("/{id}/stop")
    @Operation(summary = "Stop a panel's server (its folders stay)")
    public Uni<TensorboardViews.Tensorboard> stop(@PathParam("id") String id) {
        return current.caller().flatMap(c -> panels.stop(id, c));
    }

    @POST
    @Path("/{id}/start")
    @Operation(summary = "Start a stopped panel's server again, as a new job")
    public Uni<TensorboardViews.Tensorboard> start(@PathParam("id") String id) {
        return current.caller().flatMap(c -> panels.start(id, c));
    }

    @POST
    @Path("/{id}/open")
    @Operation(summary = "A one-time URL into the panel on its server job's app origin, as the job's open gives")
    public Uni<AppOpenResource.Opened> open(@PathParam("id") String id) {
        return current.caller().flatMap(c -> panels.runningJob(id, c)).flatMap(job -> apps.open(job, null, false));
    }

    @DELETE
    @Path("/{id}")
    @Operation(summary = "Delete a panel, stopping its server; the log folders are never touched")
    public Uni<Response> delete(@PathParam("id") String id) {
        return current.caller()
                .flatMap(c -> panels.delete(id, c))
                .map(v -> Response.noContent().build());
    }
}
