package io.crater.platform;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The caching and security headers of the console origin, decided from a response's path, type and scheme
 * (pure; {@link ResponseHeaders} applies it to every answer of the main server). The app origins are served
 * by the app proxy on their own server and get none of these on an app's answers: a notebook frames itself and
 * loads its own scripts, which this policy would forbid; there the proxy adds only HSTS over TLS ({@link
 * #appProxied}), and Crater's own answers on an app origin (the entry, refusals) get {@link #appOwn}.
 *
 * <ul>
 *   <li>The console's HTML (every console route answers with {@code index.html}) is revalidated on every load,
 *       so an upgrade is seen at once; Vite's hashed {@code /assets/} files are immutable for a year; its other
 *       files are revalidated.
 *   <li>Every answer: {@code X-Content-Type-Options: nosniff}, {@code Referrer-Policy} and a {@code
 *       Content-Security-Policy} that forbids framing. The console's HTML gets the policy it needs; an answer
 *       of the backend (the API, WebDAV, a downloaded file a browser opens) gets {@code default-src 'none';
 *       sandbox}, so an uploaded HTML page cannot run script on the console's origin. Swagger UI under
 *       {@code /q/} uses inline scripts and keeps only {@code frame-ancestors}.
 *   <li>Over TLS (directly or as the proxy in front says): {@code Strict-Transport-Security}.
 * </ul>
 */
public final class HeaderPolicy {

    /** What the console needs: its own scripts, styles set by its components, its API and WebSockets. */
    public static final String CONSOLE_CSP = String.join(
            "; ",
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self' 'unsafe-inline'",
            "img-src 'self' data: blob:",
            "font-src 'self' data:",
            "connect-src 'self'",
            "worker-src 'self' blob:",
            "object-src 'none'",
            "base-uri 'self'",
            "form-action 'self'",
            "frame-ancestors 'none'");

    public static final String BACKEND_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox";
    public static final String FRAMING_ONLY_CSP = "frame-ancestors 'none'";
    public static final String HASHED_ASSET = "public, max-age=31536000, immutable";
    public static final String REVALIDATE = "no-cache";
    public static final String HSTS = "max-age=31536000; includeSubDomains";

    /** Vite names a built asset {@code <name>-<hash>.<ext>}, the hash 8 or more URL-safe base64 characters. */
    private static final Pattern HASHED = Pattern.compile("^/assets/[^/]+-[A-Za-z0-9_-]{8,}\\.[a-z0-9]+$");

    private HeaderPolicy() {}

    /**
     * The headers to set on an answer.
     *
     * @param path the request path
     * @param contentType the answer's {@code Content-Type}, or null
     * @param secure whether the client reached Crater over TLS
     * @param console whether the path is the console's (not under a backend prefix: {@code /api}, {@code /q}, ...)
     */
    public static Map<String, String> headers(String path, String contentType, boolean secure, boolean console) {
        Map<String, String> out = new LinkedHashMap<>();
        boolean html =
                contentType != null && contentType.toLowerCase(Locale.ROOT).startsWith("text/html");
        out.put("X-Content-Type-Options", "nosniff");
        out.put("Referrer-Policy", "strict-origin-when-cross-origin");
        if (!console) {
            out.put("Content-Security-Policy", path.startsWith("/q/") ? FRAMING_ONLY_CSP : BACKEND_CSP);
        } else if (html) {
            out.put("Content-Security-Policy", CONSOLE_CSP);
            out.put("X-Frame-Options", "DENY");
            out.put("Cache-Control", REVALIDATE);
        } else {
            out.put("Content-Security-Policy", FRAMING_ONLY_CSP);
            out.put("Cache-Control", HASHED.matcher(path).matches() ? HASHED_ASSET : REVALIDATE);
        }
        if (secure) {
            out.put("Strict-Transport-Security", HSTS);
        }
        return out;
    }

    /** HSTS on an app origin: its own host only (the app domain's other hosts are other jobs). */
    public static final String APP_HSTS = "max-age=31536000";

    /**
     * Crater's own answers on an app origin (the entry's redirect, a refusal, a gateway error): never cached or
     * sniffed, no referrer (the entry's URL held a ticket), nothing in them may run or be framed.
     */
    public static Map<String, String> appOwn(boolean secure) {
        Map<String, String> out = new LinkedHashMap<>();
        out.put("X-Content-Type-Options", "nosniff");
        out.put("Referrer-Policy", "no-referrer");
        out.put("Cache-Control", "no-store");
        out.put("Content-Security-Policy", BACKEND_CSP);
        if (secure) {
            out.put("Strict-Transport-Security", APP_HSTS);
        }
        return out;
    }

    /** What the proxy adds to an app's own answers: HSTS over TLS, unless the app sets its own; nothing else. */
    public static Map<String, String> appProxied(boolean secure) {
        return secure ? Map.of("Strict-Transport-Security", APP_HSTS) : Map.of();
    }
}
