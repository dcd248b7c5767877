package io.crater.account;

import static io.crater.Api.admin;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.crater.kube.KubeClients;
import io.crater.volcano.PodGroup;
import io.crater.volcano.VolcanoQueue;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Volcano Queues follow the accounts' quotas, against the simulated cluster's API server. */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class QueueReconcilerTest {

    @Inject
    QueueReconciler reconciler;

    static VolcanoQueue queue(KubernetesClient k8s, String name) {
        return k8s.resources(VolcanoQueue.class).withName(name).get();
    }

    @Test
    void queuesAreCreatedRestoredRecreatedAndDeletedOnlyWhenUnused() {
        try (KubernetesClient k8s =
                KubeClients.forUrl(CraterTestResource.simulator().url())) {
            admin().body(Map.of("slug", "q-lab", "name", "Queue Lab"))
                    .post("/api/v1/accounts")
                    .then()
                    .statusCode(201);
            admin().body(Map.of(
                            "items",
                            List.of(
                                    Map.of("resource", "nvidia-a100-80gb", "guaranteed", "8", "max", "16"),
                                    Map.of("resource", "nvidia-rtx-4090", "guaranteed", "2", "max", "4"),
                                    Map.of("resource", "huawei-x", "guaranteed", "1", "max", "1"))))
                    .put("/api/v1/accounts/q-lab/quota")
                    .then()
                    .statusCode(400);
            admin().body(Map.of(
                            "items",
                            List.of(
                                    Map.of("resource", "nvidia-a100-80gb", "guaranteed", "8", "max", "16"),
                                    Map.of("resource", "nvidia-rtx-4090", "guaranteed", "2", "max", "4"),
                                    Map.of("resource", "ascend-910b", "guaranteed", "0", "max", "8"),
                                    Map.of("resource", "cpu", "guaranteed", "32", "max", "64"))))
                    .put("/api/v1/accounts/q-lab/quota")
                    .then()
                    .statusCode(200);
            // Models sharing nvidia.com/gpu add up; the Volcano Queue is a coarse cap only.
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                VolcanoQueue q = queue(k8s, "crater-q-lab");
                assertThat(q).isNotNull();
                assertThat(q.getSpec().capability)
                        .containsEntry("nvidia.com/gpu", "20")
                        .containsEntry("huawei.com/Ascend910", "8")
                        .containsEntry("cpu", "64");
                assertThat(q.getSpec().reclaimable).isFalse();
                assertThat(q.getSpec().guarantee).isNull();
            });
            assertThat(queue(k8s, "crater-personal")).isNotNull();
            assertThat(queue(k8s, "crater-backfill").getSpec().reclaimable).isTrue();

            // A hand edit is put back.
            VolcanoQueue edited = queue(k8s, "crater-q-lab");
            edited.getSpec().capability = Map.of("nvidia.com/gpu", "1000");
            edited.getSpec().deserved = Map.of("nvidia.com/gpu", "500");
            k8s.resources(VolcanoQueue.class).resource(edited).update();
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                VolcanoQueue q = queue(k8s, "crater-q-lab");
                assertThat(q.getSpec().capability).containsEntry("nvidia.com/gpu", "20");
                assertThat(q.getSpec().deserved).isNull();
            });

            // A deleted one comes back.
            k8s.resources(VolcanoQueue.class).withName("crater-q-lab").delete();
            await().atMost(Duration.ofSeconds(20))
                    .untilAsserted(() -> assertThat(queue(k8s, "crater-q-lab")).isNotNull());

            // An approved grant raises the cap while it lasts.
            String student = Api.user("q.student", "Correct-horse-42");
            admin().body(Map.of("role", "member"))
                    .put("/api/v1/accounts/q-lab/members/q.student")
                    .then()
                    .statusCode(200);
            int id = Api.as(student)
                    .body(Map.of(
                            "kind",
                            "quota-grant",
                            "account",
                            "q-lab",
                            "resource",
                            "nvidia-a100-80gb",
                            "amount",
                            "4",
                            "until",
                            Instant.now().plus(2, ChronoUnit.HOURS).toString(),
                            "reason",
                            "paper deadline"))
                    .post("/api/v1/approvals")
                    .then()
                    .statusCode(201)
                    .extract()
                    .path("id");
            admin().body(Map.of())
                    .post("/api/v1/approvals/" + id + "/approve")
                    .then()
                    .statusCode(200);
            await().atMost(Duration.ofSeconds(20))
                    .untilAsserted(() -> assertThat(queue(k8s, "crater-q-lab").getSpec().capability)
                            .containsEntry("nvidia.com/gpu", "24"));

            // A queue Crater no longer wants goes only once no PodGroup uses it.
            // The PodGroup first: creating the queue wakes the reconciler, which must already see it in use.
            PodGroup group = new PodGroup();
            group.getMetadata().setName("uses-ghost");
            group.getMetadata().setNamespace("crater-jobs");
            group.getSpec().queue = "crater-ghost";
            group.getSpec().minMember = 1;
            group.getStatus().phase = "Completed";
            k8s.resources(PodGroup.class)
                    .inNamespace("crater-jobs")
                    .resource(group)
                    .create();
            VolcanoQueue ghost = new VolcanoQueue();
            ghost.getMetadata().setName("crater-ghost");
            ghost.getMetadata().setLabels(Map.of("crater.io/managed-by", "crater"));
            k8s.resources(VolcanoQueue.class).resource(ghost).create();
            reconciler.request();
            await().pollDelay(Duration.ofSeconds(2))
                    .atMost(Duration.ofSeconds(5))
                    .untilAsserted(() -> assertThat(queue(k8s, "crater-ghost")).isNotNull());
            k8s.resources(PodGroup.class)
                    .inNamespace("crater-jobs")
                    .withName("uses-ghost")
                    .delete();
            reconciler.request();
            await().atMost(Duration.ofSeconds(20))
                    .untilAsserted(() -> assertThat(queue(k8s, "crater-ghost")).isNull());
        }
    }
}
