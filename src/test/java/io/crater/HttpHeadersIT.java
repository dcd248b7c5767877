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
}
