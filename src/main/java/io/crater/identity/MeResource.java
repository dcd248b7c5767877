package io.crater.identity;

import io.crater.notify.NotificationService;
import io.crater.platform.ApiException;
import io.crater.platform.Problem;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The signed-in user's own profile, accounts, password, tokens, SSH keys and notifications. */
@Path("/api/v1/me")
@Tag(name = "me")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class MeResource {

    /** One of the user's accounts and their place in it. */
    public record Membership(
            String slug, String name, String kind, String role, String fileAccess, Instant expiresAt) {}

    /** The user with their accounts. */
    public record Me(
            long id,
            String username,
            String slug,
            int uid,
            String displayName,
            String email,
            String role,
            String defaultAccount,
            List<Membership> accounts) {}

    /** Change one's own name or e-mail. */
    public record UpdateMe(String displayName, String email) {}

    /** Change one's own password. */
    public record PasswordChange(String currentPassword, String newPassword) {}

    /** A list body. */
    public record Items<T>(List<T> items) {}

    @Inject
    CurrentUser current;

    @Inject
    UserService users;

    @Inject
    UserAccounts accounts;

    @Inject
    AccessTokens tokens;

    @Inject
    SshKeys keys;

    @Inject
    NotificationService notifications;

    @GET
    @Operation(summary = "The signed-in user and their accounts")
    public Uni<Me> me() {
        return current.caller().flatMap(this::load);
    }

    private Uni<Me> load(Caller c) {
        return users.get(c.userId())
                .flatMap(u -> Panache.withSession(() -> accounts.of(c.userId()))
                        .map(list -> new Me(
                                u.id(),
                                u.username(),
                                u.slug(),
                                u.uid(),
                                u.displayName(),
                                u.email(),
                                u.role(),
                                u.defaultAccount(),
                                list)));
    }

    @PATCH
    @Operation(summary = "Change one's display name or e-mail")
    public Uni<Me> update(UpdateMe req) {
        if (req == null) {
            return Uni.createFrom().failure(ApiException.badRequest("InvalidRequest", "a body is required", null));
        }
        return current.caller()
                .flatMap(c ->
                        users.updateProfile(c, req.displayName(), req.email()).flatMap(x -> load(c)));
    }

    @POST
    @Path("/password")
    @Operation(summary = "Change one's password (needs the current one)")
    public Uni<Response> password(PasswordChange req) {
        if (req == null) {
            return Uni.createFrom()
                    .failure(ApiException.badRequest(
                            "InvalidRequest",
                            "a body is required",
                            List.of(new Problem.FieldError("newPassword", "required"))));
        }
        return current.caller()
                .flatMap(c -> users.changePassword(c, req.currentPassword(), req.newPassword()))
                .map(v -> Response.noContent().build());
    }

    @GET
    @Path("/tokens")
    @Operation(summary = "One's personal access tokens (never their secrets)")
    public Uni<Items<AccessTokens.TokenView>> tokens() {
        return current.caller().flatMap(tokens::list).map(Items::new);
    }

    @POST
    @Path("/tokens")
    @Operation(summary = "Create a personal access token; the secret is in this answer only")
    @APIResponse(
            responseCode = "201",
            description = "The token with its secret, shown once",
            content =
                    @Content(
                            mediaType = "application/json",
                            schema = @Schema(implementation = AccessTokens.NewToken.class)))
    public Uni<Response> createToken(AccessTokens.CreateToken req) {
        return current.caller()
                .flatMap(c -> tokens.create(req, c))
                .map(t -> Response.status(201).entity(t).build());
    }

    @DELETE
    @Path("/tokens/{id}")
    @Operation(summary = "Revoke a personal access token")
    public Uni<Response> revokeToken(@PathParam("id") long id) {
        return current.caller()
                .flatMap(c -> tokens.revoke(id, c))
                .map(v -> Response.noContent().build());
    }

    @GET
    @Path("/ssh-keys")
    @Operation(summary = "One's SSH public keys")
    public Uni<Items<SshKeys.KeyView>> sshKeys() {
        return current.caller().flatMap(keys::list).map(Items::new);
    }

    @POST
    @Path("/ssh-keys")
    @Operation(summary = "Register an SSH public key")
    public Uni<Response> addSshKey(SshKeys.AddKey req) {
        return current.caller()
                .flatMap(c -> keys.add(req, c))
                .map(k -> Response.status(201).entity(k).build());
    }

    @DELETE
    @Path("/ssh-keys/{id}")
    @Operation(summary = "Remove an SSH public key")
    public Uni<Response> removeSshKey(@PathParam("id") long id) {
        return current.caller()
                .flatMap(c -> keys.remove(id, c))
                .map(v -> Response.noContent().build());
    }

    @GET
    @Path("/notifications")
    @Operation(summary = "One's latest notifications")
    public Uni<Items<NotificationService.NotificationView>> notifications() {
        return current.caller().flatMap(c -> notifications.list(c.userId())).map(Items::new);
    }

    @POST
    @Path("/notifications/{id}/read")
    @Operation(summary = "Mark a notification read")
    public Uni<Response> read(@PathParam("id") long id) {
        return current.caller()
                .flatMap(c -> notifications.markRead(c.userId(), id))
                .map(v -> Response.noContent().build());
    }
}
