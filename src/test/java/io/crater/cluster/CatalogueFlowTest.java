package io.crater.cluster;

import static io.crater.Api.admin;
import static io.crater.Api.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.crater.Db;
import io.crater.job.Flows;
import io.crater.kube.KubeClients;
import io.crater.sim.cluster.Fleet;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The catalogue curated through the API: add, edit, retire (no new jobs or quota), delete only what nothing uses; and
 * the catalogue following the nodes: MIG and HAMi nodes described in a fleet, proposed, accepted, and a job on the
 * new model admitted and running on them.
 */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class CatalogueFlowTest {

    static final String PW = "Catalogue-pass-2026";

    /** Nodes the default fleet lacks: a MIG node (mixed strategy) and a HAMi node, described as a fleet. */
    static final String FLEET = """
            nodeGroups:
              - name: cat-mig
                count: 1
                cpu: "64"
                memory: 512Gi
                labels: {nvidia.com/gpu.product: NVIDIA-A30}
                accelerators:
                  - {resource: nvidia.com/mig-1g.6gb, count: 4}
                  - {resource: nvidia.com/mig-2g.12gb, count: 2}
              - name: cat-hami
                count: 1
                cpu: "64"
                memory: 512Gi
                accelerator: {resource: nvidia.com/gpu, count: 20, labels: {nvidia.com/gpu.product: NVIDIA-L40S}}
                resources: {nvidia.com/gpumem: "92160", nvidia.com/gpucores: "200"}
            """;

    static Map<String, Object> model(String key, String resource) {
        Map<String, Object> m = new HashMap<>();
        m.put("key", key);
        m.put("resource", resource);
        m.put("displayName", "Test " + key);
        m.put("vendor", "Hygon");
        return m;
    }

    static Map<String, Object> job(String model, int count) {
        return Map.of(
                "name",
                "on-" + model,
                "kind",
                "custom",
                "image",
                "python:3.12",
                "command",
                List.of("python", "train.py"),
                "resources",
                Map.of("cpu", "2", "memory", "8Gi", "acceleratorModel", model, "accelerators", count));
    }

    @jakarta.inject.Inject
    CatalogueSeed seeder;

    @jakarta.inject.Inject
    com.fasterxml.jackson.databind.ObjectMapper json;

    /**
     * The models a deployment declares (the chart's {@code catalogue.models}): added once, audited, left alone
     * afterwards (an admin's edit stands), and a declaration with bad fields is refused naming each.
     */
    @Test
    void declaredModelsAreAddedOnceAndThenCuratedByAdmins() throws Throwable {
        String declared = """
                {"models": [{"key": "seed-dcu", "resource": "example.com/seed-dcu", "displayName": "Seed DCU",
                             "vendor": "Hygon", "memoryMiB": 32768}],
                 "prices": [{"resource": "seed-dcu", "pricePerHour": "1.2"}]}
                """;
        var models = CatalogueSeed.models(java.util.Optional.of(declared), json);
        assertThat(seedOnce(models)).containsExactly("seed-dcu");
        // Every replica's catalogue reloads on the seed's NOTIFY, a moment after it commits.
        await().atMost(Duration.ofSeconds(10)).until(() -> listedOrNull("seed-dcu") != null);
        assertThat(listed("seed-dcu")).containsEntry("displayName", "Seed DCU").containsEntry("memoryMiB", 32768);
        assertThat(Db.count("SELECT count(*) FROM audit_log WHERE action = 'accelerator-model.create'"
                        + " AND target_id = 'seed-dcu' AND actor = 'crater:seed'"))
                .isEqualTo(1);
        admin().body(Map.of("displayName", "Z100 (lab)"))
                .patch("/api/v1/accelerator-models/seed-dcu")
                .then()
                .statusCode(200);
        assertThat(seedOnce(models))
                .as("a model the catalogue has is left alone")
                .isEmpty();
        assertThat(listed("seed-dcu")).containsEntry("displayName", "Z100 (lab)");

        String bad = "{\"models\": [{\"key\": \"Bad Key\", \"resource\": \"dcu\", \"displayName\": \"x\","
                + " \"vendor\": \"x\"}]}";
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> CatalogueSeed.models(java.util.Optional.of(bad), json))
                .hasMessageContaining("models[0].key")
                .hasMessageContaining("models[0].resource");
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> CatalogueSeed.models(java.util.Optional.of("{\"models\": 3}"), json))
                .hasMessageContaining("crater.seed");
        admin().delete("/api/v1/accelerator-models/seed-dcu").then().statusCode(204);
    }

    static Map<String, Object> listed(String key) {
        Map<String, Object> m = listedOrNull(key);
        assertThat(m).as("model " + key + " in the catalogue").isNotNull();
        return m;
    }

    static Map<String, Object> listedOrNull(String key) {
        List<Map<String, Object>> all = admin().get("/api/v1/accelerator-models")
                .then()
                .statusCode(200)
                .extract()
                .path("items");
        return all.stream().filter(m -> key.equals(m.get("key"))).findFirst().orElse(null);
    }

    List<String> seedOnce(List<CatalogueService.NewModel> models) throws Throwable {
        return io.quarkus.vertx.VertxContextSupport.subscribeAndAwait(
                () -> io.quarkus.hibernate.reactive.panache.Panache.withTransaction(() -> seeder.apply(models)));
    }

    @Test
    void addEditRetireAndDeleteOnlyWhatNothingUses() throws Exception {
        String user = Api.user("cat.user", PW);
        // Bad input: every field named, nothing added.
        JsonPath bad = admin().body(Map.of(
                        "key",
                        "Bad Key",
                        "resource",
                        "dcu",
                        "labelKey",
                        "a/b",
                        "displayName",
                        "",
                        "vendor",
                        "x",
                        "memoryMiB",
                        0))
                .post("/api/v1/accelerator-models")
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("code", equalTo("InvalidModel"))
                .extract()
                .jsonPath();
        assertThat(bad.getList("errors.field", String.class))
                .contains("key", "resource", "labelValue", "displayName", "memoryMiB");
        as(user).body(model("cat-dcu", "hygon.com/dcu"))
                .post("/api/v1/accelerator-models")
                .then()
                .statusCode(403);
        assertThat(Db.count("SELECT count(*) FROM accelerator_models WHERE key IN ('bad key', 'cat-dcu')"))
                .isZero();

        admin().body(model("cat-dcu", "hygon.com/dcu"))
                .post("/api/v1/accelerator-models")
                .then()
                .statusCode(201)
                .header("Location", containsString("/api/v1/accelerator-models/cat-dcu"))
                .body("resource", equalTo("hygon.com/dcu"))
                .body("labelKey", equalTo(null))
                .body("retired", equalTo(false));
        admin().body(model("cat-dcu", "cambricon.com/mlu"))
                .post("/api/v1/accelerator-models")
                .then()
                .statusCode(409)
                .body("code", equalTo("ModelExists"));
        admin().body(model("cat-dcu-again", "hygon.com/dcu"))
                .post("/api/v1/accelerator-models")
                .then()
                .statusCode(409)
                .body("code", equalTo("ModelMappingTaken"));
        admin().body(Map.of("displayName", "Hygon DCU Z100", "memoryMiB", 32768))
                .patch("/api/v1/accelerator-models/cat-dcu")
                .then()
                .statusCode(200)
                .body("displayName", equalTo("Hygon DCU Z100"))
                .body("memoryMiB", equalTo(32768));

        // Used by a quota: it cannot be deleted, only retired.
        Flows.account("cat-lab", List.of(Flows.line("cat-dcu", "2", "4")), "cat.user");
        admin().delete("/api/v1/accelerator-models/cat-dcu")
                .then()
                .statusCode(409)
                .contentType("application/problem+json")
                .body("code", equalTo("ModelInUse"))
                .body("detail", containsString("quotas (1)"))
                .body("errors.field", hasItem("quotas"));
        admin().post("/api/v1/accelerator-models/cat-dcu/retire")
                .then()
                .statusCode(200)
                .body("retired", equalTo(true))
                .body("retiredAt", not(equalTo(null)));

        // Retired: no new submissions, no new quota grants, no raised quota; the quota it has stays.
        as(user).header("X-Crater-Account", "cat-lab")
                .body(job("cat-dcu", 1))
                .post("/api/v1/jobs")
                .then()
                .statusCode(422)
                .body("code", equalTo("JobRejected"))
                .body("reasons[0].code", equalTo("ModelRetired"))
                .body("reasons[0].args.model", equalTo("cat-dcu"));
        as(user).body(Map.of(
                        "kind",
                        "quota-grant",
                        "account",
                        "cat-lab",
                        "resource",
                        "cat-dcu",
                        "amount",
                        "2",
                        "until",
                        Instant.now().plusSeconds(86_400).toString(),
                        "reason",
                        "a deadline"))
                .post("/api/v1/approvals")
                .then()
                .statusCode(400)
                .body("errors.find { it.field == 'resource' }.message", containsString("ModelRetired"));
        admin().body(Map.of("items", List.of(Flows.line("cat-dcu", "2", "8"))))
                .put("/api/v1/accounts/cat-lab/quota")
                .then()
                .statusCode(400)
                .body("code", equalTo("ModelRetired"));
        admin().body(Map.of("items", List.of(Flows.line("cat-dcu", "1", "4"))))
                .put("/api/v1/accounts/cat-lab/quota")
                .then()
                .statusCode(200);
        assertThat(Db.count("SELECT count(*) FROM jobs j JOIN job_requests r ON r.job_id = j.id"
                        + " WHERE r.resource = 'cat-dcu'"))
                .isZero();
        admin().post("/api/v1/accelerator-models/cat-dcu/unretire")
                .then()
                .statusCode(200)
                .body("retired", equalTo(false));

        // Nothing uses this one: deleted, and gone from the list.
        admin().body(model("cat-mlu", "cambricon.com/mlu"))
                .post("/api/v1/accelerator-models")
                .then()
                .statusCode(201);
        as(user).delete("/api/v1/accelerator-models/cat-mlu").then().statusCode(403);
        admin().delete("/api/v1/accelerator-models/cat-mlu").then().statusCode(204);
        admin().get("/api/v1/accelerator-models").then().body("items.key", not(hasItem("cat-mlu")));
        admin().delete("/api/v1/accelerator-models/cat-mlu").then().statusCode(404);
    }

    @Test
    void migAndHamiNodesAreProposedAcceptedAndRunJobs() {
        String user = Api.user("cat.runner", PW);
        List<Node> nodes = Fleet.parse(new ByteArrayInputStream(FLEET.getBytes(StandardCharsets.UTF_8)))
                .nodes();
        try (KubernetesClient k8s =
                KubeClients.forUrl(CraterTestResource.simulator().url())) {
            nodes.forEach(n -> k8s.nodes().resource(n).createOr(c -> c.update()));
        }
        await().atMost(Duration.ofSeconds(10))
                .until(() -> admin().get("/api/v1/accelerator-models/proposals")
                        .then()
                        .extract()
                        .jsonPath()
                        .getList("items.key")
                        .contains("nvidia-l40s-vgpu"));
        JsonPath proposals = admin().get("/api/v1/accelerator-models/proposals")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(proposals.getMap("items.find { it.key == 'nvidia-a30-mig-1g-6gb' }"))
                .containsEntry("resource", "nvidia.com/mig-1g.6gb")
                .containsEntry("labelKey", "nvidia.com/gpu.product")
                .containsEntry("labelValue", "NVIDIA-A30")
                .containsEntry("memoryMiB", 6144)
                .containsEntry("nodes", List.of("cat-mig-0"))
                .containsEntry("count", 4);
        assertThat(proposals.getMap("items.find { it.key == 'nvidia-a30-mig-2g-12gb' }"))
                .containsEntry("count", 2);
        assertThat(proposals.getMap("items.find { it.key == 'nvidia-l40s-vgpu' }"))
                .containsEntry("resource", "nvidia.com/gpu")
                .containsEntry("memoryResource", "nvidia.com/gpumem")
                .containsEntry("memoryMiB", 4608)
                .containsEntry("count", 20);
        assertThat(proposals.getList("items.resource")).doesNotContain("nvidia.com/gpumem", "nvidia.com/gpucores");
        JsonPath nodesPage = admin().get("/api/v1/cluster/nodes")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(nodesPage.getList("items.find { it.name == 'cat-mig-0' }.uncovered.resource"))
                .containsExactly("nvidia.com/mig-1g.6gb", "nvidia.com/mig-2g.12gb");
        assertThat(nodesPage.getList("items.find { it.name == 'cat-hami-0' }.uncovered.resource"))
                .containsExactly("nvidia.com/gpu");
        assertThat(nodesPage.getList("items.find { it.name == 'a100-0' }.uncovered"))
                .isEmpty();
        as(user).get("/api/v1/accelerator-models/proposals").then().statusCode(403);

        admin().body(Map.of("displayName", "A30 MIG 1g.6gb"))
                .post("/api/v1/accelerator-models/proposals/nvidia-a30-mig-1g-6gb/accept")
                .then()
                .statusCode(201)
                .body("key", equalTo("nvidia-a30-mig-1g-6gb"))
                .body("displayName", equalTo("A30 MIG 1g.6gb"))
                .body("vendor", equalTo("NVIDIA"));
        admin().body(Map.of())
                .post("/api/v1/accelerator-models/proposals/nvidia-l40s-vgpu/accept")
                .then()
                .statusCode(201)
                .body("memoryResource", equalTo("nvidia.com/gpumem"));
        admin().body(Map.of())
                .post("/api/v1/accelerator-models/proposals/nvidia-l40s-vgpu/accept")
                .then()
                .statusCode(404);
        assertThat(admin().get("/api/v1/accelerator-models/proposals")
                        .then()
                        .extract()
                        .jsonPath()
                        .getList("items.key"))
                .doesNotContain("nvidia-a30-mig-1g-6gb", "nvidia-l40s-vgpu")
                .contains("nvidia-a30-mig-2g-12gb");
        assertThat(admin().get("/api/v1/cluster/nodes")
                        .then()
                        .extract()
                        .jsonPath()
                        .getList("items.find { it.name == 'cat-mig-0' }.uncovered.resource"))
                .containsExactly("nvidia.com/mig-2g.12gb");

        Flows.account(
                "cat-run",
                List.of(
                        Flows.line("cpu", "16", "16"),
                        Flows.line("memory", "64Gi", "64Gi"),
                        Flows.line("nvidia-a30-mig-1g-6gb", "2", "2"),
                        Flows.line("nvidia-l40s-vgpu", "2", "2")),
                "cat.runner");
        String mig = Flows.submit(user, "cat-run", job("nvidia-a30-mig-1g-6gb", 2));
        String vgpu = Flows.submit(user, "cat-run", job("nvidia-l40s-vgpu", 1));
        Flows.awaitRunning(user, mig);
        Flows.awaitRunning(user, vgpu);
        try (KubernetesClient k8s =
                KubeClients.forUrl(CraterTestResource.simulator().url())) {
            Pod migPod = onlyPod(k8s, mig);
            assertThat(migPod.getSpec().getNodeName()).isEqualTo("cat-mig-0");
            assertThat(migPod.getSpec().getContainers().get(0).getResources().getLimits())
                    .containsKey("nvidia.com/mig-1g.6gb");
            Pod vgpuPod = onlyPod(k8s, vgpu);
            assertThat(vgpuPod.getSpec().getNodeName()).isEqualTo("cat-hami-0");
            assertThat(vgpuPod.getSpec()
                            .getContainers()
                            .get(0)
                            .getResources()
                            .getLimits()
                            .get("nvidia.com/gpumem")
                            .toString())
                    .isEqualTo("4608");
        }
        // In use by running jobs: not deletable; retired, they keep running.
        admin().delete("/api/v1/accelerator-models/nvidia-a30-mig-1g-6gb")
                .then()
                .statusCode(409)
                .body("errors.field", hasItem("jobs"));
        admin().post("/api/v1/accelerator-models/nvidia-a30-mig-1g-6gb/retire")
                .then()
                .statusCode(200);
        assertThat(Flows.state(user, mig)).isEqualTo("Running");
        as(user).post("/api/v1/jobs/" + mig + "/stop").then().statusCode(200);
        as(user).post("/api/v1/jobs/" + vgpu + "/stop").then().statusCode(200);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> Flows.state(user, mig).equals("Stopped"));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> Flows.state(user, vgpu).equals("Stopped"));
    }

    private static Pod onlyPod(KubernetesClient k8s, String job) {
        List<Pod> pods = k8s.pods()
                .inNamespace("crater-jobs")
                .withLabel("crater.io/job-id", job)
                .list()
                .getItems();
        assertThat(pods).hasSize(1);
        return pods.get(0);
    }

    /** The nodes this class added leave the simulated cluster, so the other classes see the default fleet. */
    @AfterAll
    static void removeNodes() {
        try (KubernetesClient k8s =
                KubeClients.forUrl(CraterTestResource.simulator().url())) {
            k8s.nodes().withName("cat-mig-0").delete();
            k8s.nodes().withName("cat-hami-0").delete();
        }
    }
}
