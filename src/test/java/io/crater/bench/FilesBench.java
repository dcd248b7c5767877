package io.crater.bench;

import static io.crater.Api.as;
import static org.awaitility.Awaitility.await;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.crater.interactive.OpenSsh;
import io.crater.interactive.SshGateway;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Files on this machine (run by {@code make bench}, never by {@code make test}): a 1 GiB file up and down through
 * the file API, WebDAV and SFTP ({@code scp}) beside {@code cp} on the same disk, as ratios of one run; the process's
 * resident memory during the transfers (the server shares this JVM with the test's clients); and a folder of
 * 100,000 entries listed over the event stream, to its first entry and to its last. It prints figures and asserts
 * nothing about time.
 */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class FilesBench {

    static final String PW = "Files-bench-2026";
    static final long SIZE = Long.getLong("bench.files.mib", 1024) << 20;
    static final int ENTRIES = Integer.getInteger("bench.files.entries", 100_000);

    @TestHTTPResource("/")
    URL base;

    @Inject
    SshGateway gateway;

    final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    @Test
    void figures() throws Exception {
        String session = Api.user("bench.files", PW);
        String pat = as(session)
                .body(Map.of("name", "bench"))
                .post("/api/v1/me/tokens")
                .then()
                .statusCode(201)
                .extract()
                .path("token");
        Path space = CraterTestResource.home().resolve("spaces/users/bench.files");
        Files.createDirectories(space);
        Path src = Files.createTempFile("crater-bench-files", ".bin");
        byte[] mib = new byte[1 << 20];
        new java.util.Random(11).nextBytes(mib);
        try (var o = Files.newOutputStream(src)) {
            for (long i = 0; i < SIZE; i += mib.length) {
                o.write(mib);
            }
        }
        Rss rss = new Rss();
        rss.start();
        double cp = seconds(() -> Files.copy(src, space.resolve("cp.bin"), StandardCopyOption.REPLACE_EXISTING));
        Files.delete(space.resolve("cp.bin"));
        String bearer = "Bearer " + session;
        String basic = "Basic " + Base64.getEncoder().encodeToString((":" + pat).getBytes(StandardCharsets.UTF_8));
        double apiUp = seconds(() -> put("/api/v1/files/user/api.bin", bearer, src));
        double apiDown = seconds(() -> get("/api/v1/files/user/api.bin", bearer));
        double davUp = seconds(() -> put("/dav/user/dav.bin", basic, src));
        double davDown = seconds(() -> get("/dav/user/dav.bin", basic));
        double[] sftp = sftp(session, src);
        rss.stopSampling();
        System.out.printf(
                "files 1 GiB (%d MiB) on this disk: cp %.1f s (%.0f MB/s); file API up %.1f s (%.2f × cp), down %.1f s"
                        + " (%.2f × cp); WebDAV up %.1f s (%.2f × cp), down %.1f s (%.2f × cp); SFTP (scp) up %.1f s"
                        + " (%.2f × cp), down %.1f s (%.2f × cp)%n",
                SIZE >> 20,
                cp,
                SIZE / 1e6 / cp,
                apiUp,
                apiUp / cp,
                apiDown,
                apiDown / cp,
                davUp,
                davUp / cp,
                davDown,
                davDown / cp,
                sftp[0],
                sftp[0] / cp,
                sftp[1],
                sftp[1] / cp);
        System.out.printf(
                "files RSS of the JVM (server and clients) during the transfers: %d MiB before, %d MiB at most, %d MiB"
                        + " after (sampled every 100 ms)%n",
                rss.first >> 10, rss.max.get() >> 10, Rss.now() >> 10);
        Files.deleteIfExists(src);
        listing(space, bearer);
    }

    interface Step {
        void run() throws Exception;
    }

    static double seconds(Step step) throws Exception {
        long t0 = System.nanoTime();
        step.run();
        return (System.nanoTime() - t0) / 1e9;
    }

    void put(String path, String auth, Path file) throws Exception {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create(base + path.substring(1)))
                        .header("Authorization", auth)
                        .PUT(HttpRequest.BodyPublishers.ofFile(file))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 201 && r.statusCode() != 204) {
            throw new AssertionError("PUT " + path + ": " + r.statusCode() + " " + r.body());
        }
    }

    void get(String path, String auth) throws Exception {
        HttpResponse<InputStream> r = http.send(
                HttpRequest.newBuilder(URI.create(base + path.substring(1)))
                        .header("Authorization", auth)
                        .build(),
                HttpResponse.BodyHandlers.ofInputStream());
        long n = 0;
        byte[] buf = new byte[1 << 16];
        try (InputStream in = r.body()) {
            for (int k; (k = in.read(buf)) >= 0; ) {
                n += k;
            }
        }
        if (r.statusCode() != 200 || n != SIZE) {
            throw new AssertionError("GET " + path + ": " + r.statusCode() + ", " + n + " bytes");
        }
    }

    /** scp of the file into the user's space and back through a running job's login; seconds up and down. */
    double[] sftp(String session, Path src) throws Exception {
        String job = as(session)
                .body(Map.of(
                        "name",
                        "bench-files",
                        "kind",
                        "custom",
                        "image",
                        "python:3.12",
                        "command",
                        List.of("sleep", "infinity"),
                        "env",
                        Map.of("SIM_DURATION", "1h"),
                        "resources",
                        Map.of("cpu", "1", "memory", "1Gi")))
                .post("/api/v1/jobs")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        await().atMost(Duration.ofSeconds(60))
                .until(() -> "Running"
                        .equals(as(session)
                                .get("/api/v1/jobs/" + job)
                                .then()
                                .extract()
                                .path("job.state")));
        OpenSsh openssh = new OpenSsh(gateway.port());
        openssh.keygen("files");
        openssh.register(session, "files");
        String login = "bench.files+" + job;
        Path back = Files.createTempFile("crater-bench-files", ".back");
        double up = seconds(() -> expectZero(
                OpenSsh.run(openssh.copying("scp", "files", src.toString(), login + "@127.0.0.1:sftp.bin"))));
        double down = seconds(() -> expectZero(
                OpenSsh.run(openssh.copying("scp", "files", login + "@127.0.0.1:sftp.bin", back.toString()))));
        if (Files.size(back) != SIZE) {
            throw new AssertionError("scp brought back " + Files.size(back) + " bytes");
        }
        Files.delete(back);
        as(session).post("/api/v1/jobs/" + job + "/stop");
        return new double[] {up, down};
    }

    static void expectZero(OpenSsh.Result r) {
        if (r.code() != 0) {
            throw new AssertionError("scp: " + r.err());
        }
    }

    /** A folder of {@link #ENTRIES} files listed over the event stream: time to the first entry and to the end. */
    void listing(Path space, String bearer) throws Exception {
        Path dir = Files.createDirectories(space.resolve("many"));
        for (int i = 0; i < ENTRIES; i++) {
            Files.createFile(dir.resolve("f" + i + ".txt"));
        }
        long t0 = System.nanoTime();
        HttpResponse<InputStream> r = http.send(
                HttpRequest.newBuilder(URI.create(base + "api/v1/files/user/many"))
                        .header("Authorization", bearer)
                        .header("Accept", "text/event-stream")
                        .build(),
                HttpResponse.BodyHandlers.ofInputStream());
        long first = -1;
        long entries = 0;
        try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                if (line.equals("event: entry")) {
                    entries++;
                    if (first < 0) {
                        first = System.nanoTime() - t0;
                    }
                } else if (line.equals("event: end")) {
                    break;
                }
            }
        }
        long last = System.nanoTime() - t0;
        System.out.printf(
                "files listing of %d entries over the event stream: first entry %.0f ms, all %d by %.0f ms%n",
                ENTRIES, first / 1e6, entries, last / 1e6);
    }

    /** The JVM's resident set, sampled on a thread of its own. */
    static final class Rss extends Thread {
        final long first = now();
        final AtomicLong max = new AtomicLong(first);
        final AtomicBoolean running = new AtomicBoolean(true);

        Rss() {
            setDaemon(true);
        }

        /** VmRSS in KiB. */
        static long now() {
            try {
                for (String l : Files.readAllLines(Path.of("/proc/self/status"))) {
                    if (l.startsWith("VmRSS:")) {
                        return Long.parseLong(l.replaceAll("[^0-9]", ""));
                    }
                }
            } catch (Exception e) {
                return -1;
            }
            return -1;
        }

        @Override
        public void run() {
            while (running.get()) {
                max.accumulateAndGet(now(), Math::max);
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        void stopSampling() {
            running.set(false);
        }
    }
}
