package io.crater;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A real Prometheus (Debian's {@code prometheus}, installed by {@code make prometheus}) started by a test on a free
 * port of 127.0.0.1 with a generated configuration scraping the given targets every second, its storage in a
 * temporary folder; {@link #close()} stops it and deletes the folder.
 */
public final class RealPrometheus implements AutoCloseable {

    /** A scrape job: its name, the {@code host:port} and the metrics path. */
    public record Target(String job, String hostPort, String path) {}

    private static final ObjectMapper JSON = new ObjectMapper();
    private final Path dir;
    private final Process process;
    private final String url;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private RealPrometheus(Path dir, Process process, String url) {
        this.dir = dir;
        this.process = process;
        this.url = url;
    }

    /** Starts Prometheus scraping the targets and waits until it is ready. */
    public static RealPrometheus start(List<Target> targets) throws IOException, InterruptedException {
        Path dir = TestDirs.create("crater-prometheus");
        StringBuilder config =
                new StringBuilder("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n" + "scrape_configs:\n");
        for (Target t : targets) {
            config.append("  - job_name: ")
                    .append(t.job())
                    .append('\n')
                    .append("    honor_labels: true\n")
                    .append("    metrics_path: ")
                    .append(t.path())
                    .append('\n')
                    .append("    static_configs:\n      - targets: ['")
                    .append(t.hostPort())
                    .append("']\n");
        }
        Files.writeString(dir.resolve("prometheus.yml"), config.toString());
        int port = freePort();
        Process p = new ProcessBuilder(
                        "prometheus",
                        "--config.file=" + dir.resolve("prometheus.yml"),
                        "--storage.tsdb.path=" + dir.resolve("data"),
                        "--web.listen-address=127.0.0.1:" + port)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("prometheus.log").toFile())
                .start();
        RealPrometheus prometheus = new RealPrometheus(dir, p, "http://127.0.0.1:" + port);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!prometheus.ready()) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                String log = Files.readString(dir.resolve("prometheus.log"));
                prometheus.close();
                throw new IllegalStateException("Prometheus did not start: " + log);
            }
            Thread.sleep(200);
        }
        return prometheus;
    }

    private boolean ready() {
        try {
            return http.send(
                                    HttpRequest.newBuilder(URI.create(url + "/-/ready"))
                                            .build(),
                                    HttpResponse.BodyHandlers.discarding())
                            .statusCode()
                    == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Prometheus's base URL. */
    public String url() {
        return url;
    }

    /** {@code GET /api/v1/query}: the whole answer (status, data, error); an HTTP 400 (a bad query) is an answer too. */
    public JsonNode query(String promql) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create(
                                url + "/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8)))
                        .timeout(Duration.ofSeconds(30))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(r.body());
    }

    /** {@code GET /api/v1/series} of a metric: the label sets of its series. */
    public JsonNode series(String metric) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create(
                                url + "/api/v1/series?match[]=" + URLEncoder.encode(metric, StandardCharsets.UTF_8)))
                        .timeout(Duration.ofSeconds(30))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(r.body()).path("data");
    }

    /** Stops Prometheus (and waits until it has) and deletes its folder. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
