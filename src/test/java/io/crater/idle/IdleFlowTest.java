package io.crater.idle;

import static io.crater.Api.admin;
import static io.crater.Api.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.hasItem;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import io.crater.Api;
import io.crater.CraterTestResource;
import io.crater.Db;
import io.crater.SseFollower;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import jakarta.mail.MessagingException;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Idle GPU reclamation end to end in the simulated cluster, on a scale of seconds (window 3 s, grace 8 s, a check
 * every second, samples every 0.5 s): an idle notebook is warned with the numbers and then stopped with
 * {@code IdleReclaimed}; a busy one, one with an approved job lock, one without samples (unknown) and one that is
 * busy again after its warning keep running.
 */
@QuarkusTest
@TestProfile(IdleFlowTest.FastIdle.class)
public class IdleFlowTest {

    /**
     * The application with idle detection on a scale of seconds, and the aging tolerance of admission at 4 s
     * ({@code io.crater.job.AgingFlowTest}): the boot that every test of loops on a scale of seconds shares.
     */
    public static class FastIdle implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.ofEntries(
                    Map.entry("crater.jobs.aging-tolerance", "4s"),
                    Map.entry("crater.idle.window", "3s"),
                    Map.entry("crater.idle.grace", "8s"),
                    Map.entry("crater.idle.check-interval", "1s"),
                    Map.entry("crater.idle.max-gap", "2s"),
                    Map.entry("crater.accounting.measure-step", "1s"),
                    Map.entry("crater.accounting.measure-lag", "1s"),
                    Map.entry("crater.gpus.stream.step", "0.5s"),
                    Map.entry("crater.mail.enabled", "true"),
                    Map.entry("crater.mail.poll-interval", "0.5s"),
                    Map.entry("crater.mail.retry-initial", "1s"),
                    Map.entry("crater.mail.retry-max", "2s"),
                    Map.entry("crater.mail.console-url", "https://crater.example.org"),
                    Map.entry("quarkus.mailer.host", "127.0.0.1"),
                    Map.entry("quarkus.mailer.port", Integer.toString(SMTP_PORT)));
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(SampledTestResource.class));
        }

        @Override
        public boolean disableGlobalTestResources() {
            return true;
        }
    }

    /** What {@link CraterTestResource} starts, with the simulated GPU exporter sampling every 0.5 s. */
    public static class SampledTestResource extends CraterTestResource {
        @Override
        public Map<String, String> start() {
            System.setProperty("crater.sim.gpu-sample-interval", "0.5s");
            try {
                return super.start();
            } finally {
                System.clearProperty("crater.sim.gpu-sample-interval");
            }
        }
    }

    static final String PW = "Idle-pass-2026";
    static final String ANN_MAIL = "ann@idle-lab.example.org";
    /** The SMTP server's port; the server itself starts only during the test, so the first attempts fail. */
    static final int SMTP_PORT = freePort();

    static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static final String RTX = "nvidia-rtx-4090";
    static final String ACCOUNT = "idle-lab";

    static Map<String, Object> notebook(String name, String util) {
        Map<String, Object> m = new HashMap<>(Map.of(
                "name",
                name,
                "kind",
                "jupyter",
                "resources",
                Map.of("cpu", "2", "memory", "8Gi", "acceleratorModel", RTX, "accelerators", 1)));
        if (util != null) {
            m.put("env", Map.of("SIM_GPU_UTIL", util));
        }
        return m;
    }

    static String submit(String token, Map<String, Object> body) {
        return as(token)
                .header("X-Crater-Account", ACCOUNT)
                .body(body)
                .post("/api/v1/jobs")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
    }

    static JsonPath job(String token, String id) {
        return as(token)
                .get("/api/v1/jobs/" + id)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }

    static JsonPath utilisation(String token, String id) {
        return as(token)
                .get("/api/v1/jobs/" + id + "/gpu-utilisation")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }

    static void account() {
        admin().body(Map.of("slug", ACCOUNT, "name", "Idle Lab")).post("/api/v1/accounts");
        admin().body(Map.of(
                        "items",
                        List.of(
                                Map.of("resource", RTX, "guaranteed", "8", "max", "8"),
                                Map.of("resource", "cpu", "guaranteed", "32", "max", "32"),
                                Map.of("resource", "memory", "guaranteed", "128Gi", "max", "128Gi"))))
                .put("/api/v1/accounts/" + ACCOUNT + "/quota")
                .then()
                .statusCode(200);
        admin().body(Map.of("role", "member"))
                .put("/api/v1/accounts/" + ACCOUNT + "/members/idle.ann")
                .then()
                .statusCode(200);
        admin().body(Map.of("role", "admin"))
                .put("/api/v1/accounts/" + ACCOUNT + "/members/idle.lead")
                .then()
                .statusCode(200);
    }

    @Test
    void idleNotebooksAreWarnedThenStoppedAndTheOthersKeepRunning() throws Exception {
        admin().body(Map.of("username", "idle.ann", "displayName", "Ann", "password", PW, "email", ANN_MAIL))
                .post("/api/v1/users")
                .then()
                .statusCode(201);
        String ann = Api.login("idle.ann", PW);
        String lead = Api.user("idle.lead", PW);
        account();

        String idle = submit(ann, notebook("idle", null));
        String busy = submit(ann, notebook("busy", "90"));
        String locked = submit(ann, notebook("locked", null));
        String unsampled = submit(ann, notebook("unsampled", "none"));
        String wakes = submit(ann, notebook("wakes-up", "0@7s,90"));
        as(ann).body(Map.of(
                        "kind",
                        "job-lock",
                        "jobId",
                        locked,
                        "until",
                        Instant.now().plus(Duration.ofHours(1)).toString(),
                        "reason",
                        "a long evaluation"))
                .post("/api/v1/approvals")
                .then()
                .statusCode(201)
                .body("state", equalTo("approved"));

        // Warned with the numbers, then stopped after the grace period with the reason and its numbers.
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> assertThat(warnings(ann))
                        .anySatisfy(m -> assertThat(m)
                                .contains(idle)
                                .contains("at most 0.0 %")
                                .contains("below the 5.0 % threshold")
                                .contains("over the last 3 s")
                                .contains("will be stopped at")
                                .contains("job lock")));
        // The warning is also due by mail; with no SMTP server up yet its first attempts fail and are retried.
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(mailOf("job.idle-warning", idle))
                        .satisfies(m -> assertThat(m[0]).isEqualTo("pending"))
                        .satisfies(m -> assertThat((Integer) m[1]).isGreaterThanOrEqualTo(1))
                        .satisfies(m -> assertThat((String) m[2]).isNotBlank()));
        smtp = new GreenMail(new ServerSetup(SMTP_PORT, "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
        smtp.start();
        MimeMessage warning = awaitMail("[Crater] your job is idle and will be stopped", idle);
        assertThat(warning.getAllRecipients()[0].toString()).isEqualTo(ANN_MAIL);
        assertThat(text(warning))
                .contains("Hello Ann,")
                .contains(idle)
                .contains("at most 0.0 %")
                .contains("https://crater.example.org/jobs/" + idle);
        assertThat(mailOf("job.idle-warning", idle)[0]).isEqualTo("sent");
        JsonPath waiting = utilisation(ann, idle);
        assertThat(waiting.getString("decision.kind")).isEqualTo("Waiting");
        assertThat(Instant.parse(waiting.getString("decision.stopAt"))).isAfter(Instant.now());
        assertThat(waiting.getDouble("decision.peakPercent")).isEqualTo(0.0);
        assertThat(waiting.getList("series")).isNotEmpty();
        await().atMost(Duration.ofSeconds(60))
                .until(() -> "Stopped".equals(job(ann, idle).getString("job.state")));
        JsonPath stopped = job(ann, idle);
        assertThat(stopped.getString("stateReason")).isEqualTo("IdleReclaimed");
        assertThat(stopped.getString("stateMessage"))
                .contains("1 × ")
                .contains("at most 0.0 % (mean 0.0 %) over the last 3 s, below the 5.0 % threshold")
                .contains("warned at");
        as(ann).get("/api/v1/me/notifications")
                .then()
                .body("items.kind", hasItem("job.idle-reclaimed"))
                .body("items.find { it.kind == 'job.idle-reclaimed' }.message", containsString(idle))
                .body("items.find { it.kind == 'job.idle-reclaimed' }.link", equalTo("/jobs/" + idle))
                .body(
                        "items.find { it.kind == 'job.idle-warning' && it.link == '/jobs/" + idle + "' }.mail",
                        equalTo("sent"));
        assertThat(text(awaitMail("[Crater] your idle job was stopped", idle)))
                .contains(idle)
                .contains("at most 0.0 %");

        // By now the notebook that woke up had been warned too, and is busy: its warning is gone, it runs on.
        assertThat(warnings(ann)).anySatisfy(m -> assertThat(m).contains(wakes));
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(utilisation(ann, wakes).getString("decision.kind"))
                        .isEqualTo("Busy"));
        Thread.sleep(10_000); // past the end of the grace period its warning gave it
        for (String id : List.of(busy, locked, unsampled, wakes)) {
            assertThat(job(ann, id).getString("job.state")).as(id).isEqualTo("Running");
        }
        assertThat(warnedAt(wakes))
                .as("the warning of a job busy again is cleared")
                .isNull();
        assertThat(utilisation(ann, busy).getString("decision.kind")).isEqualTo("Busy");
        assertThat(utilisation(ann, busy).getDouble("decision.peakPercent")).isEqualTo(90.0);
        assertThat(utilisation(ann, locked).getString("decision.kind")).isEqualTo("Exempt");
        JsonPath unknown = utilisation(ann, unsampled);
        assertThat(unknown.getString("decision.kind")).isEqualTo("Unknown");
        assertThat(unknown.getString("decision.why")).isEqualTo("NoSamples");
        assertThat(unknown.getList("series")).isEmpty();
        assertThat(warnings(ann)).noneSatisfy(m -> assertThat(m).contains(busy));
        assertThat(warnings(ann)).noneSatisfy(m -> assertThat(m).contains(unsampled));
        assertThat(warnings(ann)).noneSatisfy(m -> assertThat(m).contains(locked));

        // The account's admins see what was reclaimed, per member; members do not.
        as(lead).get("/api/v1/accounts/" + ACCOUNT + "/idle-reclaims")
                .then()
                .statusCode(200)
                .body("total.reclaims", equalTo(1))
                .body("users[0].username", equalTo("idle.ann"))
                .body("users[0].gpuHours", greaterThan(23.0f))
                .body("recent[0].job", equalTo(idle))
                .body("recent[0].model", equalTo(RTX))
                .body("recent[0].accelerators", equalTo(1));
        as(ann).get("/api/v1/accounts/" + ACCOUNT + "/idle-reclaims").then().statusCode(403);
        as(ann).get("/api/v1/jobs/" + busy + "/gpu-utilisation?since=yesterday")
                .then()
                .statusCode(400)
                .body("errors[0].field", equalTo("since"));

        for (String id : List.of(busy, locked, unsampled, wakes)) {
            as(ann).post("/api/v1/jobs/" + id + "/stop").then().statusCode(200);
        }
    }

    /**
     * Beside what jobs held, what they used: a job busy at 60 % is measured at exactly that efficiency, one the
     * exporter never sees is measured to its end with nothing known (unknown, never idle), and the report, its CSV
     * and the intervals say so.
     */
    @Test
    void usedGpuHoursAreMeasuredBesideHeldOnes() throws Exception {
        String una = Api.user("use.una", PW);
        admin().body(Map.of("slug", "use-lab", "name", "Use Lab")).post("/api/v1/accounts");
        admin().body(Map.of(
                        "items",
                        List.of(
                                Map.of("resource", RTX, "guaranteed", "4", "max", "4"),
                                Map.of("resource", "cpu", "guaranteed", "16", "max", "16"),
                                Map.of("resource", "memory", "guaranteed", "64Gi", "max", "64Gi"))))
                .put("/api/v1/accounts/use-lab/quota")
                .then()
                .statusCode(200);
        admin().body(Map.of("role", "admin"))
                .put("/api/v1/accounts/use-lab/members/use.una")
                .then()
                .statusCode(200);
        Map<String, Object> busy = new HashMap<>(notebook("train", "60"));
        busy.put("kind", "custom");
        busy.put("image", "python:3.12");
        busy.put("command", List.of("python", "train.py"));
        Map<String, Object> dark = new HashMap<>(notebook("dark", "none"));
        dark.put("kind", "custom");
        dark.put("image", "python:3.12");
        dark.put("command", List.of("python", "train.py"));
        String trained = as(una).header("X-Crater-Account", "use-lab")
                .body(busy)
                .post("/api/v1/jobs")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        String unseen = as(una).header("X-Crater-Account", "use-lab")
                .body(dark)
                .post("/api/v1/jobs")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        for (String id : List.of(trained, unseen)) {
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> "Running".equals(job(una, id).getString("job.state")));
        }
        Thread.sleep(5_000);
        for (String id : List.of(trained, unseen)) {
            as(una).post("/api/v1/jobs/" + id + "/stop").then().statusCode(200);
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> "Stopped".equals(job(una, id).getString("job.state")));
        }
        Thread.sleep(1_500); // past the meter's lag, so both ends are measured
        admin().post("/api/v1/accounting/settle").then().statusCode(200);

        long[] train = measured(trained);
        assertThat(train[0]).as("measured device-ms of the busy job").isGreaterThan(3_000);
        assertThat(train[0]).as("measured is at most held").isLessThanOrEqualTo(train[2]);
        assertThat((double) train[1] / train[0]).isCloseTo(0.6, org.assertj.core.data.Offset.offset(0.001));
        assertThat(train[3]).as("measured to its end").isEqualTo(1);
        long[] dark2 = measured(unseen);
        assertThat(dark2[0]).as("nothing known of the unseen job").isZero();
        assertThat(dark2[1]).isZero();
        assertThat(dark2[2]).isGreaterThan(5_000);
        assertThat(dark2[3]).as("measured to its end all the same").isEqualTo(1);
        // A second run measures nothing twice.
        admin().post("/api/v1/accounting/settle").then().statusCode(200);
        assertThat(measured(trained)).containsExactly(train);
        // The metrics, refreshed by that run, give the account's device-hours measured and used.
        String metrics = io.restassured.RestAssured.get("/q/metrics")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        double usedHours = metric(
                metrics, "crater_account_device_hours{account=\"use-lab\",kind=\"used\",resource=\"" + RTX + "\"}");
        double measuredHours = metric(
                metrics, "crater_account_device_hours{account=\"use-lab\",kind=\"measured\",resource=\"" + RTX + "\"}");
        assertThat(usedHours / measuredHours).isCloseTo(0.6, org.assertj.core.data.Offset.offset(0.001));

        JsonPath report = as(una).queryParam("account", "use-lab")
                .get("/api/v1/accounting/usage")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        // Each step's used time is rounded to the millisecond, so the ratio may be off in its fourth decimal.
        assertThat(report.getDouble("rows.find { it.resource == '" + RTX + "' }.efficiency"))
                .isCloseTo(0.6, org.assertj.core.data.Offset.offset(0.001));
        assertThat(report.getDouble("accelerators.efficiency"))
                .isCloseTo(0.6, org.assertj.core.data.Offset.offset(0.001));
        assertThat(report.getString("rows.find { it.resource == 'cpu' }.efficiency"))
                .isNull();
        String csv = as(una).queryParam("account", "use-lab")
                .queryParam("format", "csv")
                .get("/api/v1/accounting/usage")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        String[] lines = csv.split("\r\n");
        assertThat(lines[0]).endsWith(",measured,used,unknown,efficiency,idle_cost,jobs,wait_mean_s,wait_p90_s");
        String rtx = Arrays.stream(lines)
                .filter(l -> l.contains("," + RTX + ","))
                .findFirst()
                .orElseThrow();
        List<String> header = List.of(lines[0].split(","));
        assertThat(Double.parseDouble(rtx.split(",", -1)[header.indexOf("efficiency")]))
                .isCloseTo(0.6, org.assertj.core.data.Offset.offset(0.001));
    }

    @TestHTTPResource("/")
    java.net.URL base;

    /**
     * A job's GPU metrics stream: its account's member follows the window and then live samples with the simulated
     * exporter's readings; two followers share one read per step, and once both left the reads stop; a reconnect
     * with Last-Event-ID gets only newer samples; another account's member is refused as for the job itself; the
     * stream ends with the job.
     */
    @Test
    void aJobsGpuMetricsAreStreamedToWhoMayReadItAndEndWithIt() throws Exception {
        String lia = Api.user("live.lia", PW);
        String out = Api.user("live.out", PW);
        admin().body(Map.of("slug", "live-lab", "name", "Live Lab")).post("/api/v1/accounts");
        admin().body(Map.of(
                        "items",
                        List.of(
                                Map.of("resource", RTX, "guaranteed", "1", "max", "1"),
                                Map.of("resource", "cpu", "guaranteed", "4", "max", "4"),
                                Map.of("resource", "memory", "guaranteed", "16Gi", "max", "16Gi"))))
                .put("/api/v1/accounts/live-lab/quota")
                .then()
                .statusCode(200);
        admin().body(Map.of("role", "member"))
                .put("/api/v1/accounts/live-lab/members/live.lia")
                .then()
                .statusCode(200);
        Map<String, Object> spec = new HashMap<>(notebook("live", "70"));
        spec.put("kind", "custom");
        spec.put("image", "python:3.12");
        spec.put("command", List.of("python", "train.py"));
        String id = as(lia).header("X-Crater-Account", "live-lab")
                .body(spec)
                .post("/api/v1/jobs")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        try {
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> "Running".equals(job(lia, id).getString("job.state")));
            followedLive(id, lia);
            refusedAsTheJobIs(id, out, lia);
            try (SseFollower last = SseFollower.open(stream(id), lia, null)) {
                await().atMost(Duration.ofSeconds(10))
                        .until(() -> !last.named("window").isEmpty());
                as(lia).post("/api/v1/jobs/" + id + "/stop").then().statusCode(200);
                await().atMost(Duration.ofSeconds(60)).until(() -> last.ended);
                SseFollower.Event end = last.events.get(last.events.size() - 1);
                assertThat(end.name()).isEqualTo("end");
                assertThat(end.json().getString("job")).isEqualTo(id);
                assertThat(end.json().getString("state")).isEqualTo("Stopped");
            }
        } finally {
            as(lia).post("/api/v1/jobs/" + id + "/stop");
        }
    }

    String stream(String id) {
        return base.toString().replaceAll("/$", "") + "/api/v1/jobs/" + id + "/gpu-metrics/stream";
    }

    static double stepQueries() {
        String text = io.restassured.RestAssured.get("/q/metrics").asString();
        String series = "crater_gpu_metric_queries_total{kind=\"step\"}";
        return text.contains(series + " ") ? metric(text, series) : 0;
    }

    private void followedLive(String id, String lia) throws Exception {
        double before = stepQueries();
        List<String> seen;
        try (SseFollower a = SseFollower.open(stream(id), lia, null)) {
            assertThat(a.status).isEqualTo(200);
            await().atMost(Duration.ofSeconds(10)).until(() -> a.named("sample").size() >= 2);
            try (SseFollower b = SseFollower.open(stream(id), lia, null)) {
                await().atMost(Duration.ofSeconds(15))
                        .until(() -> b.named("sample").size() >= 6);
                // Both got the same reads: one per step, fanned out (a second poller would read at other times).
                assertThat(a.sampleIds()).containsAll(b.sampleIds());
                JsonPath window = b.named("window").get(0).json();
                assertThat(window.getString("job")).isEqualTo(id);
                assertThat(window.getDouble("stepSeconds")).isEqualTo(0.5);
                assertThat(window.getList("samples")).isNotEmpty();
                JsonPath live = b.named("sample").get(5).json();
                assertThat(live.getList("cards")).hasSize(1);
                assertThat(live.getDouble("cards[0].utilisation")).isEqualTo(70.0);
                assertThat(live.getString("cards[0].uuid")).startsWith("GPU-");
                assertThat(live.getString("cards[0].node")).isNotBlank();
                assertThat(live.getString("cards[0].pod")).startsWith("c-" + id + "-");
                assertThat(live.getString("cards[0].model")).contains("4090");
                double used = live.getDouble("cards[0].memoryUsedMiB");
                double total = live.getDouble("cards[0].memoryTotalMiB");
                assertThat(used / total).isCloseTo(0.7, org.assertj.core.data.Offset.offset(0.01));
                assertThat(live.getDouble("cards[0].powerWatts")).isPositive();
                assertThat(live.getDouble("cards[0].temperatureC")).isPositive();
                // A reconnect after the third sample gets only what came later.
                String third = b.sampleIds().get(2);
                try (SseFollower c = SseFollower.open(stream(id), lia, third)) {
                    await().atMost(Duration.ofSeconds(10))
                            .until(() -> !c.named("window").isEmpty());
                    List<Long> ids = c.named("window").get(0).json().getList("samples.at", String.class).stream()
                            .map(at -> Instant.parse(at).toEpochMilli())
                            .toList();
                    assertThat(ids).isNotEmpty().allMatch(t -> t > Long.parseLong(third));
                }
            }
            seen = new java.util.ArrayList<>(a.sampleIds());
        }
        // Once nobody follows, the reads stop; each step was read once (the first read fills the window).
        await().atMost(Duration.ofSeconds(10)).pollDelay(Duration.ofSeconds(2)).until(() -> {
            double now = stepQueries();
            Thread.sleep(1_500);
            return stepQueries() == now;
        });
        double reads = stepQueries() - before;
        assertThat(reads).isBetween(seen.size() + 1.0, seen.size() + 3.0);
    }

    private void refusedAsTheJobIs(String id, String out, String lia) {
        JsonPath job = as(out).get("/api/v1/jobs/" + id)
                .then()
                .statusCode(403)
                .extract()
                .jsonPath();
        as(out).header("Accept", "text/event-stream")
                .get("/api/v1/jobs/" + id + "/gpu-metrics/stream")
                .then()
                .statusCode(403)
                .contentType("application/problem+json")
                .body("code", equalTo(job.getString("code")));
        io.restassured.RestAssured.given()
                .header("Accept", "text/event-stream")
                .get("/api/v1/jobs/" + id + "/gpu-metrics/stream")
                .then()
                .statusCode(401);
        as(lia).header("Accept", "text/event-stream")
                .get("/api/v1/jobs/jzzzzzz/gpu-metrics/stream")
                .then()
                .statusCode(404)
                .contentType("application/problem+json");
        as(lia).header("Accept", "text/event-stream")
                .queryParam("window", "lots")
                .get("/api/v1/jobs/" + id + "/gpu-metrics/stream")
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("errors[0].field", equalTo("window"));
        as(lia).header("Accept", "text/event-stream")
                .header("Last-Event-ID", "yesterday")
                .get("/api/v1/jobs/" + id + "/gpu-metrics/stream")
                .then()
                .statusCode(400)
                .body("errors[0].field", equalTo("Last-Event-ID"));
    }

    /** The value of one series in Prometheus's text format. */
    static double metric(String text, String series) {
        return Arrays.stream(text.split("\n"))
                .filter(l -> l.startsWith(series + " "))
                .mapToDouble(
                        l -> Double.parseDouble(l.substring(series.length() + 1).trim()))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no series " + series));
    }

    /** A job's accelerator interval: measured and used device-ms, held device-ms, 1 if measured to its end. */
    static long[] measured(String publicId) throws Exception {
        try (Connection c = Db.connection();
                PreparedStatement s = c.prepareStatement("SELECT u.measured_ms, u.used_ms,"
                        + " CAST(u.milli * EXTRACT(EPOCH FROM (u.ended_at - u.started_at)) AS bigint),"
                        + " CASE WHEN u.measured_until = u.ended_at THEN 1 ELSE 0 END"
                        + " FROM usage_intervals u JOIN jobs j ON j.id = u.job_id"
                        + " WHERE j.public_id = ? AND u.resource = ?")) {
            s.setString(1, publicId);
            s.setString(2, RTX);
            try (ResultSet r = s.executeQuery()) {
                assertThat(r.next()).isTrue();
                return new long[] {r.getLong(1), r.getLong(2), r.getLong(3), r.getLong(4)};
            }
        }
    }

    /** The SMTP server, once the test has started it. */
    static GreenMail smtp;

    @AfterAll
    static void stopSmtp() {
        if (smtp != null) {
            smtp.stop();
        }
    }

    /** The first mail with this subject that the SMTP server received, waiting for it. */
    /** The first mail with {@code subject} about job {@code job} (other jobs of the test get such mails too). */
    static MimeMessage awaitMail(String subject, String job) {
        return await().atMost(Duration.ofSeconds(60))
                .until(
                        () -> Arrays.stream(smtp.getReceivedMessages())
                                .filter(m -> subject.equals(subjectOf(m)) && mentions(m, job))
                                .findFirst(),
                        Optional::isPresent)
                .orElseThrow();
    }

    static boolean mentions(MimeMessage m, String job) {
        try {
            return text(m).contains(job);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A plain-text mail's body, decoded. */
    static String text(MimeMessage m) throws Exception {
        return (String) m.getContent();
    }

    static String subjectOf(MimeMessage m) {
        try {
            return m.getSubject();
        } catch (MessagingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The mail state, attempts and last error of the notification of this kind about this job. */
    static Object[] mailOf(String kind, String job) throws Exception {
        try (Connection c = Db.connection();
                PreparedStatement s = c.prepareStatement("SELECT mail_state, mail_attempts, mail_error FROM"
                        + " notifications WHERE kind = ? AND message LIKE ? ORDER BY id LIMIT 1")) {
            s.setString(1, kind);
            s.setString(2, "%" + job + "%");
            try (ResultSet rs = s.executeQuery()) {
                assertThat(rs.next())
                        .as("a %s notification about %s", kind, job)
                        .isTrue();
                return new Object[] {rs.getString(1), rs.getInt(2), rs.getString(3)};
            }
        }
    }

    /** The messages of one's idle warnings. */
    static List<String> warnings(String token) {
        return as(token)
                .get("/api/v1/me/notifications")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("items.findAll { it.kind == 'job.idle-warning' }.message");
    }

    /** The job's {@code idle_warned_at}, read from the database. */
    static Object warnedAt(String publicId) throws Exception {
        var config = ConfigProvider.getConfig();
        try (Connection c = DriverManager.getConnection(
                        config.getValue("quarkus.datasource.jdbc.url", String.class),
                        config.getValue("quarkus.datasource.username", String.class),
                        config.getOptionalValue("quarkus.datasource.password", String.class)
                                .orElse(""));
                PreparedStatement s = c.prepareStatement("SELECT idle_warned_at FROM jobs WHERE public_id = ?")) {
            s.setString(1, publicId);
            try (ResultSet rs = s.executeQuery()) {
                assertThat(rs.next()).isTrue();
                return rs.getObject(1);
            }
        }
    }
}
