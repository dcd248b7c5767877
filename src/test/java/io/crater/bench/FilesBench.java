package io.crater.bench;

import io.crater.PackagedApp;
import io.crater.TestDirs;
import io.crater.interactive.OpenSsh;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Files on this machine (run by {@code make bench}, never by {@code make test}): the packaged server on its embedded
 * default, in a process of its own; a 1 GiB file up and down through the file API, WebDAV and SFTP ({@code scp})
 * beside {@code cp} on the same disk, as ratios of one run; the server's resident memory during each transfer
 * (sampled every 100 ms); and a folder of 100,000 entries listed over the event stream, to its first entry and to its
 * last. It prints figures and asserts nothing about time.
 */
class FilesBench {

    static final long SIZE = Long.getLong("bench.files.mib", 1024) << 20;
    static final int ENTRIES = Integer.getInteger("bench.files.entries", 100_000);

    final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    PackagedApp app;

    @Test
    void figures() throws Exception {
        Path home = TestDirs.create("crater-files-bench");
        try (PackagedApp started = new PackagedApp(home).start()) {
            app = started;
            String[] admin = app.initialAdmin();
            String token = app.login(admin[0], admin[1]);
            String slug = field(app.call("GET", "/api/v1/me", token, null, null).body(), "slug");
            String pat = field(
                    app.call("POST", "/api/v1/me/tokens", token, null, "{\"name\":\"bench\"}")
                            .body(),
                    "token");
            Path space = home.resolve("spaces/users").resolve(slug);
            Path src = home.resolve("source.bin");
            write(src);
            double cp = seconds(() -> Files.copy(src, home.resolve("cp.bin")));
            Files.delete(home.resolve("cp.bin"));
            String bearer = "Bearer " + token;
            String basic = "Basic " + Base64.getEncoder().encodeToString((":" + pat).getBytes(StandardCharsets.UTF_8));
            long idle = rssKib();
            Transfer apiUp = measure(() -> put("/api/v1/files/user/api.bin", bearer, src));
            Transfer apiDown = measure(() -> get("/api/v1/files/user/api.bin", bearer));
            Transfer davUp = measure(() -> put("/dav/user/dav.bin", basic, src));
            Transfer davDown = measure(() -> get("/dav/user/dav.bin", basic));
            Transfer[] sftp = sftp(token, slug, src);
            System.out.printf(
                    "files %d MiB on this disk: cp %.1f s (%.0f MB/s); file API up %s, down %s; WebDAV up %s, down %s;"
                            + " SFTP (scp) up %s, down %s%n",
                    SIZE >> 20,
                    cp,
                    SIZE / 1e6 / cp,
                    apiUp.against(cp),
                    apiDown.against(cp),
                    davUp.against(cp),
                    davDown.against(cp),
                    sftp[0].against(cp),
                    sftp[1].against(cp));
            Report.figure("files.api.up.ratio", apiUp.seconds() / cp);
            Report.figure("files.api.down.ratio", apiDown.seconds() / cp);
            Report.figure("files.dav.up.ratio", davUp.seconds() / cp);
            Report.figure("files.dav.down.ratio", davDown.seconds() / cp);
            Report.figure("files.sftp.up.ratio", sftp[0].seconds() / cp);
            Report.figure("files.sftp.down.ratio", sftp[1].seconds() / cp);
            long peak = List.of(apiUp, apiDown, davUp, davDown, sftp[0], sftp[1]).stream()
                    .mapToLong(Transfer::peakKib)
                    .max()
                    .orElse(idle);
            Report.figure("files.rss.growth", (peak - idle) / 1024.0);
            System.out.printf(
                    "files server RSS (its own process; the embedded PostgreSQL apart): %d MiB before the transfers;"
                            + " at most %d MiB (file API up), %d (down), %d (WebDAV up), %d (down), %d (SFTP up), %d"
                            + " (down); %d MiB after%n",
                    idle >> 10,
                    apiUp.peakKib >> 10,
                    apiDown.peakKib >> 10,
                    davUp.peakKib >> 10,
                    davDown.peakKib >> 10,
                    sftp[0].peakKib >> 10,
                    sftp[1].peakKib >> 10,
                    rssKib() >> 10);
            Files.deleteIfExists(src);
            listing(space, bearer);
        }
    }

    interface Step {
        void run() throws Exception;
    }

    /** One transfer: its seconds and the server's largest resident set while it ran. */
    record Transfer(double seconds, long peakKib) {
        String against(double cp) {
            return String.format("%.1f s (%.2f × cp)", seconds, seconds / cp);
        }
    }

    static double seconds(Step step) throws Exception {
        long t0 = System.nanoTime();
        step.run();
        return (System.nanoTime() - t0) / 1e9;
    }

    Transfer measure(Step step) throws Exception {
        AtomicLong peak = new AtomicLong(rssKib());
        AtomicBoolean running = new AtomicBoolean(true);
        Thread sampler = new Thread(() -> {
            while (running.get()) {
                peak.accumulateAndGet(rssKib(), Math::max);
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        sampler.setDaemon(true);
        sampler.start();
        try {
            double s = seconds(step);
            running.set(false);
            sampler.join();
            return new Transfer(s, peak.accumulateAndGet(rssKib(), Math::max));
        } finally {
            running.set(false);
        }
    }

    long rssKib() {
        try {
            return app.rssKib();
        } catch (Exception e) {
            return -1;
        }
    }

    static void write(Path file) throws Exception {
        byte[] mib = new byte[1 << 20];
        new Random(11).nextBytes(mib);
        try (OutputStream o = Files.newOutputStream(file)) {
            for (long i = 0; i < SIZE; i += mib.length) {
                o.write(mib);
            }
        }
    }

    static String field(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\"\\s*:\\s*\"([^\"]+)\"").matcher(json);
        if (!m.find()) {
            throw new IllegalStateException("no " + name + " in " + json);
        }
        return m.group(1);
    }

    void put(String path, String auth, Path file) throws Exception {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create(app.url() + path))
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
                HttpRequest.newBuilder(URI.create(app.url() + path))
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

    /** scp of the file into the user's space and back through a running job's login. */
    Transfer[] sftp(String token, String slug, Path src) throws Exception {
        String job = "{\"name\":\"bench-files\",\"kind\":\"custom\",\"image\":\"python:3.12\",\"command\":[\"sleep\","
                + "\"infinity\"],\"env\":{\"SIM_DURATION\":\"1h\"},\"resources\":{\"cpu\":\"1\",\"memory\":\"1Gi\"}}";
        String id = field(app.call("POST", "/api/v1/jobs", token, null, job).body(), "id");
        long deadline = System.currentTimeMillis() + 60_000;
        while (!app.call("GET", "/api/v1/jobs/" + id, token, null, null).body().contains("\"state\":\"Running\"")) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("the job did not start");
            }
            Thread.sleep(200);
        }
        String gateway = app.lineAfter("SSH gateway listening on ");
        OpenSsh openssh = new OpenSsh(
                Integer.parseInt(gateway.substring(gateway.lastIndexOf(':') + 1).trim()));
        openssh.keygen("files");
        String key = Files.readString(openssh.publicKey("files")).trim();
        app.call(
                "POST",
                "/api/v1/me/ssh-keys",
                token,
                null,
                "{\"name\":\"files\",\"publicKey\":\"" + key.replace("\"", "\\\"") + "\"}");
        String login = slug + "+" + id;
        Path back = src.resolveSibling("back.bin");
        Transfer up = measure(() -> expectZero(
                OpenSsh.run(openssh.copying("scp", "files", src.toString(), login + "@127.0.0.1:sftp.bin"))));
        Transfer down = measure(() -> expectZero(
                OpenSsh.run(openssh.copying("scp", "files", login + "@127.0.0.1:sftp.bin", back.toString()))));
        if (Files.size(back) != SIZE) {
            throw new AssertionError("scp brought back " + Files.size(back) + " bytes");
        }
        Files.delete(back);
        app.call("POST", "/api/v1/jobs/" + id + "/stop", token, null, null);
        return new Transfer[] {up, down};
    }

    static void expectZero(OpenSsh.Result r) {
        if (r.code() != 0) {
            throw new AssertionError("scp: " + r.err());
        }
    }

    /** A folder of {@link #ENTRIES} files listed over the event stream: time to the first entry and to the end. */
    void listing(Path space, String bearer) throws Exception {
        HttpResponse<String> made =
                app.call("POST", "/api/v1/files/user/many", bearer.substring(7), null, "{\"action\":\"mkdir\"}");
        if (made.statusCode() != 201) {
            throw new AssertionError("mkdir: " + made.statusCode() + " " + made.body());
        }
        Path dir = space.resolve("many");
        for (int i = 0; i < ENTRIES; i++) {
            Files.createFile(dir.resolve("f" + i + ".txt"));
        }
        long t0 = System.nanoTime();
        HttpResponse<InputStream> r = http.send(
                HttpRequest.newBuilder(URI.create(app.url() + "/api/v1/files/user/many"))
                        .header("Authorization", bearer)
                        .header("Accept", "text/event-stream")
                        .build(),
                HttpResponse.BodyHandlers.ofInputStream());
        if (r.statusCode() != 200) {
            throw new AssertionError("listing: " + r.statusCode());
        }
        long first = -1;
        long entries = 0;
        try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                String event = line.startsWith("event:") ? line.substring(6).trim() : "";
                if (event.equals("entry")) {
                    entries++;
                    if (first < 0) {
                        first = System.nanoTime() - t0;
                    }
                } else if (event.equals("end")) {
                    break;
                }
            }
        }
        long last = System.nanoTime() - t0;
        if (entries != ENTRIES) {
            throw new AssertionError("the listing gave " + entries + " entries of " + ENTRIES);
        }
        Report.figure("files.listing.first", first / 1e6);
        Report.figure("files.listing.last", last / 1e6);
        System.out.printf(
                "files listing of %d entries over the event stream: first entry %.0f ms, all %d by %.0f ms%n",
                ENTRIES, first / 1e6, entries, last / 1e6);
    }
}
