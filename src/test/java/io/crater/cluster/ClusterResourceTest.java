package io.crater.cluster;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import io.crater.Api;
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
import io.restassured.path.json.JsonPath;
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
        String firstId = ids.get(0);
        assertThat(firstId)
                .as("an id is the event's place in the log: <xid>-<seq>")
                .matches("\\d+-\\d+");
        HttpRequest resume = HttpRequest.newBuilder(URI.create(base + "api/v1/events?topics=nodes"))
                .header("Authorization", "Bearer " + TestAuth.adminToken())
                .header("Last-Event-ID", firstId)
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

    static final String GPU_PW = "Gpus-pass-2026";
    static final String A100 = "nvidia-a100-80gb";

    static void gpuAccount(String slug, Map<String, String> members) {
        Api.admin().body(Map.of("slug", slug, "name", slug)).post("/api/v1/accounts");
        Api.admin()
                .body(Map.of(
                        "items",
                        List.of(
                                Map.of("resource", A100, "guaranteed", "4", "max", "4"),
                                Map.of("resource", "cpu", "guaranteed", "16", "max", "16"),
                                Map.of("resource", "memory", "guaranteed", "64Gi", "max", "64Gi"))))
                .put("/api/v1/accounts/" + slug + "/quota")
                .then()
                .statusCode(200);
        members.forEach((user, role) -> Api.admin()
                .body(Map.of("role", role))
                .put("/api/v1/accounts/" + slug + "/members/" + user)
                .then()
                .statusCode(200));
    }

    static String gpuJob(String token, String account, String name, int gpus, String util) {
        return Api.as(token)
                .header("X-Crater-Account", account)
                .body(Map.of(
                        "name",
                        name,
                        "kind",
                        "custom",
                        "image",
                        "python:3.12",
                        "command",
                        List.of("python", "train.py"),
                        "env",
                        Map.of("SIM_GPU_UTIL", util),
                        "resources",
                        Map.of("cpu", "2", "memory", "8Gi", "acceleratorModel", A100, "accelerators", gpus)))
                .post("/api/v1/jobs")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
    }

    static JsonPath gpus(String token, String query) {
        return Api.as(token)
                .get("/api/v1/cluster/gpus" + query)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }

    /** The cards (with their node's name as {@code node}) whose holder is this job, or every held card when null. */
    static List<Map<String, Object>> cardsOf(JsonPath body, String job) {
        List<Map<String, Object>> out = new ArrayList<>();
        List<Map<String, Object>> nodes = body.getList("nodes");
        for (Map<String, Object> node : nodes) {
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> cards = (List<Map<String, Object>>) node.get("cards");
            for (Map<String, Object> card : cards) {
                @SuppressWarnings("unchecked")
                Map<String, Object> holder = (Map<String, Object>) card.get("holder");
                if (holder != null && (job == null || job.equals(holder.get("job")))) {
                    Map<String, Object> c = new java.util.HashMap<>(card);
                    c.put("node", node.get("name"));
                    out.add(c);
                }
            }
        }
        return out;
    }

    @Test
    void gpusShowLiveReadingsAndOnlyTheHoldersTheCallerMaySee() {
        String ann = Api.user("gpus.ann", GPU_PW);
        String lead = Api.user("gpus.lead", GPU_PW);
        String carol = Api.user("gpus.carol", GPU_PW);
        String bob = Api.user("gpus.bob", GPU_PW);
        gpuAccount("gpus-a", Map.of("gpus.ann", "member", "gpus.lead", "admin", "gpus.carol", "member"));
        gpuAccount("gpus-b", Map.of("gpus.bob", "member"));
        String annJob = gpuJob(ann, "gpus-a", "ann-train", 2, "73");
        String bobJob = gpuJob(bob, "gpus-b", "bob-train", 1, "41");

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            JsonPath all = gpus(TestAuth.adminToken(), "");
            assertThat(cardsOf(all, annJob)).hasSize(2);
            assertThat(cardsOf(all, bobJob)).hasSize(1);
        });

        // The owner sees their job with its names and the utilisation SIM_GPU_UTIL gives; the other job is hidden.
        JsonPath asAnn = gpus(ann, "");
        assertThat(asAnn.getString("unavailable")).isNull();
        List<Map<String, Object>> annCards = cardsOf(asAnn, annJob);
        assertThat(annCards).hasSize(2).allSatisfy(c -> {
            assertThat(((Number) c.get("utilisation")).doubleValue()).isEqualTo(73.0);
            assertThat(c.get("holder"))
                    .isEqualTo(Map.of(
                            "job", annJob,
                            "jobName", "ann-train",
                            "account", "gpus-a",
                            "owner", "gpus.ann",
                            "heldByOtherAccount", false));
            assertThat(((Number) c.get("powerWatts")).doubleValue()).isGreaterThan(55);
            assertThat(((Number) c.get("memoryTotalMiB")).longValue()).isGreaterThan(0);
        });
        String bobNode = (String) cardsOf(gpus(bob, ""), bobJob).get(0).get("node");
        List<Map<String, Object>> hiddenToAnn = cardsOf(asAnn, null).stream()
                .filter(c -> bobNode.equals(c.get("node"))
                        && Double.valueOf(41).equals(((Number) c.get("utilisation")).doubleValue()))
                .toList();
        assertThat(hiddenToAnn)
                .isNotEmpty()
                .allSatisfy(c -> assertThat(c.get("holder")).isEqualTo(Map.of("heldByOtherAccount", true)));
        assertThat(cardsOf(gpus(bob, ""), annJob)).isEmpty();
        // Ann's account admin sees her job; another member of her account does not.
        assertThat(cardsOf(gpus(lead, ""), annJob)).hasSize(2);
        assertThat(cardsOf(gpus(carol, ""), annJob)).isEmpty();

        // Free counts agree with the cards, and the summary with the nodes.
        JsonPath body = gpus(ann, "");
        List<Map<String, Object>> nodes = body.getList("nodes");
        Map<String, Integer> freeByNode = new java.util.HashMap<>();
        for (Map<String, Object> node : nodes) {
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> cards = (List<Map<String, Object>>) node.get("cards");
            long unheld = cards.stream().filter(c -> c.get("holder") == null).count();
            assertThat(((Number) node.get("free")).longValue())
                    .as(node.get("name").toString())
                    .isEqualTo(Boolean.TRUE.equals(node.get("schedulable")) ? unheld : 0);
            if (A100.equals(node.get("model"))) {
                freeByNode.put((String) node.get("name"), ((Number) node.get("free")).intValue());
            }
        }
        assertThat(freeByNode).hasSize(4);
        int free = freeByNode.values().stream().mapToInt(Integer::intValue).sum();
        assertThat(body.getInt("models.find { it.model == 'nvidia-a100-80gb' }.cards"))
                .isEqualTo(32);
        assertThat(body.getInt("models.find { it.model == 'nvidia-a100-80gb' }.free"))
                .isEqualTo(free);
        assertThat(body.getInt("models.find { it.model == 'nvidia-a100-80gb' }.allocated"))
                .isEqualTo(32 - free);

        // minFree keeps the nodes with at least that many free cards of the model.
        int most =
                freeByNode.values().stream().mapToInt(Integer::intValue).max().orElseThrow();
        JsonPath filtered = gpus(ann, "?minFree=" + most + "&model=" + A100);
        assertThat(filtered.getList("nodes.name", String.class))
                .isNotEmpty()
                .containsExactlyInAnyOrderElementsOf(freeByNode.entrySet().stream()
                        .filter(e -> e.getValue() >= most)
                        .map(Map.Entry::getKey)
                        .toList());
        assertThat(filtered.getList("nodes.model", String.class)).containsOnly(A100);
        assertThat(gpus(ann, "?minFree=" + (most + 1) + "&model=" + A100).getList("nodes"))
                .isEmpty();

        Api.as(ann)
                .get("/api/v1/cluster/gpus?minFree=-1")
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("errors[0].field", equalTo("minFree"))
                .body("errors[0].message", equalTo("a whole number from 0 to 1024"));
        Api.as(ann).post("/api/v1/jobs/" + annJob + "/stop").then().statusCode(200);
        Api.as(bob).post("/api/v1/jobs/" + bobJob + "/stop").then().statusCode(200);
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
