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
        String authorization = ctx.getHeaderString("Authorization");
        if (!cookies || authorization != null) {
            return;
        }
        if (!VALUE.equals(ctx.getHeaderString(HEADER))) {
            throw ApiException.forbidden(
                    "CsrfCheckFailed",
                    "a request authenticated by cookie must send the header " + HEADER + ": " + VALUE);
        }
        String origin = ctx.getHeaderString("Origin");
        String host = ctx.getHeaderString("Host");
        if (origin != null && host != null && !origin.equals("null")) {
            URI o = URI.create(origin);
            String originHost = o.getPort() < 0 ? o.getHost() : o.getHost() + ":" + o.getPort();
            if (!host.equalsIgnoreCase(originHost)) {
                throw ApiException.forbidden(
                        "CsrfCheckFailed", "requests from " + origin + " may not use Crater's cookies");
            }
        }
    }
}
