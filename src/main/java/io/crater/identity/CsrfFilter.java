package io.crater.identity;

import io.crater.platform.ApiException;
import jakarta.ws.rs.container.ContainerRequestContext;
import java.net.URI;
import java.util.Set;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * CSRF defence for the console's cookie sessions (besides SameSite=Strict): a state-changing request that
 * carries Crater's cookies and no bearer token must send {@code X-Requested-With: crater}, a header no other
 * site can make a browser send without CORS, which Crater does not grant; and an {@code Origin}, when present,
 * must be Crater's own.
 */
public class CsrfFilter {

    static final String HEADER = "X-Requested-With";
    static final String VALUE = "crater";
    private static final Set<String> SAFE = Set.of("GET", "HEAD", "OPTIONS");

    @ServerRequestFilter(preMatching = true)
    public void check(ContainerRequestContext ctx) {
        if (SAFE.contains(ctx.getMethod()) || !ctx.getUriInfo().getPath().startsWith("/api/")) {
            return;
        }
        boolean cookies = ctx.getCookies().containsKey(AuthResource.ACCESS_COOKIE)
                || ctx.getCookies().containsKey(AuthResource.REFRESH_COOKIE);
        String refusal = refusal(
                cookies,
                ctx.getHeaderString("Authorization"),
                ctx.getHeaderString(HEADER),
                ctx.getHeaderString("Origin"),
                ctx.getHeaderString("Host"));
        if (refusal != null) {
            throw ApiException.forbidden("CsrfCheckFailed", refusal);
        }
    }

    /** Whether a cookie of this name is one of the console's session cookies. */
    public static boolean sessionCookie(String name) {
        return AuthResource.ACCESS_COOKIE.equals(name) || AuthResource.REFRESH_COOKIE.equals(name);
    }

    /**
     * Why a state-changing request is refused, or null when it passes: the same rule for the JAX-RS API and the
     * streaming routes (uploads).
     */
    public static String refusal(
            boolean cookies, String authorization, String requestedWith, String origin, String host) {
        if (!cookies || authorization != null) {
            return null;
        }
        if (!VALUE.equals(requestedWith)) {
            return "a request authenticated by cookie must send the header " + HEADER + ": " + VALUE;
        }
        if (origin != null && host != null && !origin.equals("null")) {
            URI o = URI.create(origin);
            String originHost = o.getPort() < 0 ? o.getHost() : o.getHost() + ":" + o.getPort();
            if (!host.equalsIgnoreCase(originHost)) {
                return "requests from " + origin + " may not use Crater's cookies";
            }
        }
        return null;
    }
}
