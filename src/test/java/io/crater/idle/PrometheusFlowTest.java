package io.crater.idle;

import static io.crater.job.Flows.line;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.crater.DashboardQueries;
import io.crater.RealPrometheus;
import io.crater.job.Flows;
import io.crater.policy.IdlePolicy;
import io.crater.sim.Simulator;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A real Prometheus (docs/monitoring.md) scraping Crater's {@code /q/metrics} and the simulated cluster's DCGM
 * endpoint every second: a GPU job's utilisation comes back through Crater's Prometheus source as the cards its pod
 * holds.
 */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PrometheusFlowTest {

    static final String PW = "Prom-pass-2026";
    static final String RTX = "nvidia-rtx-4090";
    static final String ACCOUNT = "prom-lab";
    static RealPrometheus prometheus;

    /** Prometheus, started on first use (Crater's port is known once it runs), stopped after the class. */
    static synchronized RealPrometheus prometheus() throws Exception {
        if (prometheus == null) {
            URI dcgm = URI.create(CraterTestResource.simulator().dcgmUrl());
            prometheus = RealPrometheus.start(List.of(
                    new RealPrometheus.Target("crater", "127.0.0.1:" + RestAssured.port, "/q/metrics"),
                    new RealPrometheus.Target("dcgm", dcgm.getHost() + ":" + dcgm.getPort(), dcgm.getPath())));
        }
        return prometheus;
    }

    /** The busy job and its owner's token, stopped by the last test: the boot's other tests need its GPUs. */
    static String busyJob;

    static String busyOwner;

    @AfterAll
    static void stopPrometheus() {
        if (prometheus != null) {
            prometheus.close();
            prometheus = null;
        }
    }

    static Map<String, Object> job(String name, int gpus, String util) {
        Map<String, Object> m = new HashMap<>(Map.of(
                "name",
                name,
                "kind",
                "custom",
                "image",
                "python:3.12",
                "command",
                List.of("python", "train.py"),
                "resources",
                Map.of("cpu", "2", "memory", "8Gi", "acceleratorModel", RTX, "accelerators", gpus)));
        m.put("env", Map.of("SIM_GPU_UTIL", util));
        return m;
    }

    /** The pod of a job's only task, as the simulated cluster runs it. */
    static Pod podOf(String id) {
        try (KubernetesClient k =
                Simulator.clientFor(CraterTestResource.simulator().url())) {
            return k
                    .pods()
                    .inNamespace("crater-jobs")
                    .withLabel("volcano.sh/job-name", "c-" + id)
                    .list()
                    .getItems()
                    .stream()
                    .findFirst()
                    .orElseThrow();
        }
    }

    @Test
    @Order(1)
    void aJobsUtilisationComesBackFromTheRealPrometheusAsTheCardsItsPodHolds() throws Exception {
        RealPrometheus p = prometheus();
        String owner = Api.user("prom.ada", PW);
        Flows.account(
                ACCOUNT,
                List.of(line(RTX, "4", "4"), line("cpu", "16", "16"), line("memory", "64Gi", "64Gi")),
                "prom.ada");
        String id = Flows.submit(owner, ACCOUNT, job("busy", 2, "90"));
        busyJob = id;
        busyOwner = owner;
        Flows.awaitRunning(owner, id);
        Pod pod = podOf(id);
        String name = pod.getMetadata().getName();
        List<String> cards = CraterTestResource.simulator().gpuCards("crater-jobs", name).stream()
                .map(String::valueOf)
                .toList();
        assertThat(cards).hasSize(2);

        PrometheusGpuMetrics source = new PrometheusGpuMetrics(p.url(), Duration.ofSeconds(10));
        for (String metric : List.of("DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_PROF_GR_ENGINE_ACTIVE")) {
            boolean ratio = metric.startsWith("DCGM_FI_PROF_");
            await().atMost(Duration.ofSeconds(60))
                    .pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(() -> {
                        Instant now = Instant.now();
                        List<IdlePolicy.Series> series = source.utilisation(new GpuMetrics.Query(
                                        "crater-jobs",
                                        List.of(name),
                                        metric,
                                        ratio,
                                        now.minusSeconds(60),
                                        now,
                                        Duration.ofSeconds(1)))
                                .await()
                                .atMost(Duration.ofSeconds(20));
                        assertThat(series)
                                .as(metric + ": one series per card the pod holds, named by the card's index")
                                .extracting(IdlePolicy.Series::pod, IdlePolicy.Series::accelerator)
                                .containsExactlyInAnyOrderElementsOf(cards.stream()
                                        .map(c -> org.assertj.core.groups.Tuple.tuple(name, c))
                                        .toList());
                        assertThat(series)
                                .allSatisfy(s -> assertThat(s.samples())
                                        .isNotEmpty()
                                        .allSatisfy(x -> assertThat(x.percent())
                                                .isCloseTo(90.0, org.assertj.core.data.Offset.offset(1e-6))));
                    });
        }
        assertThat(p.query("up{job=\"crater\"}")
                        .path("data")
                        .path("result")
                        .get(0)
                        .path("value")
                        .get(1)
                        .asText())
                .as("Prometheus scrapes Crater's own /q/metrics")
                .isEqualTo("1");
    }

    /**
     * Every query of every dashboard parses and returns series from the real Prometheus, with {@code $account} and
     * {@code $model} as "all" and as one real value, and names only metrics and labels that Crater's {@code /q/metrics}
     * or the simulated DCGM endpoint export. The job of the first test runs; a settlement run and a budget give the
     * accounting series.
     */
    @Test
    @Order(2)
    void everyDashboardQueryReturnsSeriesAndNamesOnlyExportedMetricsAndLabels() throws Exception {
        RealPrometheus p = prometheus();
        Api.admin()
                .body(Map.of("amount", "100", "period", "month", "policy", "soft"))
                .put("/api/v1/accounting/accounts/" + ACCOUNT + "/budget")
                .then()
                .statusCode(200);
        await().atMost(Duration.ofSeconds(20))
                .until(() -> Api.admin()
                                .post("/api/v1/accounting/settle")
                                .then()
                                .statusCode(200)
                                .extract()
                                .jsonPath()
                                .getLong("run")
                        > 0);
        List<DashboardQueries.Query> queries = DashboardQueries.all(java.nio.file.Path.of("grafana-dashboards"));
        assertThat(queries)
                .extracting(DashboardQueries.Query::dashboard)
                .contains("gpu-cluster.json", "accounts.json", "crater-health.json");
        List<Map<String, String>> variableSets = List.of(
                Map.of("account", ".*", "model", ".*"), Map.of("account", ACCOUNT, "model", "NVIDIA GeForce RTX 4090"));
        for (DashboardQueries.Query q : queries) {
            for (Map<String, String> vars : variableSets) {
                String expr = DashboardQueries.substitute(q.expr(), vars);
                assertThat(expr).as(q.dashboard() + " / " + q.panel()).doesNotContain("$");
                // Asked at once, then each second until it has series (Awaitility's first look would otherwise wait
                // a whole interval: a second for each of the 70 queries).
                await().atMost(Duration.ofSeconds(90))
                        .pollDelay(Duration.ZERO)
                        .pollInterval(Duration.ofSeconds(1))
                        .untilAsserted(() -> {
                            var answer = p.query(expr);
                            assertThat(answer.path("status").asText())
                                    .as(q.dashboard() + " / " + q.panel() + ": " + expr + " -> " + answer)
                                    .isEqualTo("success");
                            assertThat(answer.path("data").path("result").size())
                                    .as(q.dashboard() + " / " + q.panel() + ": " + expr + " returns series")
                                    .isPositive();
                        });
            }
        }

        Map<String, java.util.Set<String>> exported = new java.util.TreeMap<>(
                DashboardQueries.exported(RestAssured.get("/q/metrics").asString()));
        java.net.http.HttpResponse<String> dcgm = java.net.http.HttpClient.newBuilder()
                .version(java.net.http.HttpClient.Version.HTTP_1_1)
                .build()
                .send(
                        java.net.http.HttpRequest.newBuilder(URI.create(
                                        CraterTestResource.simulator().dcgmUrl()))
                                .build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
        exported.putAll(DashboardQueries.exported(dcgm.body()));
        for (DashboardQueries.Query q : queries) {
            List<DashboardQueries.Selector> selectors =
                    DashboardQueries.selectors(DashboardQueries.substitute(q.expr(), variableSets.get(0)));
            assertThat(selectors).as(q.expr()).isNotEmpty();
            for (DashboardQueries.Selector sel : selectors) {
                assertThat(exported)
                        .as(q.dashboard() + " / " + q.panel() + ": " + sel.metric()
                                + " is exported by Crater or the simulated DCGM endpoint")
                        .containsKey(sel.metric());
                assertThat(exported.get(sel.metric()))
                        .as(q.dashboard() + " / " + q.panel() + ": the labels of " + sel.metric())
                        .containsAll(sel.labels());
            }
        }
    }

    @Test
    @Order(3)
    void theDashboardQueryReaderFindsMetricsAndMatcherLabels() {
        assertThat(
                        DashboardQueries.selectors(
                                "histogram_quantile(0.9, sum by (account, le) (rate(crater_queue_wait_seconds_bucket{account=~\".*\"}[1m])))"))
                .containsExactly(
                        new DashboardQueries.Selector("crater_queue_wait_seconds_bucket", java.util.Set.of("account")));
        assertThat(DashboardQueries.selectors(
                        "count by (modelName) (DCGM_FI_DEV_GPU_UTIL{modelName=~\"a\",pod!=\"\"}) or up * 0 + 1e6"))
                .extracting(DashboardQueries.Selector::metric)
                .containsExactly("DCGM_FI_DEV_GPU_UTIL", "up");
        assertThat(DashboardQueries.substitute(
                        "rate(x{account=~\"$account\"}[$__rate_interval])", Map.of("account", "lab")))
                .isEqualTo("rate(x{account=~\"lab\"}[1m])");
    }

    /** Last, whatever the others did: the busy job gives its GPUs back to the tests that share this boot. */
    /**
     * The GPUs page's Prometheus source reads the same cards from the real Prometheus as straight from the exporter
     * it scrapes: every card once, with its node, model and UUID and who holds it, the busy job's two cards held by
     * its pod at its utilisation.
     */
    @Test
    @Order(4)
    void theGpuPagesPrometheusSourceReadsEveryCardWithItsHolder() throws Exception {
        RealPrometheus p = prometheus();
        String pod = podOf(busyJob).getMetadata().getName();
        List<io.crater.gpus.CardsFrom.Card> direct =
                io.crater.gpus.CardsFrom.exporter(CraterTestResource.simulator().dcgmUrl());
        assertThat(direct).isNotEmpty();
        await().atMost(Duration.ofSeconds(60))
                .pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> {
                    List<io.crater.gpus.CardsFrom.Card> cards = io.crater.gpus.CardsFrom.prometheus(p.url());
                    assertThat(cards)
                            .extracting(
                                    io.crater.gpus.CardsFrom.Card::uuid,
                                    io.crater.gpus.CardsFrom.Card::node,
                                    io.crater.gpus.CardsFrom.Card::index,
                                    io.crater.gpus.CardsFrom.Card::model)
                            .containsExactlyInAnyOrderElementsOf(direct.stream()
                                    .map(c -> org.assertj.core.groups.Tuple.tuple(
                                            c.uuid(), c.node(), c.index(), c.model()))
                                    .toList());
                    List<io.crater.gpus.CardsFrom.Card> held =
                            cards.stream().filter(c -> pod.equals(c.pod())).toList();
                    assertThat(held).hasSize(2).allSatisfy(c -> {
                        assertThat(c.utilisation()).isCloseTo(90.0, org.assertj.core.data.Offset.offset(1e-6));
                        assertThat(c.memoryUsedMiB()).isNotNull().isPositive();
                    });
                    // Who holds each card is what the exporter says now (other tests' jobs may hold some).
                    assertThat(cards)
                            .extracting(io.crater.gpus.CardsFrom.Card::uuid, io.crater.gpus.CardsFrom.Card::pod)
                            .containsExactlyInAnyOrderElementsOf(
                                    io.crater.gpus.CardsFrom.exporter(CraterTestResource.simulator()
                                                    .dcgmUrl())
                                            .stream()
                                            .map(c -> org.assertj.core.groups.Tuple.tuple(c.uuid(), c.pod()))
                                            .toList());
                });
    }

    @Test
    @Order(99)
    void theBusyJobIsStoppedForTheTestsThatShareTheBoot() {
        org.junit.jupiter.api.Assumptions.assumeTrue(busyJob != null, "no busy job was started");
        io.crater.Api.as(busyOwner)
                .post("/api/v1/jobs/" + busyJob + "/stop")
                .then()
                .statusCode(200);
        org.awaitility.Awaitility.await()
                .atMost(java.time.Duration.ofSeconds(30))
                .until(() -> "Stopped"
                        .equals(io.crater.Api.as(busyOwner)
                                .get("/api/v1/jobs/" + busyJob)
                                .then()
                                .extract()
                                .path("job.state")));
    }
}
