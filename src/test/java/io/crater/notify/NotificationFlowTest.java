package io.crater.notify;

import static io.crater.Api.as;
import static io.crater.job.Flows.account;
import static io.crater.job.Flows.line;
import static io.crater.job.Flows.state;
import static io.crater.job.Flows.submit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.crater.Db;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Notifications of a job's life on the channels its owner chose: admitted, started, succeeded, failed with the exit
 * code and reason, still waiting after the owner's threshold; a kind turned off for a channel sends nothing there;
 * a wrong preference is refused and changes nothing.
 */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class NotificationFlowTest {

    static final String PW = "Notify-pass-2026";

    static Map<String, Object> job(String name, String duration, String exitCode, String cpu) {
        return Map.of(
                "name",
                name,
                "kind",
                "custom",
                "image",
                "python:3.12",
                "command",
                List.of("python", "train.py"),
                "env",
                Map.of("SIM_DURATION", duration, "SIM_EXIT_CODE", exitCode),
                "resources",
                Map.of("cpu", cpu, "memory", "1Gi"));
    }

    static List<Map<String, Object>> bell(String token) {
        return as(token)
                .get("/api/v1/me/notifications")
                .then()
                .statusCode(200)
                .extract()
                .path("items");
    }

    static List<Map<String, Object>> bellFor(String token, String job) {
        return bell(token).stream()
                .filter(n -> n.get("args") instanceof Map<?, ?> a && job.equals(a.get("job")))
                .toList();
    }

    static List<Object> kinds(List<Map<String, Object>> items) {
        return items.stream().map(n -> n.get("kind")).toList();
    }

    @Test
    void aFailedJobTellsItsOwnerTheExitCodeAndReasonAndAnOptedOutKindSendsNothing() throws Exception {
        String ria = Api.user("nf.ria", PW);
        account("nf-lab", List.of(line("cpu", "8", "8"), line("memory", "16Gi", "16Gi")), "nf.ria");
        // Ria does not want to hear that her jobs started, in the console.
        as(ria).body(Map.of(
                        "preferences", List.of(Map.of("kind", "job.started", "channel", "in-app", "enabled", false))))
                .put("/api/v1/me/notification-preferences")
                .then()
                .statusCode(200)
                .body("preferences.find { it.kind == 'job.started' && it.channel == 'in-app' }.enabled", equalTo(false))
                .body("preferences.find { it.kind == 'job.failed' && it.channel == 'email' }.enabled", equalTo(true))
                .body(
                        "preferences.find { it.kind == 'job.started' && it.channel == 'webhook' }.enabled",
                        equalTo(true));

        String failed = submit(ria, "nf-lab", job("oom", "1s", "137", "1"));
        await().atMost(Duration.ofSeconds(60))
                .until(() -> kinds(bellFor(ria, failed)).contains("job.failed"));
        Map<String, Object> n = bellFor(ria, failed).stream()
                .filter(x -> x.get("kind").equals("job.failed"))
                .findFirst()
                .orElseThrow();
        @SuppressWarnings("unchecked")
        Map<String, Object> args = (Map<String, Object>) n.get("args");
        assertThat(args).containsEntry("exitCode", 137).containsEntry("exitReason", "OOMKilled");
        assertThat(args.get("reason")).isNotNull();
        assertThat((String) n.get("message")).contains("oom (" + failed + ") failed with exit code 137 (OOMKilled)");
        assertThat(n.get("link")).isEqualTo("/jobs/" + failed);
        assertThat(kinds(bellFor(ria, failed))).contains("job.admitted").doesNotContain("job.started");
        // Nothing was written for the opted-out kind (mail is off here, so no row at all), and each kind once.
        assertThat(Db.count("SELECT count(*) FROM notifications n JOIN users u ON u.id = n.user_id"
                        + " WHERE u.username = 'nf.ria' AND n.kind = 'job.started'"))
                .isZero();
        assertThat(Db.count("SELECT count(*) FROM notifications n JOIN users u ON u.id = n.user_id"
                        + " WHERE u.username = 'nf.ria' AND n.kind = 'job.failed'"))
                .isEqualTo(1);

        String ok = submit(ria, "nf-lab", job("fine", "1s", "0", "1"));
        await().atMost(Duration.ofSeconds(60))
                .until(() -> kinds(bellFor(ria, ok)).contains("job.succeeded"));
        assertThat(kinds(bellFor(ria, ok))).containsExactlyInAnyOrder("job.admitted", "job.succeeded");
        assertThat(state(ria, ok)).isEqualTo("Succeeded");
    }

    @Test
    void aJobWaitingLongerThanItsOwnersThresholdIsToldOnce() throws Exception {
        String tom = Api.user("nf.tom", PW);
        account("nf-wait", List.of(line("cpu", "2", "2"), line("memory", "8Gi", "8Gi")), "nf.tom");
        as(tom).body(Map.of("waitingThresholdMinutes", 5))
                .put("/api/v1/me/notification-preferences")
                .then()
                .statusCode(200)
                .body("waitingThresholdMinutes", equalTo(5));
        String holder = submit(tom, "nf-wait", job("holder", "10m", "0", "2"));
        await().atMost(Duration.ofSeconds(40)).until(() -> state(tom, holder).equals("Running"));
        String waiter = submit(tom, "nf-wait", job("waiter", "1s", "0", "2"));
        await().atMost(Duration.ofSeconds(20))
                .until(() ->
                        as(tom).get("/api/v1/jobs/" + waiter).then().extract().path("job.reasons[0].code") != null);
        // Four minutes in, under the threshold: nothing yet. Six minutes in: told, once.
        backdate(waiter, 4);
        Thread.sleep(3000);
        assertThat(kinds(bellFor(tom, waiter))).doesNotContain("job.waiting");
        backdate(waiter, 6);
        await().atMost(Duration.ofSeconds(20))
                .until(() -> kinds(bellFor(tom, waiter)).contains("job.waiting"));
        Map<String, Object> n = bellFor(tom, waiter).stream()
                .filter(x -> x.get("kind").equals("job.waiting"))
                .findFirst()
                .orElseThrow();
        assertThat(n.get("args"))
                .asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                .containsEntry("minutes", 6)
                .containsEntry("reason", "AccountQuotaExceeded");
        Thread.sleep(3000);
        assertThat(kinds(bellFor(tom, waiter)).stream().filter("job.waiting"::equals))
                .hasSize(1);
        as(tom).post("/api/v1/jobs/" + holder + "/stop");
    }

    static void backdate(String publicId, int minutes) throws Exception {
        try (Connection c = Db.connection();
                Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE jobs SET created_at = now() - interval '" + minutes
                    + " minutes' WHERE public_id = '" + publicId + "'");
        }
    }

    @Test
    void aWrongKindOrChannelIsRefusedAndChangesNothing() throws Exception {
        String una = Api.user("nf.una", PW);
        JsonPath before = as(una).get("/api/v1/me/notification-preferences")
                .then()
                .statusCode(200)
                .body("kinds", hasItem("job.failed"))
                .body("channels", equalTo(List.of("in-app", "email", "webhook")))
                .body("waitingThresholdMinutes", equalTo(30))
                .extract()
                .jsonPath();
        as(una).body(Map.of(
                        "preferences",
                        List.of(
                                Map.of("kind", "job.failed", "channel", "in-app", "enabled", false),
                                Map.of("kind", "job.exploded", "channel", "pager", "enabled", true)),
                        "waitingThresholdMinutes",
                        0))
                .put("/api/v1/me/notification-preferences")
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("code", equalTo("InvalidNotificationPreferences"))
                .body("errors.field", hasItem("preferences[1].kind"))
                .body("errors.field", hasItem("preferences[1].channel"))
                .body("errors.field", hasItem("waitingThresholdMinutes"));
        as(una).get("/api/v1/me/notification-preferences")
                .then()
                .statusCode(200)
                .body("preferences", equalTo(before.getList("preferences")))
                .body("waitingThresholdMinutes", equalTo(30));
        assertThat(Db.count("SELECT count(*) FROM notification_preferences p JOIN users u ON u.id = p.user_id"
                        + " WHERE u.username = 'nf.una'"))
                .isZero();
    }
}
