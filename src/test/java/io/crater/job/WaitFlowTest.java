package io.crater.job;

import static io.crater.Api.as;
import static io.crater.job.Flows.account;
import static io.crater.job.Flows.state;
import static io.crater.job.Flows.submit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.nullValue;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Why a job waits, where it stands, when it should start and what would make it start, in the simulated
 * cluster: quota waits with an estimate from the time limit, unknown estimates behind jobs without one, the
 * suggestions that, followed, start the job, and fragmentation with its numbers.
 */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class WaitFlowTest {

    static final String PW = "Waits-pass-2026";
    static final String RTX = "nvidia-rtx-4090";

    static Map<String, Object> job(String name, String kind, String model, int gpus, String timeLimit) {
        Map<String, Object> m = new HashMap<>(Map.of(
                "name",
                name,
                "kind",
                kind,
                "image",
                "python:3.12",
                "command",
                List.of("python", "serve.py"),
                "resources",
                Map.of("cpu", "2", "memory", "8Gi", "acceleratorModel", model, "accelerators", gpus)));
        if (timeLimit != null) {
            m.put("timeLimit", timeLimit);
        }
        return m;
    }

    static Map<String, String> q(String resource, String max) {
        return Map.of("resource", resource, "guaranteed", max, "max", max);
    }

    @Test
    void aQuotaWaitSaysWhenAndWhatWouldStartItAndFollowingTheSuggestionStartsIt() {
        String lena = Api.user("wait.lena", PW);
        String otto = Api.user("wait.otto", PW);
        account("wait-lab", List.of(q("nvidia-a100-80gb", "4"), q("cpu", "64"), q("memory", "256Gi")), "wait.lena");
        String running = submit(lena, "wait-lab", job("holder", "custom", "nvidia-a100-80gb", 3, "2h"));
        await().atMost(Duration.ofSeconds(40)).until(() -> state(lena, running).equals("Running"));
        String waiting = submit(lena, "wait-lab", job("waiter", "custom", "nvidia-a100-80gb", 2, "1h"));
        await().atMost(Duration.ofSeconds(20))
                .until(() ->
                        as(lena).get("/api/v1/jobs/" + waiting).then().extract().path("job.reasons[0].code") != null);

        JsonPath wait = as(lena).get("/api/v1/jobs/" + waiting + "/wait")
                .then()
                .statusCode(200)
                .body("state", equalTo("Queued"))
                .body("reasons[0].code", equalTo("AccountQuotaExceeded"))
                .body("reasons[0].numbers.used", equalTo(3000))
                .body("reasons[0].args.resource", equalTo("nvidia-a100-80gb"))
                .body("position.inAccount", equalTo(1))
                .body("estimate.waitsFor", hasItem(running))
                // A member of the account sees the name of the job it waits for.
                .body("estimate.jobs.find { it.id == '" + running + "' }.name", equalTo("holder"))
                .body("estimate.unknown", nullValue())
                .extract()
                .jsonPath();
        // It starts when the holder reaches its 2 h limit, at the latest.
        Instant startBy = Instant.parse(wait.getString("estimate.startBy"));
        Instant started = Instant.parse(
                as(lena).get("/api/v1/jobs/" + running).then().extract().path("job.startedAt"));
        assertThat(Duration.between(started.plus(Duration.ofHours(2)), startBy).abs())
                .isLessThan(Duration.ofSeconds(2));
        List<Map<String, Object>> suggestions = wait.getList("suggestions");
        assertThat(suggestions).anySatisfy(s -> {
            assertThat(s.get("code")).isEqualTo("FewerAccelerators");
            assertThat(s.get("change")).isEqualTo(Map.of("resources.accelerators", 1));
        });
        assertThat(suggestions).anySatisfy(s -> {
            assertThat(s.get("code")).isEqualTo("RequestGrant");
            assertThat(s.get("change")).isEqualTo(Map.of("resource", "nvidia-a100-80gb", "amount", "1"));
        });
        as(otto).get("/api/v1/jobs/" + waiting + "/wait").then().statusCode(403);

        // Following a suggestion: resubmit with the change, replacing the waiting job. The new one starts.
        as(lena).body(Map.of("changes", Map.of("hostNetwork", true)))
                .post("/api/v1/jobs/" + waiting + "/resubmit")
                .then()
                .statusCode(400)
                .body("code", equalTo("InvalidChanges"));
        String followed = as(lena).body(Map.of("changes", Map.of("resources.accelerators", 1), "replace", true))
                .post("/api/v1/jobs/" + waiting + "/resubmit")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        await().atMost(Duration.ofSeconds(40)).until(() -> state(lena, followed).equals("Running"));
        assertThat(state(lena, waiting)).isEqualTo("Stopped");
        as(lena).get("/api/v1/jobs/" + followed)
                .then()
                .body("sourceJob", equalTo(waiting))
                .body("spec.resources.accelerators", equalTo(1));
        as(lena).get("/api/v1/jobs/" + followed + "/wait").then().body("state", equalTo("Running"));
        as(lena).post("/api/v1/jobs/" + running + "/stop").then().statusCode(200);
        as(lena).post("/api/v1/jobs/" + followed + "/stop").then().statusCode(200);
    }

    @Test
    void behindAJobWithoutATimeLimitTheEstimateIsUnknownWithTheReason() {
        String mia = Api.user("wait.mia", PW);
        account("wait-srv", List.of(q("nvidia-h100-80gb", "2"), q("cpu", "64"), q("memory", "256Gi")), "wait.mia");
        String server = submit(mia, "wait-srv", job("server", "inference", "nvidia-h100-80gb", 2, null));
        await().atMost(Duration.ofSeconds(40)).until(() -> state(mia, server).equals("Running"));
        String waiting = submit(mia, "wait-srv", job("next", "custom", "nvidia-h100-80gb", 1, "1h"));
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> as(mia).get("/api/v1/jobs/" + waiting + "/wait")
                        .then()
                        .body("estimate.startBy", nullValue())
                        .body("estimate.unknown.code", equalTo("WaitsForJobsWithoutTimeLimit"))
                        .body("estimate.unknown.numbers.jobs", equalTo(1)));
        as(mia).post("/api/v1/jobs/" + server + "/stop").then().statusCode(200);
        await().atMost(Duration.ofSeconds(40)).until(() -> state(mia, waiting).equals("Running"));
        as(mia).post("/api/v1/jobs/" + waiting + "/stop").then().statusCode(200);
    }

    @Test
    void aJobBlockedByFragmentationSaysSoWithTheNumbers() {
        String noah = Api.user("wait.noah", PW);
        account("wait-frag", List.of(q(RTX, "8"), q("cpu", "64"), q("memory", "256Gi")), "wait.noah");
        // Two RTX 4090 nodes of 4: two 3-GPU jobs leave one free on each.
        String a = submit(noah, "wait-frag", job("three-a", "custom", RTX, 3, "1h"));
        String b = submit(noah, "wait-frag", job("three-b", "custom", RTX, 3, "1h"));
        await().atMost(Duration.ofSeconds(40))
                .until(() -> state(noah, a).equals("Running") && state(noah, b).equals("Running"));
        String two = submit(noah, "wait-frag", job("two", "custom", RTX, 2, "1h"));
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> as(noah).get("/api/v1/jobs/" + two + "/wait")
                        .then()
                        .body("reasons.code", hasItem("InsufficientCapacity"))
                        .body("reasons.find { it.code == 'Fragmentation' }.numbers.largestFreeBlock", equalTo(1000))
                        .body("reasons.find { it.code == 'Fragmentation' }.numbers.needs", equalTo(2000))
                        .body("reasons.find { it.code == 'Fragmentation' }.numbers.totalFree", equalTo(2000))
                        .body("estimate.startBy", org.hamcrest.Matchers.notNullValue()));
        for (String id : List.of(a, b, two)) {
            as(noah).post("/api/v1/jobs/" + id + "/stop");
        }
    }
}
