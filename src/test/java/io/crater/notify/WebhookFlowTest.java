package io.crater.notify;

import static io.crater.Api.as;
import static io.crater.job.Flows.account;
import static io.crater.job.Flows.line;
import static io.crater.job.Flows.submit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.crater.Db;
import io.crater.platform.Json;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Webhooks against a real HTTP receiver: signed deliveries the receiver verifies, the test button, retries after a
 * failing receiver, the owner's preferences for the webhook channel, an account's webhook, and refusals that change
 * nothing.
 */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class WebhookFlowTest {

    static final String PW = "Webhook-pass-2026";

    /** Registers a webhook; its answer (webhook and secret). */
    static Map<String, Object> register(String token, String base, String name, String url, String format) {
        return as(token)
                .body(Map.of("name", name, "url", url, "format", format))
                .post(base)
                .then()
                .statusCode(201)
                .body("secret", startsWith("whsec_"))
                .body("webhook.format", equalTo(format))
                .extract()
                .path("");
    }

    @SuppressWarnings("unchecked")
    static String idOf(Map<String, Object> created) {
        return (String) ((Map<String, Object>) created.get("webhook")).get("id");
    }

    /** The receiver checks what a user of the docs would: timestamp fresh, signature over timestamp + body. */
    static void assertSigned(WebhookReceiver.Received r, String secret) {
        String ts = r.header("X-Crater-Timestamp");
        assertThat(Math.abs(Instant.now().getEpochSecond() - Long.parseLong(ts)))
                .isLessThan(300);
        assertThat(r.header("X-Crater-Signature")).isEqualTo(hmac(secret, ts + "." + r.body()));
        assertThat(r.header("X-Crater-Signature")).isNotEqualTo(hmac(secret + "x", ts + "." + r.body()));
        assertThat(r.header("Content-Type")).startsWith("application/json");
    }

    /** The verification of docs/notifications.md, written independently of the server's code. */
    static String hmac(String secret, String text) {
        try {
            javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
            mac.init(new javax.crypto.spec.SecretKeySpec(
                    secret.getBytes(java.nio.charset.StandardCharsets.UTF_8), "HmacSHA256"));
            return "sha256="
                    + java.util.HexFormat.of()
                            .formatHex(mac.doFinal(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> json(String body) {
        return (Map<String, Object>) Json.read(body);
    }

    static List<Map<String, Object>> deliveries(String token, String base, String id) {
        return as(token)
                .get(base + "/" + id + "/deliveries")
                .then()
                .statusCode(200)
                .extract()
                .path("items");
    }

    @Test
    void theTestButtonDeliversASignedEventAndTheSecretIsNeverShownAgain() throws Exception {
        String ada = Api.user("wh.ada", PW);
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            Map<String, Object> created =
                    register(ada, "/api/v1/me/webhooks", "mine", receiver.url("/hook/ada?token=t0ps3cret"), "generic");
            String secret = (String) created.get("secret");
            String id = idOf(created);
            String listed = as(ada).get("/api/v1/me/webhooks")
                    .then()
                    .statusCode(200)
                    .body("items.id", equalTo(List.of(id)))
                    .body("items[0].url", equalTo(receiver.url("/hook/…")))
                    .body("formats", equalTo(List.of("generic", "slack", "feishu", "dingtalk")))
                    .body("items[0].kinds", hasItem("job.failed"))
                    .extract()
                    .asString();
            assertThat(listed).doesNotContain(secret).doesNotContain("t0ps3cret");
            assertThat(Db.count("SELECT count(*) FROM webhooks WHERE secret_sealed LIKE '%" + secret
                            + "%' OR url_sealed LIKE '%t0ps3cret%'"))
                    .isZero();

            as(ada).post("/api/v1/me/webhooks/" + id + "/test")
                    .then()
                    .statusCode(202)
                    .body("kind", equalTo("webhook.test"))
                    .body("state", equalTo("pending"));
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> receiver.received().size() == 1);
            WebhookReceiver.Received r = receiver.received().get(0);
            assertThat(r.path()).isEqualTo("/hook/ada");
            assertSigned(r, secret);
            assertThat(r.header("X-Crater-Event")).isEqualTo("webhook.test");
            assertThat(json(r.body())).containsEntry("kind", "webhook.test");
            assertThat((String) json(r.body()).get("message")).contains("mine");
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> "sent"
                            .equals(deliveries(ada, "/api/v1/me/webhooks", id)
                                    .get(0)
                                    .get("state")));
            Map<String, Object> log = deliveries(ada, "/api/v1/me/webhooks", id).get(0);
            assertThat(log).containsEntry("attempts", 1).containsEntry("kind", "webhook.test");
            assertThat((List<Map<String, Object>>) log.get("tries"))
                    .singleElement()
                    .satisfies(
                            t -> assertThat(t).containsEntry("statusCode", 200).containsEntry("attempt", 1));

            as(ada).delete("/api/v1/me/webhooks/" + id).then().statusCode(204);
            as(ada).get("/api/v1/me/webhooks").then().statusCode(200).body("items", equalTo(List.of()));
            as(ada).post("/api/v1/me/webhooks/" + id + "/test").then().statusCode(404);
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void aFailingReceiverIsTriedAgainUntilItAnswers() throws Exception {
        String bo = Api.user("wh.bo", PW);
        try (WebhookReceiver receiver = new WebhookReceiver().answering(500, 503)) {
            Map<String, Object> created = register(bo, "/api/v1/me/webhooks", "flaky", receiver.url("/flaky"), "slack");
            String id = idOf(created);
            as(bo).post("/api/v1/me/webhooks/" + id + "/test").then().statusCode(202);
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> "sent"
                            .equals(deliveries(bo, "/api/v1/me/webhooks", id)
                                    .get(0)
                                    .get("state")));
            assertThat(receiver.received()).hasSize(3);
            // The same event each time, signed afresh, in Slack's shape.
            assertThat(receiver.received().stream()
                            .map(r -> r.header("X-Crater-Delivery"))
                            .distinct())
                    .hasSize(1);
            receiver.received().forEach(r -> assertSigned(r, (String) created.get("secret")));
            assertThat((String) json(receiver.received().get(2).body()).get("text"))
                    .startsWith("A test from Crater: the webhook flaky works.");
            Map<String, Object> log = deliveries(bo, "/api/v1/me/webhooks", id).get(0);
            assertThat(log).containsEntry("attempts", 3);
            List<Map<String, Object>> tries = (List<Map<String, Object>>) log.get("tries");
            assertThat(tries.stream().map(t -> t.get("statusCode"))).containsExactly(200, 503, 500);
            assertThat(tries.get(2).get("error")).isEqualTo("the receiver answered 500");
            as(bo).get("/api/v1/me/webhooks")
                    .then()
                    .body("items[0].lastState", equalTo("sent"))
                    .body("items[0].lastStatusCode", equalTo(200));
        }
    }

    @Test
    void theOwnersWebhookChannelIsRespectedAndTheAccountsWebhookHearsItsJobs() throws Exception {
        String cy = Api.user("wh.cy", PW);
        String lead = Api.user("wh.lead", PW);
        account("wh-lab", List.of(line("cpu", "4", "4"), line("memory", "8Gi", "8Gi")), "wh.cy");
        Api.admin()
                .body(Map.of("role", "admin"))
                .put("/api/v1/accounts/wh-lab/members/wh.lead")
                .then()
                .statusCode(200);
        // Cy does not want to hear on her webhooks that jobs started; in the console she still does.
        as(cy).body(Map.of(
                        "preferences", List.of(Map.of("kind", "job.started", "channel", "webhook", "enabled", false))))
                .put("/api/v1/me/notification-preferences")
                .then()
                .statusCode(200);
        try (WebhookReceiver mine = new WebhookReceiver();
                WebhookReceiver team = new WebhookReceiver()) {
            String secret = (String) register(cy, "/api/v1/me/webhooks", "cy", mine.url("/cy"), "feishu")
                    .get("secret");
            String teamSecret =
                    (String) register(lead, "/api/v1/accounts/wh-lab/webhooks", "team", team.url("/team"), "dingtalk")
                            .get("secret");
            String job = submit(cy, "wh-lab", NotificationFlowTest.job("train", "3s", "0", "1"));
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> events(team).contains("job.succeeded")
                            && events(mine).contains("job.succeeded"));
            assertThat(NotificationFlowTest.kinds(NotificationFlowTest.bellFor(cy, job)))
                    .contains("job.started");
            assertThat(events(mine)).containsExactly("job.admitted", "job.succeeded");
            assertThat(events(team)).containsExactly("job.admitted", "job.started", "job.succeeded");
            mine.received().forEach(r -> assertSigned(r, secret));
            team.received().forEach(r -> assertSigned(r, teamSecret));
            assertThat(json(mine.received().get(0).body())).containsEntry("msg_type", "text");
            assertThat(json(team.received().get(0).body())).containsEntry("msgtype", "text");
            assertThat(team.received().get(1).body()).contains("train (" + job + ") started running.");
            // The account's admin reads its log; the member may not.
            String teamId = as(lead).get("/api/v1/accounts/wh-lab/webhooks")
                    .then()
                    .statusCode(200)
                    .extract()
                    .path("items[0].id");
            assertThat(deliveries(lead, "/api/v1/accounts/wh-lab/webhooks", teamId))
                    .hasSize(3);
            as(cy).get("/api/v1/accounts/wh-lab/webhooks/" + teamId + "/deliveries")
                    .then()
                    .statusCode(403);
        }
    }

    static List<String> events(WebhookReceiver r) {
        return r.received().stream().map(x -> x.header("X-Crater-Event")).toList();
    }

    @Test
    void aMemberCannotRegisterAWebhookForAnAccountTheyDoNotAdministerAndBadInputChangesNothing() throws Exception {
        String dee = Api.user("wh.dee", PW);
        String eve = Api.user("wh.eve", PW);
        account("wh-other", List.of(line("cpu", "1", "1")), "wh.dee");
        long before = Db.count("SELECT count(*) FROM webhooks");
        Map<String, Object> hook = Map.of("name", "x", "url", "https://receiver.example.org/h", "format", "generic");
        for (String token : List.of(dee, eve)) {
            as(token)
                    .body(hook)
                    .post("/api/v1/accounts/wh-other/webhooks")
                    .then()
                    .statusCode(403)
                    .contentType("application/problem+json")
                    .body("code", equalTo("NotAccountAdmin"));
            as(token).get("/api/v1/accounts/wh-other/webhooks").then().statusCode(403);
        }
        as(dee).body(Map.of("name", "", "url", "ftp://files.example.org/h", "format", "teams", "kinds", List.of("x")))
                .post("/api/v1/me/webhooks")
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("code", equalTo("InvalidWebhook"))
                .body("errors.field", equalTo(List.of("name", "url", "format", "kinds[0]")))
                .body("errors.find { it.field == 'url' }.message", equalTo("only http and https URLs"));
        assertThat(Db.count("SELECT count(*) FROM webhooks")).isEqualTo(before);
        // Another user's webhook is not there for Eve.
        String id = idOf(register(dee, "/api/v1/me/webhooks", "dee", "https://receiver.example.org/d", "generic"));
        as(eve).get("/api/v1/me/webhooks").then().statusCode(200).body("items.id", not(hasItem(id)));
        as(eve).delete("/api/v1/me/webhooks/" + id).then().statusCode(404);
        as(eve).post("/api/v1/me/webhooks/" + id + "/test").then().statusCode(404);
        as(eve).get("/api/v1/me/webhooks/" + id + "/deliveries").then().statusCode(404);
        assertThat(Db.count("SELECT count(*) FROM webhook_events e JOIN webhooks w ON w.id = e.webhook_id"
                        + " WHERE w.public_id = '" + id + "'"))
                .isZero();
    }
}
