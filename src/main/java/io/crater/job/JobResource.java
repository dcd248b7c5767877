package io.crater.job;

import io.crater.identity.CurrentUser;
import io.crater.platform.Page;
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

/** Jobs: submit (or dry-run), list, read, stop. */
@Path("/api/v1/jobs")
@Tag(name = "jobs")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
public class JobResource {

    @Inject
    CurrentUser current;

    @Inject
    JobService jobs;

    @Inject
    JobLogs logs;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(
            summary =
                    "Submit a job to the current account (X-Crater-Account); dryRun=true returns the decision and manifests only")
    public Uni<Response> submit(
            JobViews.SubmitJob req,
            @QueryParam("dryRun") boolean dryRun,
            @HeaderParam("X-Crater-Account") String account) {
        return current.caller()
                .flatMap(c -> jobs.submit(req, account, dryRun, c))
                .map(o -> Response.status(dryRun ? 200 : 201).entity(o).build());
    }

    @GET
    @Operation(summary = "Jobs of the caller's accounts (all for platform admins), newest first, by account and state")
    public Uni<Page<JobViews.JobSummary>> list(
            @QueryParam("account") String account,
            @QueryParam("state") String state,
            @QueryParam("cursor") String cursor,
            @QueryParam("limit") Integer limit) {
        return current.caller().flatMap(c -> jobs.list(c, account, state, cursor, limit));
    }

    @GET
    @Path("/{id}")
    @Operation(summary = "A job with its spec, requests, reasons and state history")
    public Uni<JobViews.JobDetail> get(@PathParam("id") String id) {
        return current.caller().flatMap(c -> jobs.get(id, c));
    }

    @GET
    @Path("/{id}/logs")
    @Produces(MediaType.TEXT_PLAIN)
    @Operation(
            summary =
                    "The last lines of a pod's log (the job's main pod by default); from the archive once the pods are gone")
    public Uni<String> logs(
            @PathParam("id") String id, @QueryParam("pod") String pod, @QueryParam("tailLines") Integer tailLines) {
        return current.caller().flatMap(c -> logs.text(id, pod, tailLines, c));
    }

    @POST
    @Path("/{id}/stop")
    @Operation(summary = "Stop a job (its owner, an admin of its account, a platform admin)")
    public Uni<JobViews.JobSummary> stop(@PathParam("id") String id) {
        return current.caller().flatMap(c -> jobs.stop(id, c));
    }
}
