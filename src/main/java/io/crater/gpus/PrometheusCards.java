package io.crater.gpus;

import com.fasterxml.jackson.databind.JsonNode;
import io.crater.platform.Json;
import io.smallrye.mutiny.Uni;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The cards from Prometheus's instant query API ({@code GET /api/v1/query}): one query for the latest sample of each
 * of the card metrics ({@code {__name__=~"DCGM_FI_DEV_GPU_UTIL|..."}}), as the nodes' dcgm-exporters published them
 * (at most Prometheus's lookback, 5 minutes by default, old).
 */
final class PrometheusCards implements CardSource {

    private final URI base;
    private final HttpText http;

    PrometheusCards(String baseUrl, Duration timeout) {
        this.base = URI.create(baseUrl.endsWith("/") ? baseUrl : baseUrl + "/");
        this.http = new HttpText(timeout);
    }

    /** {@code {__name__=~"M1|M2|..."}}. */
    static String query() {
        return "{__name__=~\"" + String.join("|", CardReadings.METRICS) + "\"}";
    }

    URI uri() {
        return base.resolve("api/v1/query?query=" + URLEncoder.encode(query(), StandardCharsets.UTF_8));
    }

    @Override
    public Uni<List<CardReading>> cards() {
        return http.get(uri(), "application/json")
                .map(body -> CardReadings.of(samples(body)))
                .onFailure()
                .transform(e ->
                        new IllegalStateException("Prometheus at " + base + " could not be read: " + e.getMessage()));
    }

    /** The samples of a {@code vector} answer, each series' {@code __name__} as its metric. */
    static List<ExpositionParser.Sample> samples(String body) {
        JsonNode root = Json.read(body, JsonNode.class);
        if (!"success".equals(root.path("status").asText())) {
            throw new IllegalStateException(
                    "the query failed: " + root.path("error").asText("no status"));
        }
        JsonNode data = root.path("data");
        if (!"vector".equals(data.path("resultType").asText())) {
            throw new IllegalStateException(
                    "Prometheus answered a " + data.path("resultType").asText("?") + ", not a vector");
        }
        List<ExpositionParser.Sample> out = new ArrayList<>();
        for (JsonNode series : data.path("result")) {
            Map<String, String> labels = new HashMap<>();
            series.path("metric")
                    .fields()
                    .forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
            String name = labels.remove("__name__");
            JsonNode value = series.path("value");
            if (name != null && value.size() == 2) {
                out.add(new ExpositionParser.Sample(
                        name,
                        Map.copyOf(labels),
                        ExpositionParser.value(value.get(1).asText())));
            }
        }
        return out;
    }
}
