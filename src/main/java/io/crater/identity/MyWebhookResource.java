package io.crater.identity;

import io.crater.notify.WebhookService;
import io.crater.notify.WebhookViews;
import io.crater.notify.WebhookViews.Owner;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The signed-in user's own webhooks (docs/notifications.md, "Webhooks"). */
@Path("/api/v1/me/webhooks")
@Tag(name = "me")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class MyWebhookResource {

    @Inject
    CurrentUser current;

    @Inject
    WebhookService webhooks;

    @GET
    @Operation(summary = "One's webhooks, and the formats and kinds a new one may have")
    public Uni<WebhookViews.Listing> list() {
        return current.caller().flatMap(c -> webhooks.list(Owner.user(c.userId())));
    }

    @POST
    @Operation(summary = "Add a webhook; its signing secret is in this answer only")
    @APIResponse(
            responseCode = "201",
            description = "The webhook with its signing secret, shown once",
            content =
                    @Content(
                            mediaType = "application/json",
                            schema = @Schema(implementation = WebhookViews.Created.class)))
    public Uni<Response> create(WebhookViews.Create req) {
        return current.caller()
                .flatMap(c -> webhooks.create(Owner.user(c.userId()), req, c.actor(null)))
                .map(w -> Response.status(201).entity(w).build());
    }

    @DELETE
    @Path("/{id}")
    @Operation(summary = "Delete one of one's webhooks, with its delivery log")
    public Uni<Response> delete(@PathParam("id") String id) {
        return current.caller()
                .flatMap(c -> webhooks.delete(Owner.user(c.userId()), id, c.actor(null)))
                .map(v -> Response.noContent().build());
    }

    @POST
    @Path("/{id}/test")
    @Operation(summary = "Send a test event to one of one's webhooks; answers its delivery, still pending")
    @APIResponse(
            responseCode = "202",
            description = "The test event, queued for delivery",
            content =
                    @Content(
                            mediaType = "application/json",
                            schema = @Schema(implementation = WebhookViews.Delivery.class)))
    public Uni<Response> test(@PathParam("id") String id) {
        return current.caller()
                .flatMap(c -> webhooks.test(Owner.user(c.userId()), id))
                .map(d -> Response.status(202).entity(d).build());
    }

    @GET
    @Path("/{id}/deliveries")
    @Operation(summary = "The delivery log of one of one's webhooks: the latest 50 events with every attempt")
    public Uni<WebhookViews.Deliveries> deliveries(@PathParam("id") String id) {
        return current.caller().flatMap(c -> webhooks.deliveries(Owner.user(c.userId()), id));
    }
}
