package io.crater.bench;

import static io.crater.Api.as;
import static org.awaitility.Awaitility.await;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.crater.interactive.AppProxy;
import io.crater.interactive.OpenSsh;
import io.crater.interactive.SshGateway;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.net.SocketAddress;
import jakarta.inject.Inject;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Figures of the interactive paths on this machine (run by {@code make bench}, never by {@code make test}), side by
 * side in one run: the app proxy's added latency and throughput against a direct connection to the same server,
 * and how many terminal sessions one server holds with the memory each takes and the bytes/s through one.
 */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class InteractiveBench {

    static final String PW = "Interactive-bench-2026";
    static final int REQUESTS = 2000;
    static final int DOWNLOAD_MB = 64;
    /** Terminal sessions held open at once ({@code -Dbench.terminals=N}). */
    static final int SESSIONS = Integer.getInteger("bench.terminals", 2000);

    @TestHTTPResource("/")
    URL base;

    @Inject
    Vertx vertx;

    @Inject
    AppProxy proxy;

    @Inject
    SshGateway gateway;

    @Test
    void interactive() throws Exception {
        String token = Api.user("bench.interactive", PW);
        io.crater.job.Flows.account(
                "bench-int",
                List.of(io.crater.job.Flows.line("cpu", "8", "8"), io.crater.job.Flows.line("memory", "32Gi", "32Gi")),
                "bench.interactive");
        String job = as(token)
                .header("X-Crater-Account", "bench-int")
                .body(Map.of(
                        "name",
                        "bench",
                        "kind",
                        "jupyter",
                        "env",
                        Map.of("SIM_DURATION", "2h"),
                        "resources",
                        Map.of("cpu", "1", "memory", "2Gi")))
                .post("/api/v1/jobs")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        await().atMost(Duration.ofSeconds(60))
                .until(() -> "Running"
                        .equals(as(token)
                                .get("/api/v1/jobs/" + job)
                                .then()
                                .extract()
                                .path("job.state")));

        byte[] mb = new byte[1 << 20];
        HttpServer app = vertx.createHttpServer()
                .requestHandler(r -> {
                    if (r.path().equals("/mib")) {
                        r.response()
                                .putHeader("Content-Length", Integer.toString(mb.length))
                                .end(Buffer.buffer(mb));
                    } else if (r.path().equals("/download")) {
                        var resp = r.response().putHeader("Content-Length", Long.toString((long) DOWNLOAD_MB << 20));
                        write(resp, Buffer.buffer(mb), DOWNLOAD_MB);
                    } else {
                        r.response().end("ok");
                    }
                })
                .listen(0, "127.0.0.1")
                .toCompletionStage()
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
        CraterTestResource.simulator()
                .backPort(
                        "crater-jobs",
                        "c-" + job + "-main-0",
                        8888,
                        new InetSocketAddress("127.0.0.1", app.actualPort()));

        String url = as(token)
                .post("/api/v1/jobs/" + job + "/open")
                .then()
                .statusCode(200)
                .extract()
                .path("url");
        HttpClient client = vertx.createHttpClient(
                new HttpClientOptions().setKeepAlive(true).setMaxPoolSize(1));
        String cookie = client.request(proxied(job, url.substring(url.indexOf("/_crater"))))
                .compose(r -> r.send())
                .map(r -> r.getHeader("Set-Cookie"))
                .toCompletionStage()
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
        cookie = cookie.substring(0, cookie.indexOf(';'));

        System.out.printf(
                "interactive machine: %d cores, JVM %s%n",
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
        RequestOptions direct = new RequestOptions()
                .setHost("127.0.0.1")
                .setPort(app.actualPort())
                .setURI("/ping");
        RequestOptions viaProxy = proxied(job, "/ping").addHeader("Cookie", cookie);
        latency(client, direct, 200); // warm-up
        latency(client, viaProxy, 200);
        List<Double> d = latency(client, direct, REQUESTS);
        List<Double> p = latency(client, viaProxy, REQUESTS);
        System.out.printf(
                "interactive proxy latency (%d sequential GETs, keep-alive): direct p50 %.2f ms p99 %.2f ms;"
                        + " through the proxy p50 %.2f ms p99 %.2f ms; added p50 %.2f ms%n",
                REQUESTS, pct(d, 50), pct(d, 99), pct(p, 50), pct(p, 99), pct(p, 50) - pct(d, 50));
        double directMBs = download(
                client,
                new RequestOptions()
                        .setHost("127.0.0.1")
                        .setPort(app.actualPort())
                        .setURI("/download"));
        double proxyMBs = download(client, proxied(job, "/download").addHeader("Cookie", cookie));
        System.out.printf(
                "interactive proxy throughput (%d MB download): direct %.0f MB/s, through the proxy %.0f MB/s%n",
                DOWNLOAD_MB, directMBs, proxyMBs);

        terminals(token, job);
        ssh(token, job);
        forwards(token, job);
        client.close();
        app.close();
    }

    /**
     * Bytes/s through the SSH gateway with Debian's OpenSSH client: a download through {@code ssh -W} (a
     * {@code direct-tcpip} channel carried by {@code pods/portforward} to the job's port 8888), and {@code scp} of a
     * file into and out of the user's space (SFTP).
     */
    void ssh(String token, String job) throws Exception {
        OpenSsh openssh = new OpenSsh(gateway.port());
        openssh.keygen("bench");
        openssh.register(token, "bench");
        String login = "bench.interactive+" + job;
        Path out = Files.createTempFile("crater-bench-ssh", ".out");
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(openssh.ssh("bench", login, "-W", "localhost:8888"))
                .redirectOutput(out.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        p.getOutputStream()
                .write("GET /download HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                        .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        p.getOutputStream().close();
        if (!p.waitFor(300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("ssh -W did not end");
        }
        double forwardS = (System.nanoTime() - t0) / 1e9;
        long forwarded = Files.size(out);
        if (forwarded < ((long) DOWNLOAD_MB << 20)) {
            throw new AssertionError("ssh -W carried " + forwarded + " bytes, exit " + p.exitValue());
        }

        Path file = Files.createTempFile("crater-bench-scp", ".bin");
        byte[] chunk = new byte[1 << 20];
        new java.util.Random(7).nextBytes(chunk);
        try (var o = Files.newOutputStream(file)) {
            for (int i = 0; i < DOWNLOAD_MB; i++) {
                o.write(chunk);
            }
        }
        t0 = System.nanoTime();
        OpenSsh.Result up =
                OpenSsh.run(openssh.copying("scp", "bench", file.toString(), login + "@127.0.0.1:bench.bin"));
        double upS = (System.nanoTime() - t0) / 1e9;
        Path back = Files.createTempFile("crater-bench-scp", ".back");
        t0 = System.nanoTime();
        OpenSsh.Result down =
                OpenSsh.run(openssh.copying("scp", "bench", login + "@127.0.0.1:bench.bin", back.toString()));
        double downS = (System.nanoTime() - t0) / 1e9;
        if (up.code() != 0 || down.code() != 0 || Files.size(back) != Files.size(file)) {
            throw new AssertionError("scp failed: " + up.err() + down.err());
        }
        System.out.printf(
                "interactive ssh (OpenSSH client, %d MB, each including its login): ssh -W download %.0f MB/s (%.1f s);"
                        + " scp into the user's space %.0f MB/s (%.1f s), out of it %.0f MB/s (%.1f s)%n",
                DOWNLOAD_MB,
                forwarded / 1e6 / forwardS,
                forwardS,
                Files.size(file) / 1e6 / upS,
                upS,
                Files.size(file) / 1e6 / downS,
                downS);
        Files.deleteIfExists(out);
        Files.deleteIfExists(file);
        Files.deleteIfExists(back);
    }

    /** {@code ssh -W} transfers at once ({@code -Dbench.forwards=N}). */
    static final int FORWARDS = Integer.getInteger("bench.forwards", 200);

    /**
     * {@link #FORWARDS} OpenSSH clients at once, each logging in and fetching 1 MiB from the job's port 8888 through
     * {@code ssh -W} ({@code direct-tcpip} over {@code pods/portforward}): how many got nothing (silent), how many
     * got less than the whole answer (short), and how long the whole took.
     */
    void forwards(String token, String job) throws Exception {
        OpenSsh openssh = new OpenSsh(gateway.port());
        openssh.keygen("bench-w");
        openssh.register(token, "bench-w");
        String login = "bench.interactive+" + job;
        byte[] request = "GET /mib HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        List<Process> running = new java.util.ArrayList<>();
        List<Path> outputs = new java.util.ArrayList<>();
        long t0 = System.nanoTime();
        for (int i = 0; i < FORWARDS; i++) {
            Path out = Files.createTempFile("crater-bench-w", ".out");
            Process p = new ProcessBuilder(openssh.ssh("bench-w", login, "-W", "localhost:8888"))
                    .redirectOutput(out.toFile())
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            p.getOutputStream().write(request);
            p.getOutputStream().close();
            running.add(p);
            outputs.add(out);
        }
        int silent = 0;
        int shortOnes = 0;
        for (int i = 0; i < FORWARDS; i++) {
            Process p = running.get(i);
            if (!p.waitFor(600, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
            long got = Files.size(outputs.get(i));
            if (got == 0) {
                silent++;
            } else if (got < (1 << 20)) {
                shortOnes++;
            }
            Files.deleteIfExists(outputs.get(i));
        }
        System.out.printf(
                "interactive ssh -W at once: %d clients each fetching 1 MiB through its own login, %d silent, %d short,"
                        + " all done in %.1f s%n",
                FORWARDS, silent, shortOnes, (System.nanoTime() - t0) / 1e9);
        if (FORWARDS == 200) {
            Report.figure("interactive.forwards.failed", silent + shortOnes);
        }
    }

    private static void write(io.vertx.core.http.HttpServerResponse resp, Buffer chunk, int left) {
        if (left == 0) {
            resp.end();
            return;
        }
        resp.write(chunk).onSuccess(v -> {
            if (resp.writeQueueFull()) {
                resp.drainHandler(x -> write(resp, chunk, left - 1));
            } else {
                write(resp, chunk, left - 1);
            }
        });
    }

    RequestOptions proxied(String job, String uri) {
        return new RequestOptions()
                .setServer(SocketAddress.inetSocketAddress(proxy.port(), "127.0.0.1"))
                .setHost(job + ".apps.localhost")
                .setPort(proxy.port())
                .setURI(uri);
    }

    static List<Double> latency(HttpClient client, RequestOptions o, int n) throws Exception {
        List<Double> ms = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long t0 = System.nanoTime();
            client.request(o)
                    .compose(r -> r.send().compose(x -> x.body()))
                    .toCompletionStage()
                    .toCompletableFuture()
                    .get(10, TimeUnit.SECONDS);
            ms.add((System.nanoTime() - t0) / 1e6);
        }
        return ms;
    }

    static double download(HttpClient client, RequestOptions o) throws Exception {
        long t0 = System.nanoTime();
        AtomicLong bytes = new AtomicLong();
        CompletableFuture<Void> done = new CompletableFuture<>();
        client.request(o).compose(r -> r.send()).onSuccess(resp -> {
            resp.handler(b -> bytes.addAndGet(b.length()));
            resp.endHandler(v -> done.complete(null));
            resp.exceptionHandler(done::completeExceptionally);
        });
        done.get(120, TimeUnit.SECONDS);
        return bytes.get() / 1048576.0 / ((System.nanoTime() - t0) / 1e9);
    }

    void terminals(String token, String job) throws Exception {
        System.gc();
        Thread.sleep(500);
        long before = heapUsed();
        List<WebSocket> open = Collections.synchronizedList(new ArrayList<>());
        List<CompletableFuture<Void>> prompts = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int i = 0; i < SESSIONS; i++) {
            CompletableFuture<Void> prompt = new CompletableFuture<>();
            prompts.add(prompt);
            // The handler is in place before the socket opens, so no frame can come before it; the prompt may come
            // split over frames, so the output so far is looked at, not one frame.
            StringBuilder seen = new StringBuilder();
            io.vertx.core.http.ClientWebSocket ws =
                    vertx.createWebSocketClient().webSocket();
            ws.binaryMessageHandler(b -> {
                if (!prompt.isDone() && seen.append(b.toString()).indexOf("$ ") >= 0) {
                    prompt.complete(null);
                }
            });
            ws.connect(new WebSocketConnectOptions()
                            .setHost(base.getHost())
                            .setPort(base.getPort())
                            .setURI("/api/v1/jobs/" + job + "/terminal")
                            .addHeader("Authorization", "Bearer " + token))
                    .toCompletionStage()
                    .toCompletableFuture()
                    .get(30, TimeUnit.SECONDS);
            open.add(ws);
        }
        double connectSeconds = (System.nanoTime() - t0) / 1e9;
        String prompted;
        try {
            CompletableFuture.allOf(prompts.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
            prompted =
                    String.format("every prompt shown %.1f s after the first connect", (System.nanoTime() - t0) / 1e9);
            Report.figure("interactive.terminals.silent", 0);
        } catch (java.util.concurrent.TimeoutException e) {
            long silent = prompts.stream().filter(p -> !p.isDone()).count();
            long closed = open.stream().filter(WebSocket::isClosed).count();
            System.out.printf(
                    "interactive terminals: %d of %d sessions never showed their prompt (%d closed), 30 s after the"
                            + " last of them connected (in %.1f s)%n",
                    silent, SESSIONS, closed, connectSeconds);
            prompted = (SESSIONS - silent) + " prompts shown";
            Report.figure("interactive.terminals.silent", silent);
        }
        System.gc();
        Thread.sleep(500);
        long after = heapUsed();
        System.out.printf(
                "interactive terminals: %d sessions open at once in one server (each a WebSocket bridged to a pods/exec"
                        + " WebSocket), connected one after another in %.1f s, %s; heap %.1f KiB per session (before %d"
                        + " MiB, after %d MiB; client and simulated cluster share the JVM); %d threads in the JVM%n",
                SESSIONS,
                connectSeconds,
                prompted,
                (after - before) / 1024.0 / SESSIONS,
                before >> 20,
                after >> 20,
                Thread.activeCount());

        // Bytes/s through one terminal: a line typed and echoed back, as fast as it comes back.
        WebSocket ws = open.get(0);
        String line = "x".repeat(1000);
        AtomicLong received = new AtomicLong();
        int rounds = 300;
        CompletableFuture<Void> all = new CompletableFuture<>();
        AtomicLong prompts2 = new AtomicLong();
        ws.binaryMessageHandler(b -> {
            received.addAndGet(b.length());
            if (b.toString().contains("$ ") && prompts2.incrementAndGet() >= rounds) {
                all.complete(null);
            }
        });
        long t1 = System.nanoTime();
        for (int i = 0; i < rounds; i++) {
            ws.writeBinaryMessage(Buffer.buffer("echo " + line + "\r"));
        }
        all.get(120, TimeUnit.SECONDS);
        double s = (System.nanoTime() - t1) / 1e9;
        System.out.printf(
                "interactive terminal throughput: %d echoed 1 KB lines, %.0f KB/s out of the pod (%.0f lines/s)%n",
                rounds, received.get() / 1024.0 / s, rounds / s);
        open.forEach(WebSocket::close);
    }

    static long heapUsed() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    static double pct(List<Double> values, double p) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int i = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, i)));
    }
}
