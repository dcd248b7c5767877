package io.crater.notify;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;

/**
 * Where a webhook may point: an {@code http} or {@code https} URL with a host and no user name or password, and,
 * unless {@code crater.webhooks.allow-local-addresses} is on, not a loopback, link-local or unspecified address. A
 * literal address or a {@code localhost} name is refused when the webhook is stored; a name is resolved before every
 * delivery and refused there if it points at such an address, so a name moved afterwards gets nowhere either.
 */
final class WebhookUrls {

    private WebhookUrls() {}

    static final int MAX_LENGTH = 2000;

    /** Why a URL may not be stored, or null when it may. */
    static String refusal(String url, boolean allowLocal) {
        if (url == null || url.isBlank()) {
            return "an http or https URL";
        }
        if (url.length() > MAX_LENGTH) {
            return "at most " + MAX_LENGTH + " characters";
        }
        URI u;
        try {
            u = new URI(url.trim());
        } catch (URISyntaxException e) {
            return "not a URL: " + e.getReason();
        }
        String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            return "only http and https URLs";
        }
        if (u.getHost() == null || u.getHost().isEmpty()) {
            return "a URL with a host";
        }
        if (u.getRawUserInfo() != null) {
            return "no user name or password in the URL";
        }
        if (u.getRawFragment() != null) {
            return "no fragment (#...) in the URL";
        }
        if (!allowLocal && isLocalName(u.getHost())) {
            return "not a loopback or link-local address";
        }
        return null;
    }

    /** Whether a host is a loopback name or a literal loopback, link-local or unspecified address. */
    static boolean isLocalName(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        if (h.equals("localhost") || h.endsWith(".localhost") || h.equals("localhost.")) {
            return true;
        }
        if (!isLiteral(h)) {
            return false;
        }
        try {
            return isLocal(InetAddress.getByName(h)); // a literal: no look-up
        } catch (UnknownHostException e) {
            return true;
        }
    }

    static boolean isLiteral(String host) {
        return host.startsWith("[") || host.matches("[0-9.]+");
    }

    static boolean isLocal(InetAddress a) {
        return a.isLoopbackAddress() || a.isLinkLocalAddress() || a.isAnyLocalAddress();
    }

    /**
     * Why a delivery to this host may not go out (a name that resolves to a local address), or null; blocks on the
     * look-up, so only the delivery worker calls it.
     */
    static String resolvedRefusal(String host, boolean allowLocal) {
        if (allowLocal) {
            return null;
        }
        try {
            for (InetAddress a : InetAddress.getAllByName(host)) {
                if (isLocal(a)) {
                    return "refused: " + host + " resolves to " + a.getHostAddress()
                            + ", a loopback or link-local address";
                }
            }
            return null;
        } catch (UnknownHostException e) {
            return "unknown host " + host;
        }
    }

    /** The URL as the owner sees it again: scheme, host, port and the first path segment; the rest may be a token. */
    static String shown(String url) {
        URI u = URI.create(url.trim());
        String path = u.getRawPath() == null ? "" : u.getRawPath();
        List<String> parts =
                List.of(path.split("/")).stream().filter(s -> !s.isEmpty()).toList();
        String first = parts.isEmpty() ? "/" : "/" + parts.get(0) + (parts.size() > 1 ? "/…" : "");
        boolean more = u.getRawQuery() != null && parts.size() <= 1;
        return u.getScheme().toLowerCase(Locale.ROOT) + "://" + u.getRawAuthority() + first + (more ? "?…" : "");
    }
}
