package io.crater.interactive;

import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpServerRequest;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;

/**
 * What crosses the app proxy in headers and paths: the client's headers minus Crater's cookie, credentials and
 * forwarding, with Crater's own added; app cookies kept to their origin; paths refused unless what the app sees
 * is what was checked. Pure functions over the request.
 */
final class AppHeaders {

    private AppHeaders() {}

    /** Hop-by-hop and forwarding headers the client sent: never passed on. */
    static final Set<String> DROPPED = Set.of(
            "connection",
            "keep-alive",
            "proxy-authenticate",
            "proxy-authorization",
            "proxy-connection",
            "te",
            "trailer",
            "transfer-encoding",
            "upgrade",
            "authorization",
            "forwarded",
            "x-real-ip",
            "content-length");

    /** The headers the app gets: the client's minus Crater's cookie, credentials and forwarding; plus Crater's own. */
    static MultiMap forApp(HttpServerRequest req, AppProxy.Route route, String publicScheme) {
        MultiMap out = MultiMap.caseInsensitiveMultiMap();
        req.headers().forEach((k, v) -> {
            String n = k.toLowerCase(Locale.ROOT);
            if (DROPPED.contains(n) || n.startsWith("x-forwarded-") || n.equals("host")) {
                return;
            }
            if (n.equals("cookie")) {
                String kept = cookiesWithout(v);
                if (!kept.isEmpty()) {
                    out.add(k, kept);
                }
                return;
            }
            out.add(k, v);
        });
        String host = req.getHeader("Host");
        if (host != null) {
            out.set("Host", host); // code-server checks WebSocket Origin against it
            out.set("X-Forwarded-Host", host);
        }
        out.set("X-Forwarded-Proto", publicScheme);
        out.set("X-Forwarded-For", remote(req));
        route.token().ifPresent(t -> out.set("Authorization", "token " + t));
        return out;
    }

    /** Whether an app's cookie stays on its own origin: no Domain attribute, and not one of Crater's names. */
    static boolean hostOnly(String setCookie) {
        String name = setCookie.contains("=")
                ? setCookie.substring(0, setCookie.indexOf('=')).trim()
                : "";
        return !name.startsWith("crater_")
                && java.util.Arrays.stream(setCookie.split(";"))
                        .map(a -> a.trim().toLowerCase(Locale.ROOT))
                        .noneMatch(a -> a.startsWith("domain="));
    }

    /** A Cookie header without Crater's cookies (the app's own stay). */
    static String cookiesWithout(String header) {
        StringBuilder kept = new StringBuilder();
        for (String part : header.split(";")) {
            String p = part.trim();
            String name = p.contains("=") ? p.substring(0, p.indexOf('=')) : p;
            if (p.isEmpty() || name.equals(AppProxy.COOKIE) || name.startsWith("crater_")) {
                continue;
            }
            kept.append(kept.isEmpty() ? "" : "; ").append(p);
        }
        return kept.toString();
    }

    /** No dot segments, encoded slashes or backslashes: what the app sees is what the proxy checked. */
    static boolean safe(String rawPath) {
        String lower = rawPath.toLowerCase(Locale.ROOT);
        if (lower.contains("%2f") || lower.contains("%5c") || lower.contains("\\") || lower.contains("%00")) {
            return false;
        }
        String decoded;
        try {
            decoded = URLDecoder.decode(rawPath.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return false;
        }
        for (String segment : decoded.split("/")) {
            if (segment.equals("..") || segment.equals(".")) {
                return false;
            }
        }
        return decoded.startsWith("/");
    }

    /** The client's address as the proxy saw it. */
    static String remote(HttpServerRequest req) {
        return req.remoteAddress() == null ? "unknown" : req.remoteAddress().hostAddress();
    }
}
