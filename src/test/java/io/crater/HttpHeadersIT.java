package io.crater;

import static org.assertj.core.api.Assertions.assertThat;

import io.crater.platform.HeaderPolicy;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The packaged application's answers carry the caching, compression and security headers a real deployment
 * needs, checked on each kind of answer: the console's index and its routes, a hashed asset, an API answer, a
 * problem answer, the event stream, health.
 */
class HttpHeadersIT {

    static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
    static PackagedApp app;
    static String token;

    @BeforeAll
    static void start() throws Exception {
        app = new PackagedApp(TestDirs.create("crater-headers")).start();
        String[] admin = app.initialAdmin();
        token = app.login(admin[0], admin[1]);
    }

    @AfterAll
    static void stop() throws Exception {
        app.close();
    }

    static HttpResponse<byte[]> get(String path, String accept, boolean auth) throws Exception {
        HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(app.url() + path))
                .header("Accept-Encoding", "gzip")
                .header("Accept", accept)
                .timeout(Duration.ofSeconds(30));
        if (auth) {
            req.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(req.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    static String text(HttpResponse<byte[]> r) throws Exception {
        boolean gzip = r.headers().firstValue("Content-Encoding").orElse("").equals("gzip");
        try (InputStream in =
                gzip ? new GZIPInputStream(new ByteArrayInputStream(r.body())) : new ByteArrayInputStream(r.body())) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static void secured(HttpResponse<?> r) {
        assertThat(r.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
        assertThat(r.headers().firstValue("Referrer-Policy")).hasValue("strict-origin-when-cross-origin");
        assertThat(r.headers().firstValue("Content-Security-Policy"))
                .hasValueSatisfying(v -> assertThat(v).contains("frame-ancestors 'none'"));
        assertThat(r.headers().firstValue("Strict-Transport-Security"))
                .as("plain HTTP asks for no HSTS")
                .isEmpty();
    }

    @Test
    void theIndexIsRevalidatedCompressedAndLockedDown() throws Exception {
        for (String path : new String[] {"/", "/jobs/42"}) {
            HttpResponse<byte[]> r = get(path, "text/html", false);
            assertThat(r.statusCode()).as(path).isEqualTo(200);
            secured(r);
            assertThat(r.headers().firstValue("Cache-Control")).as(path).hasValue(HeaderPolicy.REVALIDATE);
            assertThat(r.headers().firstValue("Content-Security-Policy")).hasValue(HeaderPolicy.CONSOLE_CSP);
            assertThat(r.headers().firstValue("X-Frame-Options")).hasValue("DENY");
            if (path.equals("/")) {
                // a console route's index comes from the not-found mapper, which Quarkus does not compress (456 bytes)
                assertThat(r.headers().firstValue("Content-Encoding")).as(path).hasValue("gzip");
            }
            assertThat(text(r)).contains("<div id=\"root\">");
        }
    }

    @Test
    void hashedAssetsAreImmutableAndCompressed() throws Exception {
        String index = text(get("/", "text/html", false));
        Matcher m = Pattern.compile("/assets/[^\"]+\\.js").matcher(index);
        assertThat(m.find()).as("the index names its script: " + index).isTrue();
        HttpResponse<byte[]> r = get(m.group(), "*/*", false);
        assertThat(r.statusCode()).isEqualTo(200);
        secured(r);
        assertThat(r.headers().firstValue("Cache-Control")).hasValue(HeaderPolicy.HASHED_ASSET);
        assertThat(r.headers().firstValue("Content-Encoding")).hasValue("gzip");
        long plain = text(r).getBytes(StandardCharsets.UTF_8).length;
        assertThat((long) r.body().length).as("sent compressed").isLessThan(plain / 2);
        System.out.printf("console script: %d KiB plain, %d KiB sent%n", plain / 1024, r.body().length / 1024);
    }

    @Test
    void apiAnswersAreCompressedAndSandboxed() throws Exception {
        HttpResponse<byte[]> me = get("/api/v1/me", "application/json", true);
        assertThat(me.statusCode()).isEqualTo(200);
        secured(me);
        assertThat(me.headers().firstValue("Content-Security-Policy")).hasValue(HeaderPolicy.BACKEND_CSP);
        assertThat(me.headers().firstValue("Content-Encoding")).hasValue("gzip");
        assertThat(text(me)).contains("\"username\":\"admin\"");

        HttpResponse<byte[]> problem = get("/api/v1/me", "application/json", false);
        assertThat(problem.statusCode()).isEqualTo(401);
        secured(problem);

        HttpResponse<byte[]> health = get("/q/health/ready", "application/json", false);
        secured(health);
        assertThat(text(health)).contains("UP");
    }

    @Test
    void theEventStreamIsNeverCompressed() throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create(app.url() + "/api/v1/events?topics=jobs"))
                .header("Accept-Encoding", "gzip")
                .header("Accept", "text/event-stream")
                .header("Authorization", "Bearer " + token)
                .timeout(Duration.ofSeconds(30))
                .build();
        HttpResponse<InputStream> r = HTTP.send(req, HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream body = r.body()) {
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue("Content-Type"))
                    .hasValueSatisfying(v -> assertThat(v).startsWith("text/event-stream"));
            assertThat(r.headers().firstValue("Content-Encoding")).isEmpty();
            secured(r);
        }
    }

    /**
     * On an app origin Crater's own answers (here: a request without the app's session, and an entry without its
     * ticket) are locked down, and carry none of the console's framing or script rules an app would break on.
     */
    @Test
    void cratersOwnAnswersOnAnAppOriginAreLockedDown() throws Exception {
        String served = app.output().stream()
                .filter(l -> l.contains("app origins served at http://<job>.apps.localhost:"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("the app origins' port is not in the log"));
        Matcher port = Pattern.compile("apps\\.localhost:(\\d+)").matcher(served);
        assertThat(port.find()).isTrue();
        for (String path : new String[] {"/", "/_crater/enter"}) {
            String head = rawHead(Integer.parseInt(port.group(1)), "j0nope.apps.localhost:" + port.group(1), path);
            assertThat(head).as(path).matches("(?s)HTTP/1\\.1 4\\d\\d .*");
            assertThat(head.toLowerCase(java.util.Locale.ROOT))
                    .as(path)
                    .contains("x-content-type-options: nosniff")
                    .contains("referrer-policy: no-referrer")
                    .contains("cache-control: no-store")
                    .contains("content-security-policy: " + HeaderPolicy.BACKEND_CSP.toLowerCase(java.util.Locale.ROOT))
                    .doesNotContain("strict-transport-security")
                    .doesNotContain("x-frame-options");
        }
    }

    /** The status line and headers of a GET sent with the given Host (Java's HTTP client will not set one). */
    static String rawHead(int port, String host, String path) throws Exception {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
            socket.setSoTimeout(30_000);
            socket.getOutputStream()
                    .write(("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
            String all = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int end = all.indexOf("\r\n\r\n");
            return end < 0 ? all : all.substring(0, end);
        }
    }
}
