package io.crater.job;

import io.crater.identity.Caller;
import io.crater.identity.CurrentUser;
import io.crater.platform.Page;
import io.quarkus.security.Authenticated;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.mutiny.Multi;
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
import org.jboss.resteasy.reactive.ResponseHeader;
import org.jboss.resteasy.reactive.RestStreamElementType;

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

    @Inject
    SecurityIdentity identity;

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

    /**
     * Follows a pod's log. Blocking on purpose: who may read and whether the pod exists are settled before the
     * first byte, so a refusal is a real 403/404 and not an event stream that ends at once.
     */
    @GET
    @Path("/{id}/logs/stream")
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @RestStreamElementType(MediaType.TEXT_PLAIN)
    @ResponseHeader(name = "X-Accel-Buffering", value = "no")
    @Blocking
    @Operation(
            summary = "A pod's log as it is written (Server-Sent Events, one line per event) until the container ends")
    public Multi<String> follow(@PathParam("id") String id, @QueryParam("pod") String pod) throws Throwable {
        Caller caller = new Caller(current.userOf(identity), current.clientAddress());
        return logs.follow(logs.runningPod(id, pod, caller));
    }

    @POST
    @Path("/{id}/stop")
    @Operation(summary = "Stop a job (its owner, an admin of its account, a platform admin)")
    public Uni<JobViews.JobSummary> stop(@PathParam("id") String id) {
        return current.caller().flatMap(c -> jobs.stop(id, c));
    }
}
