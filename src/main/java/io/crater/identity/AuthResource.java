package io.crater.identity;

import io.crater.platform.ApiException;
import io.crater.platform.Problem;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Sign-in. Scripts use the returned bearer token; the console uses the same tokens as HttpOnly, SameSite=Strict
 * cookies (access on {@code /}, refresh only on {@code /api/v1/auth}).
 */
@Path("/api/v1/auth")
@Tag(name = "auth")
@Produces(MediaType.APPLICATION_JSON)
public class AuthResource {

    static final String ACCESS_COOKIE = "crater_access";
    static final String REFRESH_COOKIE = "crater_refresh";
    static final String REFRESH_PATH = "/api/v1/auth";

    /** Sign-in request. */
    public record LoginRequest(String username, String password) {}

    /** Sign-in answer: the access token and the refresh token (also set as cookies) and who signed in. */
    @Schema(name = "SessionResponse")
    public record LoginResponse(String accessToken, long expiresIn, String refreshToken, AuthService.UserView user) {}

    @Inject
    AuthService auth;

    @Inject
    AuthConfig config;

    @Inject
    CurrentUser current;

    @Inject
    UserService users;

    @POST
    @Path("/login")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Sign in with username and password")
    @APIResponse(
            responseCode = "200",
            description = "Signed in: the access token (also set as a cookie with the refresh token)",
            content = @Content(mediaType = "application/json", schema = @Schema(implementation = LoginResponse.class)))
    public Uni<Response> login(LoginRequest body, @Context HttpServerRequest request) {
        List<Problem.FieldError> errors = new ArrayList<>();
        if (body == null || body.username() == null || body.username().isBlank()) {
            errors.add(new Problem.FieldError("username", "required"));
        }
        if (body == null || body.password() == null || body.password().isEmpty()) {
            errors.add(new Problem.FieldError("password", "required"));
        }
        if (body != null && body.username() != null && body.username().length() > 64) {
            errors.add(new Problem.FieldError("username", "at most 64 characters"));
        }
        if (!errors.isEmpty()) {
            return Uni.createFrom()
                    .failure(ApiException.badRequest("InvalidRequest", "username and password are required", errors));
        }
        return auth.login(body.username().trim(), body.password(), clientAddress(request))
                .map(s -> withCookies(s, request));
    }

    @POST
    @Path("/signup")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Create one's own user, when self sign-up is enabled")
    public Uni<Response> signup(UserService.CreateUser body, @Context HttpServerRequest request) {
        return users.signup(body, clientAddress(request))
                .map(u -> Response.status(201).entity(u).build());
    }

    @POST
    @Path("/refresh")
    @Operation(summary = "Exchange a refresh token (cookie, or Authorization: Refresh <token>) for new tokens")
    @APIResponse(
            responseCode = "200",
            description = "A new access token (also set as a cookie with the refresh token)",
            content = @Content(mediaType = "application/json", schema = @Schema(implementation = LoginResponse.class)))
    public Uni<Response> refresh(@CookieParam(REFRESH_COOKIE) String cookie, @Context HttpServerRequest request) {
        String header = request.getHeader("Authorization");
        String token = header != null && header.startsWith("Refresh ")
                ? header.substring(8).trim()
                : cookie;
        return auth.refresh(token).map(s -> withCookies(s, request));
    }

    @POST
    @Path("/logout")
    @Operation(summary = "Sign out: revokes the refresh token's family and clears the cookies")
    public Uni<Response> logout(@CookieParam(REFRESH_COOKIE) String cookie, @Context HttpServerRequest request) {
        boolean secure = secure(request);
        return auth.logout(cookie)
                .map(v -> Response.noContent()
                        .cookie(expired(ACCESS_COOKIE, "/", secure), expired(REFRESH_COOKIE, REFRESH_PATH, secure))
                        .build());
    }

    @GET
    @Path("/me")
    @Operation(summary = "The signed-in user")
    public Uni<AuthService.UserView> me() {
        return current.require().flatMap(u -> auth.me(u.id()));
    }

    private Response withCookies(AuthService.Session s, HttpServerRequest request) {
        return Response.ok(new LoginResponse(s.access().token(), s.access().expiresIn(), s.refreshToken(), s.user()))
                .cookie(sessionCookies(s, secure(config, request)))
                .header("Cache-Control", "no-store")
                .build();
    }

    /** The console's session cookies for a new session: the same for every way of signing in. */
    static NewCookie[] sessionCookies(AuthService.Session s, boolean secure) {
        NewCookie access =
                cookie(ACCESS_COOKIE, s.access().token(), "/", (int) s.access().expiresIn(), secure);
        NewCookie refresh = cookie(
                REFRESH_COOKIE,
                s.refreshToken(),
                REFRESH_PATH,
                (int) s.refreshLifetime().toSeconds(),
                secure);
        return new NewCookie[] {access, refresh};
    }

    private boolean secure(HttpServerRequest request) {
        return secure(config, request);
    }

    static boolean secure(AuthConfig config, HttpServerRequest request) {
        return config.secureCookies().orElse("https".equals(request.scheme()));
    }

    private static NewCookie cookie(String name, String value, String path, int maxAge, boolean secure) {
        return new NewCookie.Builder(name)
                .value(value)
                .path(path)
                .maxAge(maxAge)
                .httpOnly(true)
                .secure(secure)
                .sameSite(NewCookie.SameSite.STRICT)
                .build();
    }

    private static NewCookie expired(String name, String path, boolean secure) {
        return new NewCookie.Builder(name)
                .value("")
                .path(path)
                .maxAge(0)
                .httpOnly(true)
                .secure(secure)
                .sameSite(NewCookie.SameSite.STRICT)
                .build();
    }

    static String clientAddress(HttpServerRequest request) {
        return request.remoteAddress() == null
                ? "unknown"
                : request.remoteAddress().hostAddress();
    }
}
