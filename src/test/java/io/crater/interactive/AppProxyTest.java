package io.crater.interactive;

import static io.crater.Api.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.crater.Api;
import io.crater.CraterTestResource;
import io.crater.Floods;
import io.crater.job.Flows;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.http.UpgradeRejectedException;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.SocketAddress;
import jakarta.inject.Inject;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The app proxy end to end: a JupyterLab job in the simulated cluster whose port 8888 is backed by a real local
 * server standing in for JupyterLab, reached on the job's own origin ({@code <job>.apps.localhost}) through
 * {@code pods/portforward}. Java cannot resolve {@code *.localhost}, so requests go to 127.0.0.1 with the Host set.
 */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class AppProxyTest {

    static final String PW = "Apps-pass-2026";
    static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    Vertx vertx;

    @Inject
    AppProxy proxy;

    static String owner;
    static String other;
    static String job;
    static String otherJob;

    HttpServer app;
    HttpServer tensorboard;
    final CompletableFuture<Void> releaseStream = new CompletableFuture<>();
    HttpClient client;
    final CompletableFuture<Void> appSocketClosed = new CompletableFuture<>();

    @BeforeEach
    void setUp() throws Exception {
        client = vertx.createHttpClient();
        if (job == null) {
            owner = Api.user("wren", PW);
            other = Api.user("xavi", PW);
            Flows.account(
                    "apps", List.of(Flows.line("cpu", "8", "8"), Flows.line("memory", "32Gi", "32Gi")), "wren", "xavi");
            String mine = notebook(owner, "nb");
            otherJob = notebook(other, "theirs");
            Flows.awaitRunning(owner, mine);
            Flows.awaitRunning(other, otherJob);
            job = mine;
        }
        // A real server stands in for JupyterLab inside the pod.
        app = vertx.createHttpServer()
                .webSocketHandler(ws -> {
                    if (ws.path().equals("/flood")) {
                        Floods.send(ws);
                        return;
                    }
                    ws.closeHandler(v -> appSocketClosed.complete(null));
                    ws.textMessageHandler(t -> ws.writeTextMessage("echo:" + t));
                })
                .requestHandler(r -> {
                    switch (r.path()) {
                        case "/api" -> r.response().end("{\"version\":\"test\"}");
                        case "/headers" -> {
                            JsonObject h = new JsonObject();
                            r.headers().forEach((k, v) -> h.put(k.toLowerCase(), v));
                            r.response()
                                    .putHeader(
                                            (String) "Set-Cookie",
                                            List.<String>of(
                                                    "_xsrf=abc; Path=/",
                                                    "spread=1; Domain=apps.localhost; Path=/",
                                                    "crater_app=forged; Path=/"))
                                    .end(h.encode());
                        }
                        case "/stream" -> {
                            r.response().setChunked(true).write("first\n");
                            releaseStream.thenRun(
                                    () -> vertx.runOnContext(v -> r.response().end("second\n")));
                        }
                        case "/upload" -> r.body().onSuccess(b -> r.response().end("got " + b.length()));
                        default -> r.response().end("app saw " + r.uri());
                    }
                })
                .listen(0, "127.0.0.1")
                .toCompletionStage()
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
        tensorboard = vertx.createHttpServer()
                .requestHandler(r -> r.response().end("tensorboard saw " + r.uri()))
                .listen(0, "127.0.0.1")
                .toCompletionStage()
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
        var sim = CraterTestResource.simulator();
        sim.backPort("crater-jobs", pod(job), 8888, new InetSocketAddress("127.0.0.1", app.actualPort()));
        sim.backPort("crater-jobs", pod(job), 6006, new InetSocketAddress("127.0.0.1", tensorboard.actualPort()));
    }

    @AfterEach
    void tearDown() {
        var sim = CraterTestResource.simulator();
        sim.removeBackPort("crater-jobs", pod(job), 8888);
        sim.removeBackPort("crater-jobs", pod(job), 6006);
        app.close();
        tensorboard.close();
        client.close();
    }

    static String pod(String id) {
        return "c-" + id + "-main-0";
    }

    static String notebook(String token, String name) {
        return Flows.submit(
                token,
                "apps",
                Map.of(
                        "name",
                        name,
                        "kind",
                        "jupyter",
                        "env",
                        Map.of("SIM_DURATION", "30m"),
                        "resources",
                        Map.of("cpu", "1", "memory", "2Gi")));
    }

    /** A response read whole. */
    record Answer(int status, MultiMap headers, String body) {}

    Answer call(String id, HttpMethod method, String uri, Map<String, String> headers, Buffer body) throws Exception {
        RequestOptions o = new RequestOptions()
                .setServer(SocketAddress.inetSocketAddress(proxy.port(), "127.0.0.1"))
                .setHost(id + ".apps.localhost")
                .setPort(proxy.port())
                .setMethod(method)
                .setURI(uri);
        headers.forEach(o::addHeader);
        return client.request(o)
                .compose(r -> body == null ? r.send() : r.send(body))
                .compose(r -> r.body().map(b -> new Answer(r.statusCode(), r.headers(), b.toString())))
                .toCompletionStage()
                .toCompletableFuture()
                .get(20, TimeUnit.SECONDS);
    }

    Answer get(String uri, Map<String, String> headers) throws Exception {
        return call(job, HttpMethod.GET, uri, headers, null);
    }

    /** Opens the app as the owner: the session cookie on the job's origin. */
    String enter() throws Exception {
        return enter(job);
    }

    /** Opens the app of the owner's job {@code job}: the session cookie on the job's origin. */
    String enter(String job) throws Exception {
        // "Open" is offered once the app answers its readiness path: until then the answer is 409 AppNotReady.
        String[] opened = new String[1];
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            var r = as(owner).post("/api/v1/jobs/" + job + "/open").then().extract();
            if (r.statusCode() == 409 && "AppNotReady".equals(r.path("code"))) {
                return false;
            }
            assertThat(r.statusCode()).as(r.body().asString()).isEqualTo(200);
            opened[0] = r.path("url");
            return true;
        });
        String url = opened[0];
        assertThat(url).startsWith("http://" + job + ".apps.localhost:" + proxy.port() + "/_crater/enter?ticket=");
        String path = url.substring(url.indexOf("/_crater"));
        Answer entered = call(job, HttpMethod.GET, path, Map.of(), null);
        assertThat(entered.status()).isEqualTo(303);
        assertThat(entered.headers().get("Location")).isEqualTo("/");
        String cookie = entered.headers().get("Set-Cookie");
        assertThat(cookie).contains("HttpOnly").contains("SameSite=Lax").doesNotContain("Domain");
        // The ticket is good once.
        assertThat(call(job, HttpMethod.GET, path, Map.of(), null).status()).isEqualTo(403);
        return cookie.substring(0, cookie.indexOf(';'));
    }

    @Test
    void theOwnerEntersWithATicketAndTheAppNeverSeesCratersCredentials() throws Exception {
        String cookie = enter();
        Answer lab = get("/lab?reset", Map.of("Cookie", cookie));
        assertThat(lab.status()).isEqualTo(200);
        assertThat(lab.body()).isEqualTo("app saw /lab?reset");

        String apiToken = owner;
        Answer h = get(
                "/headers",
                Map.of(
                        "Cookie",
                        cookie + "; crater_access=" + apiToken + "; theme=dark",
                        "Authorization",
                        "Bearer " + apiToken,
                        "X-Forwarded-For",
                        "6.6.6.6",
                        "X-Forwarded-Host",
                        "evil.example"));
        JsonNode seen = JSON.readTree(h.body());
        assertThat(seen.path("cookie").asText()).isEqualTo("theme=dark");
        assertThat(seen.path("authorization").asText()).startsWith("token ").doesNotContain(apiToken);
        assertThat(seen.path("x-forwarded-for").asText()).isEqualTo("127.0.0.1");
        assertThat(seen.path("x-forwarded-host").asText()).isEqualTo(job + ".apps.localhost:" + proxy.port());
        assertThat(seen.path("host").asText()).isEqualTo(job + ".apps.localhost:" + proxy.port());
        // The app's own cookie passes; one for every job's origin, or in Crater's name, does not.
        assertThat(h.headers().getAll("Set-Cookie")).containsExactly("_xsrf=abc; Path=/");

        // Any port of the job under /port/<n>/, the prefix stripped.
        Answer tb;
        try {
            tb = get("/port/6006/data/runs?x=1", Map.of("Cookie", cookie));
        } catch (java.util.concurrent.TimeoutException e) {
            // Whether the same request then succeeds tells a lost frame from a broken path.
            Object again;
            try {
                again = get("/port/6006/data/runs?x=1", Map.of("Cookie", cookie));
            } catch (Exception second) {
                again = second;
            }
            throw new AssertionError("no answer on /port/6006/ within 20 s; the same request again: " + again, e);
        }
        assertThat(tb.body()).isEqualTo("tensorboard saw /data/runs?x=1");

        // A request body streams through.
        Answer up = call(job, HttpMethod.POST, "/upload", Map.of("Cookie", cookie), Buffer.buffer(new byte[300_000]));
        assertThat(up.body()).isEqualTo("got 300000");
    }

    @Test
    void responsesStreamWithoutBuffering() throws Exception {
        String cookie = enter();
        RequestOptions o = new RequestOptions()
                .setServer(SocketAddress.inetSocketAddress(proxy.port(), "127.0.0.1"))
                .setHost(job + ".apps.localhost")
                .setPort(proxy.port())
                .setURI("/stream")
                .addHeader("Cookie", cookie);
        CompletableFuture<String> first = new CompletableFuture<>();
        StringBuilder all = new StringBuilder();
        CompletableFuture<String> end = new CompletableFuture<>();
        client.request(o).compose(r -> r.send()).onSuccess(resp -> {
            resp.handler(b -> {
                synchronized (all) {
                    all.append(b.toString());
                    first.complete(all.toString());
                }
            });
            resp.endHandler(v -> end.complete(all.toString()));
        });
        // The first chunk arrives while the app is still holding the rest back.
        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("first\n");
        assertThat(end).isNotDone();
        releaseStream.complete(null);
        assertThat(end.get(10, TimeUnit.SECONDS)).isEqualTo("first\nsecond\n");
    }

    @Test
    void aSessionEndsWithItsJob() throws Exception {
        String nb = notebook(owner, "short");
        Flows.awaitRunning(owner, nb);
        var sim = CraterTestResource.simulator();
        sim.backPort("crater-jobs", pod(nb), 8888, new InetSocketAddress("127.0.0.1", app.actualPort()));
        try {
            String cookie = enter(nb);
            Answer before = call(nb, HttpMethod.GET, "/lab", Map.of("Cookie", cookie), null);
            assertThat(before.status()).isEqualTo(200);
            as(owner).post("/api/v1/jobs/" + nb + "/stop").then().statusCode(200);
            // Refused once the proxy checks the session again (crater.apps.access-check-ttl, 5 s by default).
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                Answer after = call(nb, HttpMethod.GET, "/lab", Map.of("Cookie", cookie), null);
                assertThat(after.status()).isEqualTo(409);
                assertThat(after.body()).contains("only a running job can be reached");
            });
        } finally {
            sim.removeBackPort("crater-jobs", pod(nb), 8888);
        }
    }

    @Test
    void nobodyElseGetsInAndTokensDoNotCrossOrigins() throws Exception {
        // No cookie, or an API token instead of one: nothing.
        assertThat(get("/lab", Map.of()).status()).isEqualTo(401);
        assertThat(get("/lab", Map.of("Authorization", "Bearer " + owner)).status())
                .isEqualTo(401);
        // Another member may not open someone else's notebook.
        as(other).post("/api/v1/jobs/" + job + "/open").then().statusCode(403);
        // The owner's cookie is for this job's origin only.
        String cookie = enter();
        assertThat(call(otherJob, HttpMethod.GET, "/lab", Map.of("Cookie", cookie), null)
                        .status())
                .isEqualTo(401);
        // The app session's token is no API token.
        String appToken = cookie.substring(cookie.indexOf('=') + 1);
        as(appToken).get("/api/v1/me").then().statusCode(401);
        // Unknown hosts are nobody's app.
        assertThat(call("jnotajob", HttpMethod.GET, "/lab", Map.of("Cookie", cookie), null)
                        .status())
                .isEqualTo(401);
    }

    @Test
    void traversalAndSmugglingAreRefused() throws Exception {
        String cookie = enter();
        assertThat(get("/lab/%2e%2e/%2e%2e/etc/passwd", Map.of("Cookie", cookie))
                        .status())
                .isEqualTo(400);
        assertThat(get("/port/6006/..%2f..%2fsecret", Map.of("Cookie", cookie)).status())
                .isEqualTo(400);
        assertThat(get("/lab\\..\\x", Map.of("Cookie", cookie)).status()).isEqualTo(400);
        // Both a length and chunked encoding: refused before anything reaches the app.
        try (var socket = new java.net.Socket("127.0.0.1", proxy.port())) {
            socket.getOutputStream()
                    .write(("POST /upload HTTP/1.1\r\nHost: " + job + ".apps.localhost\r\nCookie: " + cookie
                                    + "\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /lab HTTP/1.1\r\n\r\n")
                            .getBytes());
            socket.setSoTimeout(5000);
            String head = new String(socket.getInputStream().readNBytes(12));
            assertThat(head).isEqualTo("HTTP/1.1 400");
        }
    }

    @Test
    void webSocketsAreBridgedAndCrossSiteOnesRefused() throws Exception {
        String cookie = enter();
        String origin = "http://" + job + ".apps.localhost:" + proxy.port();
        WebSocketConnectOptions o = new WebSocketConnectOptions()
                .setHost("127.0.0.1")
                .setPort(proxy.port())
                .setURI("/api/kernels/k1/channels")
                .addHeader("Host", job + ".apps.localhost:" + proxy.port())
                .addHeader("Cookie", cookie)
                .addHeader("Origin", origin);
        var ws = vertx.createWebSocketClient()
                .connect(o)
                .toCompletionStage()
                .toCompletableFuture()
                .get(20, TimeUnit.SECONDS);
        CompletableFuture<String> reply = new CompletableFuture<>();
        ws.textMessageHandler(reply::complete);
        ws.writeTextMessage("hello");
        assertThat(reply.get(10, TimeUnit.SECONDS)).isEqualTo("echo:hello");
        ws.close();
        appSocketClosed.get(10, TimeUnit.SECONDS); // the browser's close reaches the app

        // An app that sends faster than the browser reads, then closes: every frame arrives, then the close.
        o.setURI("/flood");
        assertThat(Floods.readSlowly(vertx, o)).isEqualTo(Floods.total());

        o.getHeaders().set("Origin", "https://evil.example");
        try {
            vertx.createWebSocketClient()
                    .connect(o)
                    .toCompletionStage()
                    .toCompletableFuture()
                    .get(20, TimeUnit.SECONDS);
            throw new AssertionError("a cross-site WebSocket got through");
        } catch (ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(UpgradeRejectedException.class);
            assertThat(((UpgradeRejectedException) e.getCause()).getStatus()).isEqualTo(403);
        }
    }
}
