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
}
