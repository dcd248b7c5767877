package io.crater.cluster;

import static io.crater.Api.admin;
import static io.crater.Api.as;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.crater.sim.apiserver.AccessReviews;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The readiness report against the simulated cluster: everything there by default (its Volcano kinds, scheduler
 * ConfigMap, namespace and shared claim, every access review allowed); with some permissions denied, each is a named
 * reason on the admin API and in {@code /q/health}, which stays UP.
 */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class ReadinessFlowTest {

    @AfterEach
    void allowAll() {
        CraterTestResource.simulator().accessReviews().allowAll();
    }

    @Test
    void namesWhatTheClusterLacksWithoutTakingCraterOutOfService() {
        String user = Api.user("readiness.user", "Readiness-pass-2026");
        as(user).get("/api/v1/cluster/readiness").then().statusCode(403).body("code", equalTo("NotPlatformAdmin"));
        as(user).post("/api/v1/cluster/readiness/check").then().statusCode(403);

        JsonPath ok = admin().post("/api/v1/cluster/readiness/check")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(ok.getString("state")).isEqualTo("ok");
        assertThat(ok.getList("checks.name", String.class))
                .containsExactly(
                        "volcano-crds", "volcano-scheduler", "permissions", "job-namespace", "storage", "prometheus");
        assertThat(ok.getList("checks.state", String.class)).containsOnly("ok");
        assertThat(ok.getList("checks.reasons.flatten()")).isEmpty();

        AccessReviews reviews = CraterTestResource.simulator().accessReviews();
        reviews.deny(new AccessReviews.Rule("create", "", "pods/exec", "crater-jobs"));
        reviews.deny(new AccessReviews.Rule("*", "scheduling.volcano.sh", "queues", null));
        JsonPath degraded = admin().post("/api/v1/cluster/readiness/check")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(degraded.getString("state")).isEqualTo("degraded");
        assertThat(degraded.getString("checks.find { it.name == 'permissions' }.state"))
                .isEqualTo("degraded");
        List<Map<String, Object>> reasons = degraded.getList("checks.find { it.name == 'permissions' }.reasons");
        assertThat(reasons)
                .extracting(r -> r.get("code") + " " + ((Map<?, ?>) r.get("args")).get("permission"))
                .containsExactly(
                        "PermissionDenied create pods/exec in crater-jobs",
                        "PermissionDenied get queues.scheduling.volcano.sh (cluster)",
                        "PermissionDenied list queues.scheduling.volcano.sh (cluster)",
                        "PermissionDenied watch queues.scheduling.volcano.sh (cluster)",
                        "PermissionDenied create queues.scheduling.volcano.sh (cluster)",
                        "PermissionDenied update queues.scheduling.volcano.sh (cluster)",
                        "PermissionDenied delete queues.scheduling.volcano.sh (cluster)");
        assertThat(degraded.getList("checks.findAll { it.name != 'permissions' }.state", String.class))
                .containsOnly("ok");

        // The last report is what the page reads and what readiness shows: degraded, named, still UP.
        admin().get("/api/v1/cluster/readiness")
                .then()
                .statusCode(200)
                .body("report.state", equalTo("degraded"))
                .body("report.checkedAt", equalTo(degraded.getString("checkedAt")));
        given().get("/q/health/ready")
                .then()
                .statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.find { it.name == 'cluster-readiness' }.status", equalTo("UP"))
                .body("checks.find { it.name == 'cluster-readiness' }.data.state", equalTo("degraded"))
                .body(
                        "checks.find { it.name == 'cluster-readiness' }.data.permissions",
                        containsString("PermissionDenied(permission=create pods/exec in crater-jobs)"));

        reviews.allowAll();
        admin().post("/api/v1/cluster/readiness/check").then().statusCode(200).body("state", equalTo("ok"));
        given().get("/q/health/ready")
                .then()
                .body("checks.find { it.name == 'cluster-readiness' }.data.state", equalTo("ok"));
    }
}
