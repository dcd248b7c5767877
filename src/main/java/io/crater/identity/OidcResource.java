package io.crater.identity;

import io.crater.platform.ApiException;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import jakarta.inject.Inject;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Sign-in through OpenID Connect providers, for the console: the sign-in page lists the providers, a button opens
 * {@code /start}, which sends the browser to the provider; the provider sends it back to {@code /callback}, which
 * sets the same session cookies a password sign-in sets and goes on into the console. A failed sign-in goes back to
 * the sign-in page with the problem's code ({@code /login?signInError=<code>}) when a browser asked for a page, and
 * is answered as problem+json otherwise.
 */
@Path("/api/v1/auth/oidc")
@Tag(name = "auth")
public class OidcResource {

    static final String STATE_COOKIE = "crater_oidc_state";
    static final String STATE_PATH = "/api/v1/auth/oidc";

    /** A provider as the sign-in page shows it. */
    @Schema(name = "SignInProvider")
    public record ProviderView(String name, String displayName) {}

    /** The configured providers. */
    @Schema(name = "SignInProviderList")
    public record ProviderList(List<ProviderView> items) {}

    @Inject
    OidcProviders providers;

    @Inject
    OidcLogin login;

    @Inject
    OidcConfig oidc;

    @Inject
    AuthConfig auth;

    @ConfigProperty(name = "crater.public-url")
    Optional<String> publicUrl;

    @GET
    @Path("/providers")
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "The OpenID Connect providers one can sign in with (no secrets)")
    public ProviderList list() {
        return new ProviderList(providers.all().entrySet().stream()
                .sorted(java.util.Map.Entry.comparingByKey())
                .map(e ->
                        new ProviderView(e.getKey(), e.getValue().displayName().orElse(e.getKey())))
                .toList());
    }

    @GET
    @Path("/{provider}/start")
    @Operation(summary = "Start signing in at a provider: redirects the browser there (authorization code, PKCE)")
    public Uni<Response> start(
            @PathParam("provider") String provider,
            @QueryParam("returnTo") String returnTo,
            @Context UriInfo uri,
            @Context HttpServerRequest request) {
        String redirectUri = base(uri) + STATE_PATH + "/" + provider + "/callback";
        return login.start(provider, redirectUri, safeReturn(returnTo))
                .map(s -> Response.seeOther(URI.create(s.authorizationUrl()))
                        .cookie(stateCookie(s.state(), (int) oidc.loginTimeout().toSeconds(), request))
                        .header("Cache-Control", "no-store")
                        .build());
    }

    @GET
    @Path("/{provider}/callback")
    @Produces({MediaType.APPLICATION_JSON, MediaType.TEXT_HTML})
    @Operation(summary = "Where the provider sends the browser back: signs in and redirects into the console")
    public Uni<Response> callback(
            @PathParam("provider") String provider,
            @QueryParam("code") String code,
            @QueryParam("state") String state,
            @QueryParam("error") String error,
            @QueryParam("error_description") String errorDescription,
            @CookieParam(STATE_COOKIE) String cookieState,
            @HeaderParam("Accept") String accept,
            @Context HttpServerRequest request) {
        NewCookie clear = stateCookie("", 0, request);
        boolean page = accept != null && accept.contains("text/html");
        return login.finish(provider, code, state, cookieState, error, errorDescription)
                .map(done -> Response.seeOther(URI.create(done.returnTo()))
                        .cookie(AuthResource.sessionCookies(done.session(), AuthResource.secure(auth, request)))
                        .cookie(clear)
                        .header("Cache-Control", "no-store")
                        .build())
                .onFailure(e -> page && e instanceof ApiException)
                .recoverWithItem(e -> Response.seeOther(URI.create("/login?signInError="
                                + URLEncoder.encode(((ApiException) e).code(), StandardCharsets.UTF_8)))
                        .cookie(clear)
                        .header("Cache-Control", "no-store")
                        .build());
    }

    /** Only a path of Crater's own: never another site, nor a scheme-relative {@code //host}. */
    static String safeReturn(String returnTo) {
        if (returnTo == null
                || !returnTo.startsWith("/")
                || returnTo.startsWith("//")
                || returnTo.startsWith("/\\")
                || returnTo.startsWith("/login")
                || returnTo.chars().anyMatch(c -> c < 0x20)) {
            return "/";
        }
        return returnTo;
    }

    private String base(UriInfo uri) {
        return publicUrl.orElse(uri.getBaseUri().toString()).replaceAll("/+$", "");
    }

    /** Lax, not Strict: the provider's redirect back is a navigation from another site, which must carry it. */
    private NewCookie stateCookie(String value, int maxAge, HttpServerRequest request) {
        return new NewCookie.Builder(STATE_COOKIE)
                .value(value)
                .path(STATE_PATH)
                .maxAge(maxAge)
                .httpOnly(true)
                .secure(AuthResource.secure(auth, request))
                .sameSite(NewCookie.SameSite.LAX)
                .build();
    }
}
