package io.crater.cluster;

import static io.crater.Api.admin;
import static io.crater.Api.as;
import static io.crater.job.Flows.account;
import static io.crater.job.Flows.awaitRunning;
import static io.crater.job.Flows.line;
import static io.crater.job.Flows.submit;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.crater.kube.KubeClients;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A node's detail for platform admins (docs/nodes.md): the node with its cordon, conditions, the pods bound to it,
 * the Crater jobs they belong to with owners and accounts, and the cluster's events about that node and no other.
 */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class NodeDetailFlowTest {

    static final String PW = "Detail-pass-2026";
    static final String A100 = "nvidia-a100-80gb";

    static Event nodeEvent(String node, String name, String reason, String message, int count) {
        return new EventBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("default")
                .endMetadata()
                .withNewInvolvedObject()
                .withKind("Node")
                .withName(node)
                .withUid(node)
                .endInvolvedObject()
                .withType("Warning")
                .withReason(reason)
                .withMessage(message)
                .withCount(count)
                .withLastTimestamp("2026-12-01T10:00:00Z")
                .withNewSource()
                .withComponent("kubelet")
                .withHost(node)
                .endSource()
                .build();
    }

    @Test
    void showsTheNodesPodsJobsWithOwnersConditionsCordonAndItsOwnEvents() {
        String dee = Api.user("detail.dee", PW);
        account(
                "detail-lab",
                List.of(line(A100, "2", "2"), line("cpu", "16", "16"), line("memory", "64Gi", "64Gi")),
                "detail.dee");
        String job = submit(
                dee,
                "detail-lab",
                Map.of(
                        "name",
                        "detail-train",
                        "kind",
                        "custom",
                        "image",
                        "python:3.12",
                        "command",
                        List.of("python", "train.py"),
                        "timeLimit",
                        "1h",
                        "resources",
                        Map.of("cpu", "2", "memory", "8Gi", "acceleratorModel", A100, "accelerators", 1)));
        awaitRunning(dee, job);
        String node = as(dee).get("/api/v1/jobs/" + job).then().extract().path("pods[0].node");
        String other = node.equals("a100-0") ? "a100-1" : "a100-0";
        try (KubernetesClient k8s =
                KubeClients.forUrl(CraterTestResource.simulator().url())) {
            // The kubelet records a node's events in "default", which every real cluster has.
            if (k8s.namespaces().withName("default").get() == null) {
                k8s.namespaces()
                        .resource(new NamespaceBuilder()
                                .withNewMetadata()
                                .withName("default")
                                .endMetadata()
                                .build())
                        .create();
            }
            k8s.v1()
                    .events()
                    .inNamespace("default")
                    .resource(nodeEvent(node, node + ".oom", "SystemOOM", "oom on " + node, 3))
                    .create();
            k8s.v1()
                    .events()
                    .inNamespace("default")
                    .resource(nodeEvent(other, other + ".oom", "SystemOOM", "oom on " + other, 1))
                    .create();
        }
        admin().body(Map.of("reason", "detail check"))
                .post("/api/v1/admin/nodes/" + node + "/cordon")
                .then()
                .statusCode(200);
        try {
            JsonPath detail = admin().get("/api/v1/admin/nodes/" + node)
                    .then()
                    .statusCode(200)
                    .body("node.name", equalTo(node))
                    .body("node.accelerator.model", equalTo(A100))
                    .body("node.cordon.reason", equalTo("detail check"))
                    .body("node.cordon.by", equalTo("admin"))
                    .body("conditions.find { it.type == 'Ready' }.status", equalTo("True"))
                    .body("eventsUnavailable", equalTo(null))
                    .extract()
                    .jsonPath();
            // other tests' jobs may share the node in this boot: this job is among them, named with its owner
            assertThat(detail.getMap("jobs.find { it.id == '" + job + "' }"))
                    .containsEntry("name", "detail-train")
                    .containsEntry("owner", "detail.dee")
                    .containsEntry("account", "detail-lab")
                    .containsEntry("state", "Running")
                    .containsEntry("pods", 1);
            Map<String, Object> pod = detail.getMap("pods.find { it.job == '" + job + "' }");
            assertThat(pod)
                    .containsEntry("namespace", "crater-jobs")
                    .containsEntry("phase", "Running")
                    .containsEntry("cpuMilli", 2000)
                    .containsEntry("accelerators", 1);
            assertThat(((Number) pod.get("memoryBytes")).longValue()).isEqualTo(8L << 30);
            assertThat(detail.getList("events.message", String.class))
                    .contains("oom on " + node)
                    .doesNotContain("oom on " + other);
            assertThat(detail.getMap("events.find { it.message == 'oom on " + node + "' }"))
                    .containsEntry("type", "Warning")
                    .containsEntry("reason", "SystemOOM")
                    .containsEntry("count", 3)
                    .containsEntry("lastSeen", "2026-12-01T10:00:00Z")
                    .containsEntry("source", "kubelet");
        } finally {
            admin().post("/api/v1/admin/nodes/" + node + "/uncordon").then().statusCode(200);
            as(dee).post("/api/v1/jobs/" + job + "/stop");
        }
    }

    @Test
    void onlyPlatformAdminsSeeANodeAndAnUnknownNodeIsNotFound() {
        String eve = Api.user("detail.eve", PW);
        as(eve).get("/api/v1/admin/nodes/a100-0")
                .then()
                .statusCode(403)
                .contentType("application/problem+json")
                .body("pods", equalTo(null));
        given().get("/api/v1/admin/nodes/a100-0").then().statusCode(401);
        admin().get("/api/v1/admin/nodes/no-such-node")
                .then()
                .statusCode(404)
                .contentType("application/problem+json")
                .body("detail", equalTo("no node named no-such-node"));
        admin().get("/api/v1/admin/nodes/cpu-0")
                .then()
                .statusCode(200)
                .body("node.accelerator", equalTo(null))
                .body("conditions.type", hasItem("Ready"));
    }
}
