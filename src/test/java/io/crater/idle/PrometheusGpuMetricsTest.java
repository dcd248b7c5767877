package io.crater.idle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.crater.policy.IdlePolicy;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Prometheus source against a real HTTP server (Vert.x) that answers as Prometheus does: what it asks (the
 * range query selecting the job's pods by {@code pod} or {@code exported_pod}, start, end, step) and how it reads the
 * matrix (per pod and GPU or MIG instance, ratios as percent, NaN dropped, errors as failures).
 */
class PrometheusGpuMetricsTest {

    static final Instant FROM = Instant.parse("2026-11-30T10:00:00Z");
    static final Instant TO = Instant.parse("2026-11-30T12:00:00Z");
    static final String POD = "c-jabc2345-main-0";

    /** DCGM's exporter scraped without honorLabels: the GPU's pod in exported_pod, the exporter's own in pod. */
    static final String MATRIX = """
            {"status":"success","data":{"resultType":"matrix","result":[
             {"metric":{"exported_pod":"c-jabc2345-main-0","pod":"dcgm-exporter-x7k2p","gpu":"0"},
              "values":[[1796032800,"0"],[1796032860.5,"3"],[1796032920,"NaN"]]},
             {"metric":{"exported_pod":"c-jabc2345-main-0","gpu":"1"},"values":[[1796032800,"1"]]},
             {"metric":{"pod":"c-jabc2345-main-0","gpu":"2","GPU_I_ID":"3"},"values":[[1796032800,"0.25"]]}
            ]}}""";

    static Vertx vertx;
    static HttpServer server;
    static final Map<String, MultiMap> asked = new ConcurrentHashMap<>();

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        server = vertx.createHttpServer()
                .requestHandler(req -> {
                    asked.put(req.path(), MultiMap.caseInsensitiveMultiMap().addAll(req.params()));
                    switch (req.path()) {
                        case "/prom/api/v1/query_range" ->
                            req.response()
                                    .putHeader("Content-Type", "application/json")
                                    .end(MATRIX);
                        case "/failing/api/v1/query_range" ->
                            req.response().setStatusCode(503).end("service unavailable");
                        case "/refusing/api/v1/query_range" ->
                            req.response()
                                    .setStatusCode(200)
                                    .end("{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"parse error\"}");
                        default -> req.response().setStatusCode(404).end();
                    }
                })
                .listen(0, "127.0.0.1")
                .toCompletionStage()
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    static PrometheusGpuMetrics at(String prefix) {
        return new PrometheusGpuMetrics("http://127.0.0.1:" + server.actualPort() + prefix, Duration.ofSeconds(5));
    }

    static GpuMetrics.Query query(boolean ratio) {
        return new GpuMetrics.Query(
                "crater-jobs", List.of(POD), "DCGM_FI_DEV_GPU_UTIL", ratio, FROM, TO, Duration.ofMinutes(1));
    }

    static IdlePolicy.Series series(List<IdlePolicy.Series> all, String accelerator) {
        return all.stream()
                .filter(s -> s.accelerator().equals(accelerator))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void asksForTheJobsPodsByPodOrExportedPodOverTheRange() {
        at("/prom").utilisation(query(false)).await().atMost(Duration.ofSeconds(10));
        MultiMap params = asked.get("/prom/api/v1/query_range");
        assertThat(params).isNotNull();
        assertThat(params.get("query"))
                .isEqualTo("max by (pod, gpu, GPU_I_ID) (max_over_time(DCGM_FI_DEV_GPU_UTIL{namespace=\"crater-jobs\","
                        + "pod=~\"c-jabc2345-main-0\"}[60000ms])) or max by (exported_pod, gpu, GPU_I_ID)"
                        + " (max_over_time(DCGM_FI_DEV_GPU_UTIL{exported_namespace=\"crater-jobs\","
                        + "exported_pod=~\"c-jabc2345-main-0\"}[60000ms]))");
        assertThat(params.get("start")).isEqualTo("1796032800.000");
        assertThat(params.get("end")).isEqualTo("1796040000.000");
        assertThat(params.get("step")).isEqualTo("60.000");
    }

    @Test
    void readsTheMatrixPerPodAndAccelerator() {
        List<IdlePolicy.Series> got =
                at("/prom").utilisation(query(false)).await().atMost(Duration.ofSeconds(10));
        assertThat(got).extracting(IdlePolicy.Series::pod).containsOnly(POD);
        assertThat(got).extracting(IdlePolicy.Series::accelerator).containsExactly("0", "1", "2/3");
        IdlePolicy.Series gpu0 = series(got, "0");
        assertThat(gpu0.samples())
                .as("NaN dropped")
                .containsExactly(
                        new IdlePolicy.Sample(Instant.parse("2026-11-30T10:00:00Z"), 0),
                        new IdlePolicy.Sample(Instant.parse("2026-11-30T10:01:00.500Z"), 3));
        assertThat(series(got, "2/3").samples().get(0).percent()).isEqualTo(0.25);
    }

    @Test
    void aRatioMetricIsReadAsPercent() {
        List<IdlePolicy.Series> got =
                at("/prom").utilisation(query(true)).await().atMost(Duration.ofSeconds(10));
        assertThat(series(got, "2/3").samples().get(0).percent()).isEqualTo(25.0);
        assertThat(series(got, "0").samples().get(1).percent()).isEqualTo(300.0);
    }

    @Test
    void anErrorIsAFailureNeverAnEmptyAnswer() {
        assertThatThrownBy(
                        () -> at("/failing").utilisation(query(false)).await().atMost(Duration.ofSeconds(10)))
                .hasMessageContaining("503");
        assertThatThrownBy(
                        () -> at("/refusing").utilisation(query(false)).await().atMost(Duration.ofSeconds(10)))
                .hasMessageContaining("parse error");
    }

    @Test
    void noPodsNeedNoQuery() {
        GpuMetrics.Query none = new GpuMetrics.Query(
                "crater-jobs", List.of(), "DCGM_FI_DEV_GPU_UTIL", false, FROM, TO, Duration.ofMinutes(1));
        assertThat(at("/nowhere").utilisation(none).await().atMost(Duration.ofSeconds(10)))
                .isEmpty();
        assertThat(asked).doesNotContainKey("/nowhere/api/v1/query_range");
    }

    @Test
    void severalPodsAreOneAlternation() {
        assertThat(PrometheusGpuMetrics.query(new GpuMetrics.Query(
                        "crater-jobs",
                        List.of("c-j1-main-0", "c-j1-worker-0"),
                        "DCGM_FI_PROF_GR_ENGINE_ACTIVE",
                        true,
                        FROM,
                        TO,
                        Duration.ofSeconds(30))))
                .contains(
                        "DCGM_FI_PROF_GR_ENGINE_ACTIVE{namespace=\"crater-jobs\",pod=~\"c-j1-main-0|c-j1-worker-0\"}[30000ms]");
    }
}
