package io.crater.gpus;

import io.crater.identity.Caller;
import io.crater.identity.CurrentUser;
import io.crater.job.JobService;
import io.crater.platform.ApiException;
import io.crater.platform.Problem;
import io.quarkus.security.Authenticated;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.mutiny.Multi;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.ResponseHeader;

/**
 * A job's GPU metrics as they are read (docs/monitoring.md, "Live metrics of a job"): a {@code window} event, then a
 * {@code sample} per step with every card the job holds, {@code unavailable} for a step whose read failed, comment
 * lines as heartbeats, and an {@code end} event when the job ends. Samples carry their time as id, so a reconnect with
 * {@code Last-Event-ID} gets only the points it lacks.
 */
@Path("/api/v1/jobs/{id}/gpu-metrics/stream")
@Tag(name = "jobs")
@Authenticated
public class GpuMetricsStreamResource {

    @Inject
    CurrentUser current;

    @Inject
    SecurityIdentity identity;

    @Inject
    JobGpuFeeds feeds;

    @Inject
    GpuStreamConfig config;

    /**
     * Blocking on purpose: who may read the job is settled before the first byte, so a refusal is a real 403/404 and
     * not a stream that ends at once.
     */
    @GET
    @Blocking
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @ResponseHeader(name = "X-Accel-Buffering", value = "no")
    @ResponseHeader(name = "Cache-Control", value = "no-cache")
    @Operation(
            summary = "The job's GPU metrics live (Server-Sent Events): per card utilisation (%), memory used and total"
                    + " (MiB), power (W) and temperature (°C), a window of recent samples first, until the job ends")
    public Multi<OutboundSseEvent> follow(
            @PathParam("id") String id,
            @QueryParam("window") String window,
            @HeaderParam("Last-Event-ID") String lastEventId,
            @Context Sse sse) {
        int steps = windowSteps(window, config.window());
        Long after = lastEventId(lastEventId);
        JobService.JobRef job = feeds.visible(id, new Caller(current.userOf(identity), current.clientAddress()));
        return feeds.follow(job, steps, after).map(e -> toSse(sse, e));
    }

    private static OutboundSseEvent toSse(Sse sse, JobGpuFeed.FeedEvent e) {
        if (e.json() == null) {
            return sse.newEventBuilder().comment(e.name()).build();
        }
        OutboundSseEvent.Builder b = sse.newEventBuilder()
                .name(e.name())
                .mediaType(MediaType.APPLICATION_JSON_TYPE)
                .data(String.class, e.json());
        if (e.id() != null) {
            b.id(e.id());
        }
        return b.build();
    }

    /** {@code window}: samples of the first event, 0 to the feed's kept steps; the most when not given. */
    static int windowSteps(String window, int most) {
        if (window == null || window.isBlank()) {
            return most;
        }
        try {
            int n = Integer.parseInt(window.strip());
            if (n >= 0 && n <= most) {
                return n;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw ApiException.badRequest(
                "InvalidRequest",
                "window is a number of samples from 0 to " + most,
                List.of(new Problem.FieldError("window", "a whole number from 0 to " + most)));
    }

    /** {@code Last-Event-ID}: a sample's id (epoch milliseconds) as this stream sent it. */
    static Long lastEventId(String id) {
        if (id == null || id.isBlank()) {
            return null;
        }
        try {
            long t = Long.parseLong(id.strip());
            if (t >= 0) {
                return t;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw ApiException.badRequest(
                "InvalidRequest",
                "Last-Event-ID is the id of an event of this stream (epoch milliseconds)",
                List.of(new Problem.FieldError("Last-Event-ID", "a whole number of milliseconds since the epoch")));
    }
}
