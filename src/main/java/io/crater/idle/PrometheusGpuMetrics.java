package io.crater.idle;

import com.fasterxml.jackson.databind.JsonNode;
import io.crater.platform.Json;
import io.crater.policy.IdlePolicy;
import io.smallrye.mutiny.Uni;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Utilisation from Prometheus's HTTP API ({@code GET /api/v1/query_range}), as DCGM's exporter (or another vendor's)
 * publishes it. The exporter names the pod that uses a GPU {@code pod}/{@code namespace} when Prometheus scrapes it
 * with {@code honorLabels}, else {@code exported_pod}/{@code exported_namespace} (its own pod takes {@code pod}): the
 * query asks for both. Each point is the highest sample of its step ({@code max_over_time}), so a busy moment between
 * two points is never lost (for usage, the mean of the step, {@code avg_over_time}), and a step without any sample has no point (a gap) instead of Prometheus's 5-minute
 * lookback filling it. The JDK's HTTP client (asynchronous, never on the event loop's time) needs no dependency.
 */
final class PrometheusGpuMetrics implements GpuMetrics {

    private final URI base;
    private final Duration timeout;
    private final HttpClient http;

    PrometheusGpuMetrics(String baseUrl, Duration timeout) {
        this.base = URI.create(baseUrl.endsWith("/") ? baseUrl : baseUrl + "/");
        this.timeout = timeout;
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(timeout)
                .build();
    }

    @Override
    public Uni<List<IdlePolicy.Series>> utilisation(Query q) {
        if (q.pods().isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        HttpRequest request = HttpRequest.newBuilder(uri(q))
                .timeout(timeout)
                .header("Accept", "application/json")
                .GET()
                .build();
        return Uni.createFrom()
                .completionStage(() -> http.sendAsync(request, HttpResponse.BodyHandlers.ofString()))
                .map(r -> {
                    if (r.statusCode() != 200) {
                        String body = r.body() == null ? "" : r.body();
                        throw new IllegalStateException("Prometheus answered " + r.statusCode() + ": "
                                + body.substring(0, Math.min(200, body.length())));
                    }
                    return parse(r.body(), q.ratio());
                });
    }

    /** The range query's URL. */
    URI uri(Query q) {
        return base.resolve("api/v1/query_range?query=" + encode(query(q))
                + "&start=" + seconds(q.from())
                + "&end=" + seconds(q.to())
                + "&step=" + seconds(q.step()));
    }

    /**
     * {@code max by (pod, gpu, GPU_I_ID) (max_over_time(M{namespace="ns",pod=~"a|b"}[step])) or max by
     * (exported_pod, gpu, GPU_I_ID) (max_over_time(M{exported_namespace="ns",exported_pod=~"a|b"}[step]))}: one
     * series per pod and GPU (or MIG instance), whichever label the exporter's scrape gave the pod, merged across
     * exporter restarts.
     */
    static String query(Query q) {
        String pods = q.pods().stream()
                .map(p -> pattern(p) + (q.prefixes() ? ".*" : ""))
                .collect(Collectors.joining("|"));
        String range = "[" + Math.max(1, q.step().toMillis()) + "ms]";
        String over = q.mean() ? "avg_over_time(" : "max_over_time(";
        return "max by (pod, gpu, GPU_I_ID) (" + over + q.metric() + "{namespace=\"" + literal(q.namespace())
                + "\",pod=~\"" + pods + "\"}" + range + ")) or max by (exported_pod, gpu, GPU_I_ID) (" + over
                + q.metric() + "{exported_namespace=\"" + literal(q.namespace()) + "\",exported_pod=~\"" + pods
                + "\"}" + range + "))";
    }

    /** A Kubernetes name inside a PromQL string (names never hold quotes or backslashes; dropped if they did). */
    private static String literal(String name) {
        return name.replace("\\", "").replace("\"", "");
    }

    /** A pod name as a regular expression matching exactly it, inside a PromQL string: its dots escaped. */
    private static String pattern(String name) {
        return literal(name).replace(".", "\\\\.");
    }

    /**
     * The series of a {@code matrix} answer, per pod ({@code exported_pod}, else {@code pod}) and accelerator
     * ({@code gpu}, with {@code /GPU_I_ID} for a MIG instance); values in percent ({@code ratio}: ×100), NaN dropped.
     */
    static List<IdlePolicy.Series> parse(String body, boolean ratio) {
        JsonNode root = Json.read(body, JsonNode.class);
        if (!"success".equals(root.path("status").asText())) {
            throw new IllegalStateException(
                    "Prometheus query failed: " + root.path("error").asText("no status"));
        }
        JsonNode data = root.path("data");
        if (!"matrix".equals(data.path("resultType").asText())) {
            throw new IllegalStateException(
                    "Prometheus answered a " + data.path("resultType").asText("?") + ", not a matrix");
        }
        Map<String, List<IdlePolicy.Sample>> samples = new LinkedHashMap<>();
        Map<String, String[]> names = new LinkedHashMap<>();
        for (JsonNode series : data.path("result")) {
            JsonNode labels = series.path("metric");
            String pod = labels.path("exported_pod").asText("");
            if (pod.isEmpty()) {
                pod = labels.path("pod").asText("");
            }
            String accelerator = labels.path("gpu").asText("?");
            String instance = labels.path("GPU_I_ID").asText("");
            if (!instance.isEmpty()) {
                accelerator = accelerator + "/" + instance;
            }
            String key = pod + "\n" + accelerator;
            names.putIfAbsent(key, new String[] {pod, accelerator});
            List<IdlePolicy.Sample> into = samples.computeIfAbsent(key, k -> new ArrayList<>());
            for (JsonNode point : series.path("values")) {
                double value = Double.parseDouble(point.get(1).asText());
                if (Double.isFinite(value)) {
                    Instant at = Instant.ofEpochMilli(Math.round(point.get(0).asDouble() * 1000));
                    into.add(new IdlePolicy.Sample(at, ratio ? value * 100 : value));
                }
            }
        }
        List<IdlePolicy.Series> out = new ArrayList<>();
        samples.forEach((key, list) -> out.add(new IdlePolicy.Series(names.get(key)[0], names.get(key)[1], list)));
        return out;
    }

    private static String seconds(Instant t) {
        return String.format(Locale.ROOT, "%.3f", t.toEpochMilli() / 1000.0);
    }

    private static String seconds(Duration d) {
        return String.format(Locale.ROOT, "%.3f", d.toMillis() / 1000.0);
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
