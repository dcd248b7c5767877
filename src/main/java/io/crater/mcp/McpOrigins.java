package io.crater.mcp;

import java.net.URI;
import java.util.List;
import java.util.Locale;

/**
 * Which pages may call {@code /mcp}: a request without {@code Origin} (any client that is not a browser), the
 * server's own origin (the Origin's host and port are the request's Host) and the configured origins. A rebound
 * DNS name passes the first check, which is why {@code /mcp} also takes only bearer tokens and never the
 * console's cookies: a page of another site has no token to send.
 */
final class McpOrigins {

    private McpOrigins() {}

    static boolean allowed(String origin, String host, List<String> configured) {
        if (origin == null) {
            return true;
        }
        URI o;
        try {
            o = URI.create(origin.trim());
        } catch (IllegalArgumentException e) {
            return false;
        }
        if (o.getScheme() == null || o.getHost() == null) {
            return false;
        }
        String normalized = normalize(o);
        for (String c : configured) {
            try {
                if (normalize(URI.create(c.trim())).equals(normalized)) {
                    return true;
                }
            } catch (IllegalArgumentException e) {
                // a malformed configured origin allows nothing
            }
        }
        return host != null && authority(o).equalsIgnoreCase(withDefaultPort(host.trim(), o.getScheme()));
    }

    private static String normalize(URI u) {
        return (u.getScheme() + "://" + authority(u)).toLowerCase(Locale.ROOT);
    }

    /** host:port with the scheme's default port written out. */
    private static String authority(URI u) {
        int port = u.getPort() >= 0 ? u.getPort() : "https".equalsIgnoreCase(u.getScheme()) ? 443 : 80;
        return u.getHost() + ":" + port;
    }

    private static String withDefaultPort(String host, String scheme) {
        boolean hasPort = host.startsWith("[") ? host.contains("]:") : host.contains(":");
        return hasPort ? host : host + ":" + ("https".equalsIgnoreCase(scheme) ? 443 : 80);
    }
}
