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
                .post("/api/v1/admin/nodes/" + name + "/drain")
                .then()
                .statusCode(400)
                .body("code", equalTo("RequeueNotAvailable"));
        assertThat(node(name).getSpec().getUnschedulable()).isNotEqualTo(Boolean.TRUE);
        admin().body(Map.of("reason", "x"))
                .post("/api/v1/admin/nodes/no-such-node/cordon")
                .then()
                .statusCode(404);
        admin().queryParam("action", "node.taints").get("/api/v1/audit").then().body("items.targetId", hasItem(name));
    }
}
