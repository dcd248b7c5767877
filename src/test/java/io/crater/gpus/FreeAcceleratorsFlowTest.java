package io.crater.gpus;

import static io.crater.Api.admin;
import static io.crater.Api.as;
import static io.crater.job.Flows.account;
import static io.crater.job.Flows.awaitRunning;
import static io.crater.job.Flows.line;
import static io.crater.job.Flows.submit;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Free accelerators for anyone signed in (docs/monitoring.md): free cards per model and node as admission counts them,
 * memory per card, what the caller's own accounts may still use; another account's job never shows, not by name, id,
 * owner or account.
 */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class FreeAcceleratorsFlowTest {

    static final String PW = "Free-pass-2026";
    static final String H100 = "nvidia-h100-80gb";

    static List<Map<String, String>> quota(String guaranteed, String max) {
        return List.of(line(H100, guaranteed, max), line("cpu", "32", "32"), line("memory", "128Gi", "128Gi"));
    }

    static JsonPath free(String token) {
        return as(token)
                .get("/api/v1/cluster/free-accelerators")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }

    @Test
    void freeCardsPerModelAndNodeAndTheCallersRoomWithoutOtherAccountsJobs() {
        String oli = Api.user("free.oli", PW);
        String rae = Api.user("free.rae", PW);
        account("free-hidden-lab", quota("4", "4"), "free.oli");
        account("free-lab", quota("2", "6"), "free.rae");
        admin().body(Map.of("resources", Map.of(H100, "3")))
                .put("/api/v1/accounts/free-lab/members/free.rae/limits")
                .then()
                .statusCode(200);
        String hidden = submit(oli, "free-hidden-lab", Api.trainingJob("hidden-h100-run", H100, 2));
        String mine = null;
        try {
            awaitRunning(oli, hidden);
            // As admission counts: allocatable less bound requests on nodes that take pods (the admin's node list).
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                JsonPath nodes =
                        admin().get("/api/v1/cluster/nodes").then().extract().jsonPath();
                JsonPath body = free(rae);
                Map<String, Object> h100 = body.getMap("models.find { it.model == '" + H100 + "' }");
                assertThat(h100).containsEntry("total", 16).containsEntry("memoryMiB", 81559);
                for (String n : List.of("h100-0", "h100-1")) {
                    Map<String, Object> node = body.getMap(
                            "models.find { it.model == '" + H100 + "' }.nodes.find { it.name == '" + n + "' }");
                    Map<String, Object> seen = nodes.getMap("items.find { it.name == '" + n + "' }");
                    int total = nodes.getInt("items.find { it.name == '" + n + "' }.accelerator.total");
                    int allocated = nodes.getInt("items.find { it.name == '" + n + "' }.accelerator.allocated");
                    boolean schedulable = (Boolean) seen.get("schedulable");
                    assertThat(node)
                            .containsEntry("total", 8)
                            .containsEntry("memoryMiB", 81559)
                            .containsEntry("schedulable", schedulable)
                            .containsEntry("free", schedulable ? total - allocated : 0);
                }
                List<Integer> perNode = body.getList("models.find { it.model == '" + H100 + "' }.nodes.free");
                assertThat(h100.get("free"))
                        .isEqualTo(perNode.stream().mapToInt(Integer::intValue).sum());
                assertThat(h100.get("mostOnOneNode"))
                        .isEqualTo(perNode.stream()
                                .mapToInt(Integer::intValue)
                                .max()
                                .orElse(0));
                assertThat((Integer) h100.get("free")).isLessThanOrEqualTo(14);
            });
            JsonPath before = free(rae);
            assertThat(before.getList("accounts.account", String.class))
                    .contains("free-lab")
                    .doesNotContain("free-hidden-lab");
            assertThat(before.getMap(
                            "accounts.find { it.account == 'free-lab' }.models.find { it.model == '" + H100 + "' }"))
                    .containsEntry("used", 0)
                    .containsEntry("guaranteed", 2)
                    .containsEntry("max", 6)
                    .containsEntry("withinGuarantee", 2)
                    .containsEntry("memberLeft", 3)
                    .containsEntry("mayStillUse", 3);

            mine = submit(rae, "free-lab", Api.trainingJob("rae-h100-run", H100, 1));
            awaitRunning(rae, mine);
            String body = as(rae).get("/api/v1/cluster/free-accelerators")
                    .then()
                    .extract()
                    .asString();
            for (String secret : List.of("hidden-h100-run", hidden, "free.oli", "free-hidden-lab")) {
                assertThat(body).as("another account's job details").doesNotContain(secret);
            }
            // nor the caller's own jobs: the answer is counts
            assertThat(body).doesNotContain("rae-h100-run").doesNotContain(mine);
            assertThat(free(rae)
                            .getMap("accounts.find { it.account == 'free-lab' }.models.find { it.model == '" + H100
                                    + "' }"))
                    .containsEntry("used", 1)
                    .containsEntry("withinGuarantee", 1)
                    .containsEntry("memberLeft", 2)
                    .containsEntry("mayStillUse", 2);
            assertThat(free(oli)
                            .getMap("accounts.find { it.account == 'free-hidden-lab' }.models.find { it.model == '"
                                    + H100 + "' }"))
                    .containsEntry("used", 2)
                    .containsEntry("memberLeft", null)
                    .containsEntry("mayStillUse", 2);
        } finally {
            as(oli).post("/api/v1/jobs/" + hidden + "/stop");
            if (mine != null) {
                as(rae).post("/api/v1/jobs/" + mine + "/stop");
            }
        }
        given().get("/api/v1/cluster/free-accelerators").then().statusCode(401);
    }
}
