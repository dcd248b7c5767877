package io.crater.job;

import io.crater.identity.Caller;
import io.crater.identity.CurrentUser;
import io.crater.platform.ApiException;
import io.crater.platform.Json;
import io.crater.platform.Page;
import io.quarkus.security.Authenticated;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.mutiny.Multi;
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
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.ResponseHeader;
import org.jboss.resteasy.reactive.RestStreamElementType;

/** Jobs: submit (JSON or YAML, or dry-run), list, read, manifests, stop, resubmit, delete, save as template. */
@Path("/api/v1/jobs")
@Tag(name = "jobs")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
public class JobResource {

    @Inject
    CurrentUser current;

    @Inject
    JobStops stops;

    @Inject
    JobObjects objects;

    @Inject
    JobService jobs;

    @Inject
    JobQueries queries;

    @Inject
    WaitService waits;

    @Inject
    JobLogs logs;

    @Inject
    SecurityIdentity identity;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(
            summary =
                    "Submit a job (a full spec, or a template with parameter values) to the current account (X-Crater-Account); dryRun=true returns the decision and manifests only")
    @APIResponse(
            responseCode = "201",
            description = "The job, queued",
            content =
                    @Content(
                            mediaType = "application/json",
                            schema = @Schema(implementation = JobViews.JobSummary.class)))
    @APIResponse(
            responseCode = "200",
            description = "With dryRun=true: what admission would decide, and the manifests; with a replayed"
                    + " Idempotency-Key: the job it made",
            content =
                    @Content(mediaType = "application/json", schema = @Schema(implementation = JobViews.DryRun.class)))
    public Uni<Response> submit(
            JobViews.SubmitJob req,
            @QueryParam("dryRun") boolean dryRun,
            @HeaderParam("X-Crater-Account") String account,
            @HeaderParam("Idempotency-Key") String idempotencyKey) {
        return current.caller()
                .flatMap(c -> jobs.submit(req, account, dryRun, idempotencyKey, c))
                .map(o -> o instanceof JobService.Replayed r
                        ? Response.ok(r.job())
                                .header("Idempotent-Replayed", "true")
                                .build()
                        : Response.status(dryRun ? 200 : 201).entity(o).build());
    }

    @POST
    @Consumes({"application/yaml", "application/x-yaml", "text/yaml"})
    @Operation(summary = "Submit a job written as YAML (the same fields as JSON; unknown fields are refused)")
    public Uni<Response> submitYaml(
            String yaml,
            @QueryParam("dryRun") boolean dryRun,
            @HeaderParam("X-Crater-Account") String account,
            @HeaderParam("Idempotency-Key") String idempotencyKey) {
        JobViews.SubmitJob req;
        try {
            req = yaml == null || yaml.isBlank() ? null : Json.readYaml(yaml, JobViews.SubmitJob.class);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("InvalidYaml", "the YAML is not a job spec: " + e.getMessage(), null);
        }
        return submit(req, dryRun, account, idempotencyKey);
    }

    @GET
    @Operation(
            summary =
                    "Jobs of the caller's accounts (all for platform admins), newest first (sort=created for oldest first), by account, state, kind, accelerator model, owner (or mine=true) and submission time")
    public Uni<Page<JobViews.JobSummary>> list(
            @QueryParam("account") String account,
            @QueryParam("state") String state,
            @QueryParam("kind") String kind,
            @QueryParam("model") String model,
            @QueryParam("owner") String owner,
            @QueryParam("mine") boolean mine,
            @QueryParam("since") String since,
            @QueryParam("until") String until,
            @QueryParam("sort") String sort,
            @QueryParam("cursor") String cursor,
            @QueryParam("limit") Integer limit) {
        return current.caller()
                .flatMap(c -> queries.list(
                        c,
                        new JobQueries.Filter(
                                account, state, kind, model, owner, mine, since, until, sort, cursor, limit)));
    }

    @GET
    @Path("/{id}")
    @Operation(
            summary =
                    "A job with its spec, template, state history, pods and their placement, Kubernetes events, how its containers ended, and what the caller may do")
    public Uni<JobViews.JobDetail> get(@PathParam("id") String id) {
        return current.caller().flatMap(c -> queries.detail(id, c));
    }

    @GET
    @Path("/{id}/manifests")
    @Operation(summary = "The Kubernetes objects the job becomes, as YAML (Secret values withheld)")
    public Uni<JobViews.Manifests> manifests(@PathParam("id") String id) {
        return current.caller().flatMap(c -> objects.manifests(id, c));
    }

    @POST
    @Path("/{id}/resubmit")
    @Operation(
            summary =
                    "A new job with the same spec (or with the changes given, e.g. a suggestion's) in the same account, owned by the caller, linked to this one and admitted against the current quota; replace=true also stops this one while it waits")
    public Uni<Response> resubmit(@PathParam("id") String id, JobViews.Resubmit req) {
        return current.caller()
                .flatMap(c -> jobs.resubmit(id, req, c))
                .map(s -> Response.status(201).entity(s).build());
    }

    @GET
    @Path("/{id}/wait")
    @Operation(
            summary =
                    "Why the job waits (reasons with numbers, before and after admission), its place in its account's line and the cluster's, when it should start (or why that is unknown), and what would make it start now")
    public Uni<JobViews.Wait> waitFor(@PathParam("id") String id) {
        return current.caller().flatMap(c -> waits.explain(id, c));
    }

    @DELETE
    @Path("/{id}")
    @Operation(summary = "Delete a finished job from lists (its owner, an admin of its account, a platform admin)")
    public Uni<Response> delete(@PathParam("id") String id) {
        return current.caller()
                .flatMap(c -> stops.delete(id, c))
                .map(v -> Response.noContent().build());
    }

    @POST
    @Path("/{id}/template")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Save the job's spec as a template of the caller's")
    public Uni<Response> saveAsTemplate(@PathParam("id") String id, TemplateViews.SaveJobAsTemplate req) {
        return current.caller()
                .flatMap(c -> jobs.saveAsTemplate(id, req, c))
                .map(t -> Response.status(201).entity(t).build());
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
        return current.caller().flatMap(c -> stops.stop(id, c));
    }
}
