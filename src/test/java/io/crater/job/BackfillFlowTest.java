package io.crater.job;

import static io.crater.Api.as;
import static io.crater.job.Flows.line;
import static io.crater.job.Flows.state;
import static io.crater.job.Flows.submit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.crater.kube.KubeClients;
import io.crater.volcano.VolcanoJob;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Backfill jobs: they start on idle capacity outside their account's quota, in the crater-backfill Volcano Queue,
 * are suggested to a job that waits on quota while the cluster has room, and are the first taken back when a
 * job within its quota needs the room.
 */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class BackfillFlowTest {

    static final String PW = "Backfill-pass-2026";
    static final String RTX = "nvidia-rtx-4090";

    static Map<String, Object> job(String name, String kind, int gpus, Boolean backfill) {
        Map<String, Object> m = new HashMap<>(Map.of(
                "name",
                name,
                "kind",
                kind,
                "image",
                "python:3.12",
                "command",
                List.of("python", "run.py"),
                "resources",
                Map.of("cpu", "2", "memory", "8Gi", "acceleratorModel", RTX, "accelerators", gpus)));
        if (backfill != null) {
            m.put("backfill", backfill);
        }
        return m;
    }

    static void account(String slug, String gpus, String member) {
        Flows.account(
                slug,
                List.of(line(RTX, gpus, gpus), line("cpu", "64", "64"), line("memory", "256Gi", "256Gi")),
                member);
    }

    @Test
    void backfillRunsOnIdleCapacityOutsideQuotaAndGivesWayFirst() {
        String pia = Api.user("bf.pia", PW);
        String ray = Api.user("bf.ray", PW);
        account("bf-none", "0", "bf.pia");
        account("bf-own", "8", "bf.ray");

        as(pia).header("X-Crater-Account", "bf-none")
                .body(job("notebook", "jupyter", 1, true))
                .post("/api/v1/jobs")
                .then()
                .statusCode(400)
                .body("errors.field", hasItem("backfill"));

        // Without quota a job waits, and running as backfill is suggested while the cluster has room.
        String waiting = submit(pia, "bf-none", job("waits", "custom", 2, null));
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> as(pia).get("/api/v1/jobs/" + waiting + "/wait")
                        .then()
                        .body("reasons[0].code", equalTo("AccountQuotaExceeded"))
                        .body("suggestions.code", hasItem("RunAsBackfill")));
        String backfill = as(pia).body(Map.of("changes", Map.of("backfill", true), "replace", true))
                .post("/api/v1/jobs/" + waiting + "/resubmit")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        await().atMost(Duration.ofSeconds(40)).until(() -> state(pia, backfill).equals("Running"));
        as(pia).get("/api/v1/accounts/bf-none")
                .then()
                .body("quota.find { it.resource == '" + RTX + "' }.usedMilli", equalTo(0));
        try (KubernetesClient k8s =
                KubeClients.forUrl(CraterTestResource.simulator().url())) {
            VolcanoJob vj = k8s.resources(VolcanoJob.class)
                    .inNamespace("crater-jobs")
                    .withName("c-" + backfill)
                    .get();
            assertThat(vj.getSpec().queue).isEqualTo("crater-backfill");
        }

        // The RTX 4090 fleet is two nodes of 4: two 4-GPU jobs within quota need both; the backfill job gives way.
        String first = submit(ray, "bf-own", job("first", "custom", 4, null));
        String second = submit(ray, "bf-own", job("second", "custom", 4, null));
        await().atMost(Duration.ofSeconds(60))
                .until(() -> state(ray, first).equals("Running")
                        && state(ray, second).equals("Running"));
        await().atMost(Duration.ofSeconds(30)).until(() -> state(pia, backfill).equals("Stopped"));
        as(pia).get("/api/v1/jobs/" + backfill)
                .then()
                .body("stateReason", equalTo("Reclaimed"))
                .body("stateMessage", containsString("backfill"))
                .body("stateMessage", containsString("bf-own"));
        for (String id : List.of(first, second)) {
            as(ray).post("/api/v1/jobs/" + id + "/stop").then().statusCode(200);
        }
    }
}
