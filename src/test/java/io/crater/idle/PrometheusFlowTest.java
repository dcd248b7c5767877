package io.crater.idle;

import static io.crater.job.Flows.line;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.crater.Api;
import io.crater.CraterTestResource;
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
}
