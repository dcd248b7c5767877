package io.crater.account;

import io.crater.identity.CurrentUser;
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

/** An account's webhooks, managed by its admins (a member who is not one gets 403 NotAccountAdmin) (docs/notifications.md, "Webhooks"). */
@Path("/api/v1/accounts/{slug}/webhooks")
@Tag(name = "accounts")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class AccountWebhookResource {

    @Inject
    CurrentUser current;

    @Inject
    WebhookService webhooks;

    @Inject
    AccountService accounts;

    /** The account as a webhooks' owner, for its admins (and platform admins); 403 NotAccountAdmin otherwise. */
    private Uni<Owner> owner(String slug, io.crater.identity.Caller c) {
        return accounts.webhookOwner(slug, c);
    }

    @GET
    @Operation(summary = "The account's webhooks (its admins), and the formats and kinds a new one may have")
    public Uni<WebhookViews.Listing> list(@PathParam("slug") String slug) {
        return current.caller().flatMap(c -> owner(slug, c).flatMap(webhooks::list));
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
    public Uni<Response> create(@PathParam("slug") String slug, WebhookViews.Create req) {
        return current.caller()
                .flatMap(c -> owner(slug, c).flatMap(o -> webhooks.create(o, req, c.actor(slug))))
                .map(w -> Response.status(201).entity(w).build());
    }

    @DELETE
    @Path("/{id}")
    @Operation(summary = "Delete one of the account's webhooks, with its delivery log")
    public Uni<Response> delete(@PathParam("slug") String slug, @PathParam("id") String id) {
        return current.caller()
                .flatMap(c -> owner(slug, c).flatMap(o -> webhooks.delete(o, id, c.actor(slug))))
                .map(v -> Response.noContent().build());
    }

    @POST
    @Path("/{id}/test")
    @Operation(summary = "Send a test event to one of the account's webhooks; answers its delivery, still pending")
    @APIResponse(
            responseCode = "202",
            description = "The test event, queued for delivery",
            content =
                    @Content(
                            mediaType = "application/json",
                            schema = @Schema(implementation = WebhookViews.Delivery.class)))
    public Uni<Response> test(@PathParam("slug") String slug, @PathParam("id") String id) {
        return current.caller()
                .flatMap(c -> owner(slug, c).flatMap(o -> webhooks.test(o, id)))
                .map(d -> Response.status(202).entity(d).build());
    }

    @GET
    @Path("/{id}/deliveries")
    @Operation(summary = "The delivery log of one of the account's webhooks: the latest 50 events with every attempt")
    public Uni<WebhookViews.Deliveries> deliveries(@PathParam("slug") String slug, @PathParam("id") String id) {
        return current.caller().flatMap(c -> owner(slug, c).flatMap(o -> webhooks.deliveries(o, id)));
    }
}
