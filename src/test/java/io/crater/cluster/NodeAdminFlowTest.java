package io.crater.cluster;

import static io.crater.Api.admin;
import static io.crater.Api.as;
import static io.crater.job.Flows.account;
import static io.crater.job.Flows.line;
import static io.crater.job.Flows.state;
import static io.crater.job.Flows.submit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.crater.kube.KubeClients;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Node administration in the simulated cluster (docs/nodes.md): a cordon names the node and its reason in a waiting
 * job's reasons, a drain evicts the node's pods through the Eviction API and stops Crater's jobs there with
 * {@code NodeDrained}, an uncordon lets the waiting job start; labels and taints are edited, bad edits change nothing.
 */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class NodeAdminFlowTest {

    static final String PW = "Nodes-pass-2026";
    static final String RTX = "nvidia-rtx-4090";
    static final List<String> RTX_NODES = List.of("rtx4090-0", "rtx4090-1");

    static Node node(String name) {
        try (KubernetesClient k8s =
                KubeClients.forUrl(CraterTestResource.simulator().url())) {
            return k8s.nodes().withName(name).get();
        }
    }

    static String nodeOf(String token, String job) {
        return as(token).get("/api/v1/jobs/" + job).then().extract().path("pods[0].node");
    }

    @Test
    void cordonNamesTheNodeInWaitsDrainStopsWithNodeDrainedAndUncordonReturnsIt() {
        String kim = Api.user("nodes.kim", PW);
        account(
                "nodes-lab",
                List.of(line(RTX, "8", "8"), line("cpu", "64", "64"), line("memory", "256Gi", "256Gi")),
                "nodes.kim");
        try {
            // One node cordoned: the whole-node job lands on the other.
            admin().body(Map.of("reason", "fan replacement"))
                    .post("/api/v1/admin/nodes/rtx4090-1/cordon")
                    .then()
                    .statusCode(200)
                    .body("schedulable", equalTo(false))
                    .body("cordon.reason", equalTo("fan replacement"))
                    .body("cordon.by", equalTo("admin"));
            Node cordoned = node("rtx4090-1");
            assertThat(cordoned.getSpec().getUnschedulable()).isTrue();
            assertThat(cordoned.getMetadata().getAnnotations())
                    .containsEntry(NodeCordon.REASON, "fan replacement")
                    .containsEntry(NodeCordon.BY, "admin")
                    .containsKey(NodeCordon.AT);
            String first = submit(kim, "nodes-lab", Api.trainingJob("whole-node", RTX, 4));
            await().atMost(Duration.ofSeconds(40)).until(() -> "Running".equals(state(kim, first)));
            assertThat(nodeOf(kim, first)).isEqualTo("rtx4090-0");

            // Draining the other stops the job with NodeDrained; its pod is evicted.
            JsonPath drained = admin().body(Map.of("reason", "kernel upgrade"))
                    .post("/api/v1/admin/nodes/rtx4090-0/drain")
                    .then()
                    .statusCode(200)
                    .body("node.schedulable", equalTo(false))
                    .body("node.cordon.reason", equalTo("kernel upgrade"))
                    // other tests' jobs on the node, in the same boot, are stopped too
                    .body("stoppedJobs", hasItem(first))
                    .body("blocked", equalTo(List.of()))
                    .extract()
                    .jsonPath();
            assertThat(drained.getList("evicted", String.class)).isNotEmpty();
            await().atMost(Duration.ofSeconds(40)).until(() -> "Stopped".equals(state(kim, first)));
            as(kim).get("/api/v1/jobs/" + first)
                    .then()
                    .body("stateReason", equalTo("NodeDrained"))
                    .body("history.reason", hasItem("NodeDrained"))
                    .body("history.find { it.reason == 'NodeDrained' }.args.node", equalTo("rtx4090-0"));
            await().atMost(Duration.ofSeconds(20))
                    .untilAsserted(() -> as(kim).get("/api/v1/me/notifications")
                            .then()
                            .body("items.kind", hasItem("job.node-drained")));
            await().atMost(Duration.ofSeconds(20))
                    .untilAsserted(() -> assertThat(
                                    CraterTestResource.simulator().url())
                            .satisfies(u -> {
                                try (KubernetesClient k8s = KubeClients.forUrl(u)) {
                                    // A drain keeps finished pods (as kubectl drain does): other tests' are there.
                                    assertThat(k8s
                                                    .pods()
                                                    .inAnyNamespace()
                                                    .withField("spec.nodeName", "rtx4090-0")
                                                    .list()
                                                    .getItems()
                                                    .stream()
                                                    .filter(p -> !List.of("Succeeded", "Failed")
                                                            .contains(p.getStatus()
                                                                    .getPhase()))
                                                    .map(p -> p.getMetadata().getName()))
                                            .as("pods still running or pending on the drained node")
                                            .isEmpty();
                                }
                            }));

            // Both cordoned: a new job waits, and its reasons name both nodes with their reasons.
            String second = submit(kim, "nodes-lab", Api.trainingJob("waits", RTX, 4));
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> as(kim).get("/api/v1/jobs/" + second + "/wait")
                            .then()
                            .statusCode(200)
                            .body("state", equalTo("Queued"))
                            .body("reasons.code", hasItems("InsufficientCapacity", "NodeCordoned"))
                            .body(
                                    "reasons.findAll { it.code == 'NodeCordoned' }.args.node",
                                    equalTo(List.of("rtx4090-0", "rtx4090-1")))
                            .body(
                                    "reasons.find { it.args.node == 'rtx4090-1' }.args.reason",
                                    equalTo("fan replacement"))
                            .body("reasons.find { it.args.node == 'rtx4090-0' }.numbers.cordonedNodes", equalTo(2)));

            // Uncordoned, the node takes the waiting job.
            admin().post("/api/v1/admin/nodes/rtx4090-0/uncordon")
                    .then()
                    .statusCode(200)
                    .body("schedulable", equalTo(true))
                    .body("cordon", nullValue());
            assertThat(node("rtx4090-0").getMetadata().getAnnotations()).doesNotContainKey(NodeCordon.REASON);
            await().atMost(Duration.ofSeconds(40)).until(() -> "Running".equals(state(kim, second)));
            assertThat(nodeOf(kim, second)).isEqualTo("rtx4090-0");
            as(kim).post("/api/v1/jobs/" + second + "/stop").then().statusCode(200);

            admin().queryParam("action", "node.drain")
                    .get("/api/v1/audit")
                    .then()
                    .statusCode(200)
                    .body("items.find { it.targetId == 'rtx4090-0' }.after.reason", equalTo("kernel upgrade"))
                    .body("items.find { it.targetId == 'rtx4090-0' }.actor", equalTo("admin"));
            admin().queryParam("action", "node.uncordon")
                    .get("/api/v1/audit")
                    .then()
                    .body("items.targetId", hasItem("rtx4090-0"));
        } finally {
            RTX_NODES.forEach(n -> admin().post("/api/v1/admin/nodes/" + n + "/uncordon"));
        }
    }

    @Test
    void labelsAndTaintsAreEditedAndBadEditsChangeNothing() {
        String name = "cpu-1";
        Map<String, String> before = node(name).getMetadata().getLabels();
        admin().body(Map.of("set", Map.of("bad key", "x", "rack", "r1")))
                .patch("/api/v1/admin/nodes/" + name + "/labels")
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("code", equalTo("InvalidLabels"))
                .body("errors.field", hasItem("set.bad key"));
        assertThat(node(name).getMetadata().getLabels()).isEqualTo(before);

        admin().body(Map.of("set", Map.of("crater.io/rack", "r1")))
                .patch("/api/v1/admin/nodes/" + name + "/labels")
                .then()
                .statusCode(200)
                .body("labels.'crater.io/rack'", equalTo("r1"));
        admin().body(Map.of("remove", List.of("crater.io/rack")))
                .patch("/api/v1/admin/nodes/" + name + "/labels")
                .then()
                .statusCode(200)
                .body("labels", not(org.hamcrest.Matchers.hasKey("crater.io/rack")));
        assertThat(node(name).getMetadata().getLabels()).isEqualTo(before);

        admin().body(Map.of("add", List.of(Map.of("key", "dedicated", "value", "ml", "effect", "NoRun"))))
                .patch("/api/v1/admin/nodes/" + name + "/taints")
                .then()
                .statusCode(400)
                .body("code", equalTo("InvalidTaints"))
                .body("errors.field", hasItem("add[0].effect"));
        assertThat(node(name).getSpec().getTaints()).isNullOrEmpty();
        admin().body(Map.of("add", List.of(Map.of("key", "dedicated", "value", "ml", "effect", "NoSchedule"))))
                .patch("/api/v1/admin/nodes/" + name + "/taints")
                .then()
                .statusCode(200)
                .body("taints.key", equalTo(List.of("dedicated")))
                .body("taints[0].value", equalTo("ml"))
                .body("taints[0].effect", equalTo("NoSchedule"));
        assertThat(node(name).getSpec().getTaints()).hasSize(1);
        admin().body(Map.of("remove", List.of(Map.of("key", "dedicated", "effect", "NoSchedule"))))
                .patch("/api/v1/admin/nodes/" + name + "/taints")
                .then()
                .statusCode(200)
                .body("taints", equalTo(List.of()));
        assertThat(node(name).getSpec().getTaints()).isNullOrEmpty();

        admin().body(Map.of("reason", " "))
                .post("/api/v1/admin/nodes/" + name + "/cordon")
                .then()
                .statusCode(400)
                .body("code", equalTo("InvalidCordon"));
        admin().body(Map.of("reason", "x", "requeue", true))
                .post("/api/v1/admin/nodes/" + name + "/cordon")
                .then()
                .statusCode(400)
                .body("code", equalTo("InvalidCordon"))
                .body("errors[0].field", equalTo("requeue"));
        assertThat(node(name).getSpec().getUnschedulable()).isNotEqualTo(Boolean.TRUE);
        admin().body(Map.of("reason", "x"))
                .post("/api/v1/admin/nodes/no-such-node/cordon")
                .then()
                .statusCode(404);
        admin().queryParam("action", "node.taints").get("/api/v1/audit").then().body("items.targetId", hasItem(name));
    }

    static final String A100 = "nvidia-a100-80gb";
    static final String H100 = "nvidia-h100-80gb";

    static Map<String, Object> on(Map<String, Object> job, String list, String... nodes) {
        Map<String, Object> out = new java.util.HashMap<>(job);
        out.put("nodes", Map.of(list, List.of(nodes)));
        return out;
    }

    static List<String> reasonCodes(String token, String job) {
        return as(token).get("/api/v1/jobs/" + job + "/wait").then().extract().path("reasons.code");
    }

    @Test
    void aJobRunsOnlyOnTheNodesItNamesAndBadListsAreRefused() {
        String lee = Api.user("nodes.lee", PW);
        account(
                "targets-lab",
                List.of(line(A100, "8", "8"), line("cpu", "64", "64"), line("memory", "256Gi", "256Gi")),
                "nodes.lee");
        String pinned = submit(lee, "targets-lab", on(Api.trainingJob("pinned", A100, 1), "use", "a100-2"));
        await().atMost(Duration.ofSeconds(40)).until(() -> "Running".equals(state(lee, pinned)));
        assertThat(nodeOf(lee, pinned)).isEqualTo("a100-2");
        as(lee).post("/api/v1/jobs/" + pinned + "/stop").then().statusCode(200);

        int jobsBefore =
                as(lee).get("/api/v1/jobs?account=targets-lab").then().extract().path("items.size()");
        as(lee).header("X-Crater-Account", "targets-lab")
                .body(Map.of(
                        "name", "both",
                        "kind", "custom",
                        "image", "python:3.12",
                        "command", List.of("true"),
                        "nodes", Map.of("use", List.of("a100-1"), "avoid", List.of("A100 2", "a100-1"))))
                .post("/api/v1/jobs")
                .then()
                .statusCode(400)
                .body("code", equalTo("InvalidJob"))
                .body("errors.field", hasItems("nodes", "nodes.avoid[0]"));
        as(lee).header("X-Crater-Account", "targets-lab")
                .body(on(Api.trainingJob("typo", A100, 1), "use", "a100-99"))
                .post("/api/v1/jobs")
                .then()
                .statusCode(400)
                .body("errors[0].field", equalTo("nodes.use"))
                .body("errors[0].message", equalTo("no node named a100-99"));
        assertThat((Integer) as(lee).get("/api/v1/jobs?account=targets-lab")
                        .then()
                        .extract()
                        .path("items.size()"))
                .as("refused submissions write nothing")
                .isEqualTo(jobsBefore);
    }

    @Test
    void anExclusiveNodeRunsOnlyItsAccountsJobsAndOthersWaitSayingSo() {
        String ada = Api.user("nodes.ada", PW);
        String bo = Api.user("nodes.bo", PW);
        List<Map<String, String>> quota =
                List.of(line(A100, "8", "8"), line("cpu", "64", "64"), line("memory", "256Gi", "256Gi"));
        account("excl-a", quota, "nodes.ada");
        account("excl-b", quota, "nodes.bo");
        try {
            admin().body(Map.of("account", "nobody-here"))
                    .put("/api/v1/admin/nodes/a100-3/exclusive")
                    .then()
                    .statusCode(404);
            as(ada).body(Map.of("account", "excl-a"))
                    .put("/api/v1/admin/nodes/a100-3/exclusive")
                    .then()
                    .statusCode(403);
            admin().body(Map.of("account", "excl-a"))
                    .put("/api/v1/admin/nodes/a100-3/exclusive")
                    .then()
                    .statusCode(200)
                    .body("exclusive.account", equalTo("excl-a"))
                    .body("taints.key", hasItem("crater.io/exclusive"));
            admin().body(Map.of(
                            "add", List.of(Map.of("key", "crater.io/exclusive", "value", "1", "effect", "NoSchedule"))))
                    .patch("/api/v1/admin/nodes/a100-3/taints")
                    .then()
                    .statusCode(400)
                    .body("code", equalTo("InvalidTaints"));

            String other = submit(bo, "excl-b", on(Api.trainingJob("outsider", A100, 1), "use", "a100-3"));
            await().atMost(Duration.ofSeconds(20))
                    .untilAsserted(() -> assertThat(reasonCodes(bo, other)).contains("NodeExclusive"));
            assertThat(state(bo, other)).isEqualTo("Queued");

            String own = submit(ada, "excl-a", on(Api.trainingJob("insider", A100, 1), "use", "a100-3"));
            await().atMost(Duration.ofSeconds(40)).until(() -> "Running".equals(state(ada, own)));
            assertThat(nodeOf(ada, own)).isEqualTo("a100-3");
            assertThat(state(bo, other)).isEqualTo("Queued");

            admin().delete("/api/v1/admin/nodes/a100-3/exclusive")
                    .then()
                    .statusCode(200)
                    .body("exclusive", nullValue())
                    .body("taints.key", not(hasItem("crater.io/exclusive")));
            await().atMost(Duration.ofSeconds(40)).until(() -> "Running".equals(state(bo, other)));
            assertThat(nodeOf(bo, other)).isEqualTo("a100-3");
            as(ada).post("/api/v1/jobs/" + own + "/stop");
            as(bo).post("/api/v1/jobs/" + other + "/stop");
        } finally {
            admin().delete("/api/v1/admin/nodes/a100-3/exclusive");
        }
    }

    @Test
    void aFatalXidQuarantinesTheNodeNamesTheCardInTheFailureAndAResubmitAvoidsIt() {
        String cy = Api.user("nodes.cy", PW);
        account(
                "xid-lab",
                List.of(line(H100, "8", "8"), line("cpu", "64", "64"), line("memory", "256Gi", "256Gi")),
                "nodes.cy");
        String node = null;
        try {
            String victim = submit(cy, "xid-lab", on(Api.trainingJob("victim", H100, 1), "use", "h100-0", "h100-1"));
            await().atMost(Duration.ofSeconds(40)).until(() -> "Running".equals(state(cy, victim)));
            String host = nodeOf(cy, victim);
            node = host;
            String other = host.equals("h100-0") ? "h100-1" : "h100-0";
            // The one card the job holds, as the GPUs page shows it; the fault goes on that card alone.
            int card = await().atMost(Duration.ofSeconds(30))
                    .until(
                            () -> as(cy).get("/api/v1/cluster/gpus")
                                    .then()
                                    .extract()
                                    .<Integer>path("nodes.find { it.name == '" + host
                                            + "' }.cards.find { it.holder?.job == '" + victim + "' }.index"),
                            java.util.Objects::nonNull);
            annotate(host, card + ":xid=79");

            await().atMost(Duration.ofSeconds(40)).until(() -> "Failed".equals(state(cy, victim)));
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> as(cy).get("/api/v1/jobs/" + victim)
                            .then()
                            .body("stateReason", equalTo("GpuFault"))
                            .body(
                                    "stateMessage",
                                    org.hamcrest.Matchers.matchesPattern(
                                            "GPU " + card + " on node " + host + " reported XID 79(; .*)?")));
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() ->
                            assertThat(node(host).getSpec().getUnschedulable()).isTrue());
            assertThat(node(host).getMetadata().getAnnotations())
                    .containsEntry(NodeCordon.BY, NodeMarks.HEALTH_CORDONER)
                    .containsEntry(NodeMarks.HEALTH, "quarantined");
            admin().get("/api/v1/admin/nodes/" + host + "/health")
                    .then()
                    .statusCode(200)
                    .body("state", equalTo("QUARANTINED"))
                    .body("reasons.code", equalTo(List.of("GpuXidFatal")))
                    .body("reasons[0].numbers.gpu", equalTo(card))
                    .body("evidence.kind", hasItem("XID"))
                    .body("evidence.job", hasItem(victim));
            as(cy).get("/api/v1/admin/nodes/" + host + "/health").then().statusCode(403);
            admin().get("/api/v1/cluster/nodes")
                    .then()
                    .body("items.find { it.name == '" + host + "' }.health.state", equalTo("quarantined"));
            await().atMost(Duration.ofSeconds(20))
                    .untilAsserted(() -> admin().get("/api/v1/me/notifications")
                            .then()
                            .body("items.kind", hasItem("node.gpu-quarantined")));

            // The resubmission avoids the node: it runs on the other one it named.
            String again = as(cy).post("/api/v1/jobs/" + victim + "/resubmit")
                    .then()
                    .statusCode(201)
                    .extract()
                    .path("id");
            as(cy).get("/api/v1/jobs/" + again).then().body("spec.nodes.use", equalTo(List.of(other)));
            await().atMost(Duration.ofSeconds(40)).until(() -> "Running".equals(state(cy, again)));
            assertThat(nodeOf(cy, again)).isEqualTo(other);
            annotate(host, null);
            admin().body(Map.of())
                    .post("/api/v1/admin/nodes/" + host + "/health/clear")
                    .then()
                    .statusCode(400);
            admin().body(Map.of("reason", "card reseated"))
                    .post("/api/v1/admin/nodes/" + host + "/health/clear")
                    .then()
                    .statusCode(200)
                    .body("state", equalTo("HEALTHY"))
                    .body("clearedBy", equalTo("admin"));
            assertThat(node(host).getSpec().getUnschedulable()).isNotEqualTo(Boolean.TRUE);
            assertThat(node(host).getMetadata().getAnnotations()).doesNotContainKey(NodeMarks.HEALTH);
            as(cy).post("/api/v1/jobs/" + again + "/stop");
        } finally {
            if (node != null) {
                annotate(node, null);
                admin().body(Map.of("reason", "test cleanup")).post("/api/v1/admin/nodes/" + node + "/health/clear");
            }
        }
    }

    static void annotate(String node, String faults) {
        try (KubernetesClient k8s =
                KubeClients.forUrl(CraterTestResource.simulator().url())) {
            Map<String, Object> ann = new java.util.HashMap<>();
            ann.put("sim.crater.io/gpu-faults", faults);
            k8s.nodes()
                    .withName(node)
                    .patch(
                            io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                                    io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
                            io.crater.platform.Json.write(Map.of("metadata", Map.of("annotations", ann))));
        }
    }

    @Test
    void aDrainThatRequeuesPutsACopyOfEachJobInItsPlaceWhichStartsElsewhere() {
        String dee = Api.user("nodes.dee", PW);
        account(
                "requeue-lab",
                List.of(line(A100, "8", "8"), line("cpu", "64", "64"), line("memory", "256Gi", "256Gi")),
                "nodes.dee");
        String drainedNode = null;
        try {
            String first = submit(dee, "requeue-lab", on(Api.trainingJob("moved", A100, 1), "use", "a100-0", "a100-1"));
            await().atMost(Duration.ofSeconds(40)).until(() -> "Running".equals(state(dee, first)));
            String host = nodeOf(dee, first);
            drainedNode = host;
            String other = host.equals("a100-0") ? "a100-1" : "a100-0";
            String copy = admin().body(Map.of("reason", "memory test", "requeue", true))
                    .post("/api/v1/admin/nodes/" + host + "/drain")
                    .then()
                    .statusCode(200)
                    .body("stoppedJobs", hasItem(first))
                    .extract()
                    .path("requeued." + first);
            assertThat(copy).isNotNull().isNotEqualTo(first);
            await().atMost(Duration.ofSeconds(40)).until(() -> "Stopped".equals(state(dee, first)));
            as(dee).get("/api/v1/jobs/" + first).then().body("stateReason", equalTo("NodeDrained"));
            await().atMost(Duration.ofSeconds(40)).until(() -> "Running".equals(state(dee, copy)));
            assertThat(nodeOf(dee, copy)).isEqualTo(other);
            as(dee).get("/api/v1/jobs/" + copy)
                    .then()
                    .body("job.owner", equalTo("nodes.dee"))
                    .body("job.account", equalTo("requeue-lab"))
                    .body("sourceJob", equalTo(first))
                    .body("history.reason", hasItem("Requeued"))
                    .body("history.find { it.reason == 'Requeued' }.args.from", equalTo(first))
                    .body("history.find { it.reason == 'Requeued' }.args.node", equalTo(host))
                    .body("spec.nodes.use", hasItems("a100-0", "a100-1"));
            await().atMost(Duration.ofSeconds(20))
                    .untilAsserted(() -> as(dee).get("/api/v1/me/notifications")
                            .then()
                            .body("items.find { it.kind == 'job.node-drained' }.args.requeued", equalTo(copy)));
            as(dee).post("/api/v1/jobs/" + copy + "/stop");
        } finally {
            if (drainedNode != null) {
                admin().post("/api/v1/admin/nodes/" + drainedNode + "/uncordon");
            }
        }
    }
}
