package io.crater.platform;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import io.crater.CraterTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class PlatformEndpointsTest {

    @Test
    void readyMeansDatabaseAndClusterSynced() {
        given().get("/q/health/ready")
                .then()
                .statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.name", hasItem("cluster"))
                .body("checks.find { it.name == 'cluster' }.data.state", equalTo("connected"))
                .body("checks.find { it.name == 'cluster' }.data.mode", equalTo("simulated"));
    }

    @Test
    void openApiAndMetricsAreServed() {
        given().get("/q/openapi?format=json")
                .then()
                .statusCode(200)
                .body(containsString("/api/v1/auth/login"))
                .body(containsString("/api/v1/cluster/accelerators"));
        given().get("/q/metrics").then().statusCode(200).body(containsString("jvm_memory_used_bytes"));
    }

    @Test
    void theChartsProbesAndScrapeAnswer() throws Exception {
        // charts/crater probes these paths and scrapes this one: each must be one this server answers.
        String deployment =
                java.nio.file.Files.readString(java.nio.file.Path.of("charts/crater/templates/deployment.yaml"));
        String monitoring =
                java.nio.file.Files.readString(java.nio.file.Path.of("charts/crater/templates/monitoring.yaml"));
        var paths = java.util.regex.Pattern.compile("path: (/\\S+)")
                .matcher(deployment + monitoring)
                .results()
                .map(m -> m.group(1))
                .toList();
        org.assertj.core.api.Assertions.assertThat(paths)
                .containsExactlyInAnyOrder("/q/health/started", "/q/health/live", "/q/health/ready", "/q/metrics");
        for (String path : paths) {
            given().get(path).then().statusCode(200);
        }
        given().get("/q/health/started").then().body("status", equalTo("UP"));
        given().get("/q/health/live").then().body("status", equalTo("UP"));
    }
}
