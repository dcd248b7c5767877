package io.crater.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URL;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.function.LongConsumer;

/**
 * The HTTP API as the client sees it: JSON in, plain maps and lists out, every failure a {@link CliException}
 * carrying the problem's words and the documented exit code. One instance per command run.
 */
public final class Api {

    /** An answer that is not JSON (logs, YAML, a file). */
    public record Raw(int status, String contentType, byte[] body, Map<String, List<String>> headers) {

        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        public String header(String name) {
            List<String> v = headers.get(name.toLowerCase(Locale.ROOT));
            return v == null || v.isEmpty() ? null : v.get(0);
        }
    }

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

    private final URI base;
    private final String token;
    private final String account;
    private final Problems problems;

    public Api(String server, String token, String account, Problems problems) {
        this.base = URI.create(server.endsWith("/") ? server : server + "/");
        this.token = token;
        this.account = account;
        this.problems = problems;
    }

    public String server() {
        String s = base.toString();
        return s.substring(0, s.length() - 1);
    }

    public String account() {
        return account;
    }

    /** GET, the JSON body parsed. */
    public Object get(String path, Map<String, ?> query) {
        return json(send("GET", path + query(query), null, null, Map.of()));
    }

    public Object get(String path) {
        return get(path, Map.of());
    }

    /** POST a JSON body (or none), the JSON answer parsed (null for 204). */
    public Object post(String path, Object body) {
        return json(send("POST", path, body == null ? null : write(body), "application/json", Map.of()));
    }

    public Object put(String path, Object body) {
        return json(send("PUT", path, write(body), "application/json", Map.of()));
    }

    public Object patch(String path, Object body) {
        return json(send("PATCH", path, write(body), "application/json", Map.of()));
    }

    public Object delete(String path) {
        return json(send("DELETE", path, null, null, Map.of()));
    }

    /** Any request; a status of 400 or more becomes a {@link CliException} with the problem's words. */
    public Raw send(String method, String path, byte[] body, String contentType, Map<String, String> headers) {
        if (method.equals("PATCH")) {
            return patchWithHttpClient(path, body, contentType, headers);
        }
        HttpURLConnection c = open(path, "application/json, application/problem+json", headers);
        try {
            c.setRequestMethod(method);
            c.setReadTimeout((int) TIMEOUT.toMillis());
            if (body != null) {
                c.setDoOutput(true);
                c.setRequestProperty("Content-Type", contentType);
                try (OutputStream o = c.getOutputStream()) {
                    o.write(body);
                }
            }
            int status = c.getResponseCode();
            InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream();
            byte[] bytes = in == null ? new byte[0] : in.readAllBytes();
            if (in != null) {
                in.close();
            }
            Raw raw = new Raw(status, c.getContentType() == null ? "" : c.getContentType(), bytes, headers(c));
            if (status >= 400) {
                throw problems.error(raw);
            }
            return raw;
        } catch (IOException e) {
            throw failure(e);
        }
    }

    /** A streamed GET (server-sent events, a followed log): the open body; the caller closes it. */
    public InputStream stream(String path, Map<String, ?> query, String accept) {
        HttpURLConnection c = open(path + query(query), accept, Map.of());
        try {
            c.setReadTimeout(0);
            int status = c.getResponseCode();
            if (status >= 400) {
                InputStream err = c.getErrorStream();
                byte[] bytes = err == null ? new byte[0] : err.readAllBytes();
                throw problems.error(
                        new Raw(status, c.getContentType() == null ? "" : c.getContentType(), bytes, headers(c)));
            }
            return c.getInputStream();
        } catch (IOException e) {
            throw failure(e);
        }
    }

    /**
     * PUT a local file as the body, streamed from the disk with its size in {@code Content-Length} after the
     * server's {@code 100 Continue} ({@link HttpUpload}): a refusal such as a quota answers before a byte is sent.
     * {@code sent} hears how many bytes have gone so far. The JSON answer parsed.
     */
    public Object upload(String path, Map<String, ?> query, java.nio.file.Path file, LongConsumer sent) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Accept", "application/json, application/problem+json");
        headers.put("Content-Type", "application/octet-stream");
        headers.put("User-Agent", "crater-cli/" + Version.number());
        if (token != null) {
            headers.put("Authorization", "Bearer " + token);
        }
        if (account != null) {
            headers.put("X-Crater-Account", account);
        }
        try {
            HttpUpload.Answer a = HttpUpload.put(base.resolve((path + query(query)).substring(1)), headers, file, sent);
            Raw raw = new Raw(a.status(), a.contentType(), a.body(), a.headers());
            if (a.status() >= 400) {
                throw problems.error(raw);
            }
            return json(raw);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new CliException(Exit.NOT_FOUND, "no file " + file);
        } catch (IOException e) {
            throw failure(e);
        }
    }

    private HttpURLConnection open(String path, String accept, Map<String, String> headers) {
        try {
            URL url = base.resolve(path.startsWith("/") ? path.substring(1) : path)
                    .toURL();
            HttpURLConnection c = (HttpURLConnection) url.openConnection();
            c.setInstanceFollowRedirects(false);
            c.setConnectTimeout((int) CONNECT_TIMEOUT.toMillis());
            c.setUseCaches(false);
            c.setRequestProperty("Accept", accept);
            c.setRequestProperty("User-Agent", "crater-cli/" + Version.number());
            if (token != null) {
                c.setRequestProperty("Authorization", "Bearer " + token);
            }
            if (account != null) {
                c.setRequestProperty("X-Crater-Account", account);
            }
            headers.forEach(c::setRequestProperty);
            return c;
        } catch (IOException | IllegalArgumentException e) {
            throw new CliException(Exit.USAGE, problems.unreachable(server()) + " (" + e.getMessage() + ")");
        }
    }

    private static Map<String, List<String>> headers(HttpURLConnection c) {
        Map<String, List<String>> m = new LinkedHashMap<>();
        c.getHeaderFields().forEach((k, v) -> {
            if (k != null) {
                m.put(k.toLowerCase(Locale.ROOT), v);
            }
        });
        return m;
    }

    private CliException failure(IOException e) {
        if (e instanceof java.net.SocketTimeoutException) {
            return new CliException(Exit.ERROR, problems.timedOut(server()));
        }
        if (e instanceof java.net.ConnectException || e instanceof java.net.UnknownHostException) {
            return new CliException(Exit.ERROR, problems.unreachable(server()));
        }
        return new CliException(Exit.ERROR, problems.unreachable(server()) + " (" + e.getMessage() + ")");
    }

    /** HttpURLConnection knows no PATCH: the JDK's HttpClient sends those few (its TLS set-up is slower to load). */
    private Raw patchWithHttpClient(String path, byte[] body, String contentType, Map<String, String> headers) {
        java.net.http.HttpRequest.Builder b = java.net.http.HttpRequest.newBuilder(
                        base.resolve(path.startsWith("/") ? path.substring(1) : path))
                .timeout(TIMEOUT)
                .header("Accept", "application/json, application/problem+json")
                .header("User-Agent", "crater-cli/" + Version.number())
                .method("PATCH", java.net.http.HttpRequest.BodyPublishers.ofByteArray(body));
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        if (account != null) {
            b.header("X-Crater-Account", account);
        }
        headers.forEach(b::header);
        try {
            java.net.http.HttpResponse<byte[]> r = java.net.http.HttpClient.newBuilder()
                    .version(java.net.http.HttpClient.Version.HTTP_1_1)
                    .connectTimeout(CONNECT_TIMEOUT)
                    .build()
                    .send(b.build(), java.net.http.HttpResponse.BodyHandlers.ofByteArray());
            Map<String, List<String>> h = new LinkedHashMap<>();
            r.headers().map().forEach((k, v) -> h.put(k.toLowerCase(Locale.ROOT), v));
            Raw raw = new Raw(
                    r.statusCode(), r.headers().firstValue("content-type").orElse(""), r.body(), h);
            if (r.statusCode() >= 400) {
                throw problems.error(raw);
            }
            return raw;
        } catch (IOException e) {
            throw failure(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(Exit.ERROR, "interrupted");
        }
    }

    static Object json(Raw raw) {
        if (raw.body().length == 0) {
            return null;
        }
        try {
            return Json.parse(raw.body());
        } catch (IOException e) {
            throw new CliException(Exit.ERROR, "the server answered something that is not JSON: " + e.getMessage());
        }
    }

    static byte[] write(Object body) {
        return Json.bytes(body);
    }

    /** {@code ?a=1&b=x}, leaving out null values; a collection repeats its key. */
    static String query(Map<String, ?> query) {
        StringJoiner j = new StringJoiner("&", "?", "");
        j.setEmptyValue("");
        for (Map.Entry<String, ?> e : new LinkedHashMap<>(query).entrySet()) {
            Object v = e.getValue();
            if (v instanceof Iterable<?> many) {
                many.forEach(one -> j.add(encode(e.getKey()) + "=" + encode(one.toString())));
            } else if (v != null && !(v instanceof Boolean b && !b)) {
                j.add(encode(e.getKey()) + "=" + encode(v.toString()));
            }
        }
        return j.toString();
    }

    /** One path segment, percent-encoded. */
    public static String seg(String s) {
        return encode(s).replace("+", "%20");
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
