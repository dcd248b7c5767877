package io.crater.identity;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.crater.platform.ApiException;
import io.crater.platform.Json;
import io.crater.platform.Problem;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Device sign-in, the OAuth 2.0 device authorization grant (RFC 8628) with Crater as the authorization server: a
 * client without a browser (the CLI) starts a request and shows its user code and the console's {@code /device}
 * page; a person signed in to the console approves it there; the client polls the token endpoint and gets a personal
 * access token of that person's. The client's two endpoints take a form or JSON and answer as RFC 8628 and RFC 6749
 * say; the person's three are ordinary API calls of a signed-in user.
 */
@Path("/api/v1/auth/device")
@Tag(name = "auth")
@Produces(MediaType.APPLICATION_JSON)
public class DeviceResource {

    static final String GRANT_TYPE = "urn:ietf:params:oauth:grant-type:device_code";

    /** The device authorization response (RFC 8628 3.2). */
    @Schema(name = "DeviceAuthorizationResponse")
    public record Authorization(
            @JsonProperty("device_code") String deviceCode,
            @JsonProperty("user_code") String userCode,
            @JsonProperty("verification_uri") String verificationUri,
            @JsonProperty("verification_uri_complete") String verificationUriComplete,
            @JsonProperty("expires_in") long expiresIn,
            @JsonProperty("interval") int interval) {}

    /** The token response (RFC 6749 5.1): a personal access token, with its id and user for the client's records. */
    @Schema(name = "DeviceTokenResponse")
    public record TokenResponse(
            @JsonProperty("access_token") String accessToken,
            @JsonProperty("token_type") String tokenType,
            @JsonProperty("token_id") long tokenId,
            @JsonProperty("username") String username) {}

    /** An error of the token endpoint (RFC 6749 5.2). */
    @Schema(name = "DeviceTokenError")
    public record TokenError(
            @JsonProperty("error") String error,
            @JsonProperty("error_description") String description) {}

    @Inject
    DeviceLogins logins;

    @Inject
    CurrentUser current;

    @ConfigProperty(name = "crater.public-url")
    Optional<String> publicUrl;

    @POST
    @Operation(summary = "Start a device sign-in (RFC 8628): a form or JSON with an optional client_name")
    @APIResponse(
            responseCode = "200",
            description = "The device code (for the client only), the user code and where to enter it",
            content = @Content(mediaType = "application/json", schema = @Schema(implementation = Authorization.class)))
    public Uni<Response> start(
            String body,
            @HeaderParam("Content-Type") String contentType,
            @Context UriInfo uri,
            @Context HttpServerRequest request) {
        Map<String, String> fields;
        try {
            fields = fields(body, contentType);
        } catch (IllegalArgumentException e) {
            return Uni.createFrom()
                    .failure(ApiException.badRequest(
                            "InvalidRequest",
                            "the body is neither a form nor a JSON object",
                            List.of(new Problem.FieldError("body", e.getMessage()))));
        }
        String name = fields.get("client_name");
        if (name != null
                && (name.isBlank()
                        || name.strip().length() > 100
                        || name.chars().anyMatch(c -> c < 0x20))) {
            return Uni.createFrom()
                    .failure(ApiException.badRequest(
                            "InvalidRequest",
                            "a client name is 1 to 100 characters on one line",
                            List.of(new Problem.FieldError("client_name", "1 to 100 characters, one line"))));
        }
        String base = publicUrl.orElse(uri.getBaseUri().toString()).replaceAll("/+$", "");
        return logins.start(
                        name == null ? DeviceLogins.DEFAULT_CLIENT : name.strip(), AuthResource.clientAddress(request))
                .map(s -> Response.ok(new Authorization(
                                s.deviceCode(),
                                s.userCode(),
                                base + "/device",
                                base + "/device?code=" + URLEncoder.encode(s.userCode(), StandardCharsets.UTF_8),
                                s.expiresIn(),
                                s.interval()))
                        .header("Cache-Control", "no-store")
                        .build());
    }

    @POST
    @Path("/token")
    @Operation(
            summary = "Poll a device sign-in (RFC 8628 3.4): grant_type and device_code as a form or JSON;"
                    + " errors are RFC 6749 JSON with 400")
    @APIResponse(
            responseCode = "200",
            description = "Approved: a personal access token of the approver's, handed out once",
            content = @Content(mediaType = "application/json", schema = @Schema(implementation = TokenResponse.class)))
    @APIResponse(
            responseCode = "400",
            description = "authorization_pending, slow_down, access_denied, expired_token, invalid_grant,"
                    + " invalid_request or unsupported_grant_type",
            content = @Content(mediaType = "application/json", schema = @Schema(implementation = TokenError.class)))
    public Uni<Response> token(
            String body, @HeaderParam("Content-Type") String contentType, @Context HttpServerRequest request) {
        Map<String, String> fields;
        try {
            fields = fields(body, contentType);
        } catch (IllegalArgumentException e) {
            return Uni.createFrom().item(error("invalid_request", "the body is neither a form nor a JSON object"));
        }
        String grant = fields.get("grant_type");
        String code = fields.get("device_code");
        if (grant == null || code == null || code.isBlank() || code.length() > 200) {
            return Uni.createFrom().item(error("invalid_request", "grant_type and device_code are required"));
        }
        if (!GRANT_TYPE.equals(grant)) {
            return Uni.createFrom().item(error("unsupported_grant_type", "the grant type must be " + GRANT_TYPE));
        }
        return logins.poll(code, AuthResource.clientAddress(request))
                .map(p -> p.error() != null
                        ? error(p.error(), describe(p.error()))
                        : Response.ok(new TokenResponse(
                                        p.token().token(), "Bearer", p.token().id(), p.username()))
                                .header("Cache-Control", "no-store")
                                .build());
    }

    @GET
    @Path("/{userCode}")
    @Operation(summary = "A pending device sign-in by its user code, for the signed-in person to decide (404 if none)")
    public Uni<DeviceLogins.PendingView> find(@PathParam("userCode") String userCode) {
        return current.caller().flatMap(c -> logins.find(userCode, c));
    }

    @POST
    @Path("/{userCode}/approve")
    @Operation(summary = "Approve a device sign-in: its client gets a personal access token of the signed-in person")
    public Uni<Response> approve(@PathParam("userCode") String userCode) {
        return current.caller()
                .flatMap(c -> logins.decide(userCode, c, true))
                .map(v -> Response.noContent().build());
    }

    @POST
    @Path("/{userCode}/deny")
    @Operation(summary = "Deny a device sign-in: its client is told access_denied")
    public Uni<Response> deny(@PathParam("userCode") String userCode) {
        return current.caller()
                .flatMap(c -> logins.decide(userCode, c, false))
                .map(v -> Response.noContent().build());
    }

    private static Response error(String error, String description) {
        return Response.status(400)
                .type(MediaType.APPLICATION_JSON)
                .entity(new TokenError(error, description))
                .header("Cache-Control", "no-store")
                .build();
    }

    private static String describe(String error) {
        return switch (error) {
            case "authorization_pending" -> "the request is not approved yet";
            case "slow_down" -> "polled too soon: wait 5 s longer between polls from now on";
            case "access_denied" -> "the request was denied";
            case "expired_token" -> "the device code has expired; start again";
            default -> "the device code is unknown or already used";
        };
    }

    /** The fields of a form or a JSON object (string values only); an empty body has none. */
    static Map<String, String> fields(String body, String contentType) {
        Map<String, String> out = new HashMap<>();
        if (body == null || body.isBlank()) {
            return out;
        }
        if (contentType != null
                && contentType.toLowerCase(java.util.Locale.ROOT).contains("json")) {
            if (!(Json.read(body) instanceof Map<?, ?> map)) {
                throw new IllegalArgumentException("not a JSON object");
            }
            map.forEach((k, v) -> {
                if (v instanceof String s) {
                    out.put(String.valueOf(k), s);
                }
            });
            return out;
        }
        for (String pair : body.strip().split("&")) {
            int eq = pair.indexOf('=');
            String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            out.putIfAbsent(key, value);
        }
        return out;
    }
}
