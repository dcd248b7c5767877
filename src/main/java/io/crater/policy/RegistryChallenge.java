package io.crater.policy;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A registry's {@code WWW-Authenticate} challenge (RFC 9110 section 11.6.1), as the distribution specification's
 * token flow uses it: {@code Bearer realm="https://auth.example.org/token",service="registry",scope="repository:a/b:pull"}
 * sends the client to the realm for a token; {@code Basic realm="…"} asks for the username and password on every
 * request.
 */
public record RegistryChallenge(String scheme, Map<String, String> params) {

    /** The challenge read, or null when the header names no scheme. Parameter names are read in lowercase. */
    public static RegistryChallenge parse(String header) {
        if (header == null || header.isBlank()) {
            return null;
        }
        String h = header.trim();
        int space = h.indexOf(' ');
        String scheme = (space < 0 ? h : h.substring(0, space)).toLowerCase(Locale.ROOT);
        Map<String, String> params = new LinkedHashMap<>();
        int i = space < 0 ? h.length() : space + 1;
        while (i < h.length()) {
            while (i < h.length() && (h.charAt(i) == ' ' || h.charAt(i) == ',')) {
                i++;
            }
            int eq = h.indexOf('=', i);
            if (eq < 0) {
                break;
            }
            String name = h.substring(i, eq).trim().toLowerCase(Locale.ROOT);
            StringBuilder value = new StringBuilder();
            i = eq + 1;
            if (i < h.length() && h.charAt(i) == '"') {
                i++;
                while (i < h.length() && h.charAt(i) != '"') {
                    if (h.charAt(i) == '\\' && i + 1 < h.length()) {
                        i++;
                    }
                    value.append(h.charAt(i++));
                }
                i++;
            } else {
                while (i < h.length() && h.charAt(i) != ',') {
                    value.append(h.charAt(i++));
                }
            }
            params.put(name, value.toString().trim());
        }
        return new RegistryChallenge(scheme, Map.copyOf(params));
    }

    public boolean bearer() {
        return "bearer".equals(scheme) && params.containsKey("realm");
    }

    public boolean basic() {
        return "basic".equals(scheme);
    }

    /**
     * The token request for pulling {@code repository}: the realm with {@code service} (when the challenge names
     * one) and the scope asked for, {@code repository:<name>:pull} unless the challenge names its own.
     */
    public String tokenUrl(String repository) {
        String realm = params.get("realm");
        StringBuilder url = new StringBuilder(realm).append(realm.contains("?") ? '&' : '?');
        String service = params.get("service");
        if (service != null && !service.isEmpty()) {
            url.append("service=").append(encode(service)).append('&');
        }
        String scope = params.getOrDefault("scope", "repository:" + repository + ":pull");
        return url.append("scope=").append(encode(scope)).toString();
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
