package io.crater.cluster;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import io.crater.CraterTestResource;
import io.crater.TestAuth;
import io.crater.kube.KubeClients;
import io.crater.volcano.VolcanoJob;
import io.crater.volcano.VolcanoTask;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class ClusterResourceTest {

    @TestHTTPResource("/")
    URL base;

    @Test
    void nodesListTheSimulatedFleet() {
        given().auth()
                .oauth2(TestAuth.adminToken())
                .get("/api/v1/cluster/nodes")
                .then()
                .statusCode(200)
                .body("items", hasSize(12))
                .body("items.find { it.name == 'a100-0' }.accelerator.model", equalTo("nvidia-a100-80gb"))
                .body("items.find { it.name == 'a100-0' }.accelerator.total", equalTo(8))
                .body("items.find { it.name == 'ascend-1' }.accelerator.displayName", equalTo("Ascend 910B"))
                .body("items.find { it.name == 'cpu-0' }.accelerator", equalTo(null))
                .body("items.find { it.name == 'cpu-0' }.ready", equalTo(true));
    }

    @Test
    void acceleratorTotalsFollowBoundPods() {
        Map<String, Integer> totals = new java.util.HashMap<>();
        List<Map<String, Object>> items = given().auth()
                .oauth2(TestAuth.adminToken())
                .get("/api/v1/cluster/accelerators")
                .then()
                .statusCode(200)
                .extract()
                .path("items");
        items.forEach(i -> totals.put((String) i.get("model"), (Integer) i.get("total")));
        assertThat(totals)
                .containsEntry("nvidia-a100-80gb", 32)
                .containsEntry("nvidia-h100-80gb", 16)
                .containsEntry("ascend-910b", 16)
                .containsEntry("nvidia-rtx-4090", 8);

        try (KubernetesClient k8s =
                KubeClients.forUrl(CraterTestResource.simulator().url())) {
            k8s.resources(VolcanoJob.class)
                    .inNamespace("crater-jobs")
                    .resource(h100Job("c-alloc1", 3))
                    .create();
            await().atMost(Duration.ofSeconds(20))
                    .untilAsserted(() -> given().auth()
                            .oauth2(TestAuth.adminToken())
                            .get("/api/v1/cluster/accelerators")
                            .then()
                            .body("items.find { it.model == 'nvidia-h100-80gb' }.allocated", equalTo(3))
                            .body("items.find { it.model == 'nvidia-h100-80gb' }.free", equalTo(13)));
            k8s.resources(VolcanoJob.class)
                    .inNamespace("crater-jobs")
                    .withName("c-alloc1")
                    .delete();
            await().atMost(Duration.ofSeconds(20))
                    .untilAsserted(() -> given().auth()
                            .oauth2(TestAuth.adminToken())
                            .get("/api/v1/cluster/accelerators")
                            .then()
                            .body("items.find { it.model == 'nvidia-h100-80gb' }.allocated", equalTo(0)));
        }
    }

    @Test
    void nodeEventsStreamLiveAndReplayAfterLastEventId() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        List<String> lines = java.util.Collections.synchronizedList(new ArrayList<>());
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "api/v1/events?topics=nodes"))
                .header("Authorization", "Bearer " + TestAuth.adminToken())
                .build();
        HttpResponse<java.io.InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type").orElse("")).startsWith("text/event-stream");
        CompletableFuture<Void> reader = CompletableFuture.runAsync(() -> {
            try (BufferedReader r =
                    new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    lines.add(line);
                }
            } catch (Exception ignored) {
                // the stream is closed at the end of the test
            }
        });
        try (KubernetesClient k8s =
                KubeClients.forUrl(CraterTestResource.simulator().url())) {
            k8s.resources(VolcanoJob.class)
                    .inNamespace("crater-jobs")
                    .resource(h100Job("c-sse1", 2))
                    .create();
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> lines.stream()
                            .anyMatch(
                                    l -> l.startsWith("data:") && l.contains("\"allocated\":2") && l.contains("h100")));
            k8s.resources(VolcanoJob.class)
                    .inNamespace("crater-jobs")
                    .withName("c-sse1")
                    .delete();
            // The release of the GPUs is an event of its own.
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> lines.stream().filter(l -> l.startsWith("id:")).count() >= 2);
        }
        List<String> ids = lines.stream()
                .filter(l -> l.startsWith("id:"))
                .map(l -> l.substring(3).trim())
                .toList();
        assertThat(lines).contains("event:node");
        assertThat(ids).isNotEmpty();
        response.body().close();
        reader.cancel(true);

        // Reconnect from the first id seen: the later events come again, and nothing before it.
        long firstId = Long.parseLong(ids.get(0));
        HttpRequest resume = HttpRequest.newBuilder(URI.create(base + "api/v1/events?topics=nodes"))
                .header("Authorization", "Bearer " + TestAuth.adminToken())
                .header("Last-Event-ID", Long.toString(firstId))
                .build();
        HttpResponse<java.io.InputStream> replay = http.send(resume, HttpResponse.BodyHandlers.ofInputStream());
        List<String> replayed = new ArrayList<>();
        CompletableFuture<Void> replayReader = CompletableFuture.runAsync(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(replay.body(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    synchronized (replayed) {
                        replayed.add(line);
                    }
                }
            } catch (Exception ignored) {
                // closed below
            }
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            synchronized (replayed) {
                return replayed.stream().anyMatch(l -> l.equals("id:" + ids.get(1)) || l.equals("id: " + ids.get(1)));
            }
        });
        synchronized (replayed) {
            assertThat(replayed).noneMatch(l -> l.replace(" ", "").equals("id:" + firstId));
        }
        replay.body().close();
        replayReader.get(5, TimeUnit.SECONDS);
    }

    @Test
    void eventTopicsAreCheckedBeforeStreaming() {
        given().auth()
                .oauth2(TestAuth.adminToken())
                .get("/api/v1/events?topics=bogus")
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("code", equalTo("InvalidTopics"));
        given().get("/api/v1/events?topics=nodes").then().statusCode(401);
    }

    static VolcanoJob h100Job(String name, int gpus) {
        VolcanoJob job = new VolcanoJob();
        job.getMetadata().setName(name);
        job.getSpec().schedulerName = "volcano";
        job.getSpec().queue = "default";
        job.getSpec().minAvailable = 1;
        job.getSpec().tasks = List.of(new VolcanoTask(
                "main",
                1,
                new PodTemplateSpecBuilder()
                        .withNewSpec()
                        .addNewContainer()
                        .withName("main")
                        .withImage("busybox")
                        .withNewResources()
                        .withRequests(Map.of(
                                "cpu",
                                new Quantity("4"),
                                "memory",
                                new Quantity("16Gi"),
                                "nvidia.com/gpu",
                                new Quantity(Integer.toString(gpus))))
                        .endResources()
                        .endContainer()
                        .withNodeSelector(Map.of("nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3"))
                        .endSpec()
                        .build()));
        return job;
    }
}
