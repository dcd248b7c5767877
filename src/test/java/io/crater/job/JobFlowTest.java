package io.crater.job;

import static io.crater.Api.admin;
import static io.crater.Api.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.crater.Db;
import io.crater.kube.KubeClients;
import io.crater.volcano.VolcanoJob;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Jobs end to end in the simulated cluster: submit, admission against quota, running, finishing, stopping. */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class JobFlowTest {

    static final String PW = "Jobs-pass-2026";

    static Map<String, Object> job(String name, int gpus, Map<String, String> env) {
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
                env,
                "resources",
                Map.of("cpu", "4", "memory", "16Gi", "acceleratorModel", "nvidia-a100-80gb", "accelerators", gpus));
    }

    @TestHTTPResource("/")
    URL base;

    @jakarta.inject.Inject
    io.crater.platform.CacheInvalidations caches;

    /** Reads the log stream until {@code steps} "step" lines have come, then hangs up. */
    List<String> follow(String token, String id, int steps) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create(base + "api/v1/jobs/" + id + "/logs/stream"))
                .header("Authorization", "Bearer " + token)
                .header("X-Crater-Account", "jobs-lab")
                .header("Accept", "text/event-stream")
                .build();
        HttpResponse<java.io.InputStream> r =
                HttpClient.newHttpClient().send(req, HttpResponse.BodyHandlers.ofInputStream());
        assertThat(r.statusCode()).isEqualTo(200);
        List<String> lines = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                lines.add(line);
                if (lines.stream().filter(l -> l.contains("step ")).count() >= steps) {
                    break;
                }
            }
        }
        return lines;
    }

    static String state(String token, String id) {
        return as(token)
                .get("/api/v1/jobs/" + id)
                .then()
                .statusCode(200)
                .extract()
                .path("job.state");
    }

    @Test
    void jobsAreAdmittedWithinQuotaWaitWithReasonsAndStartWhenRoomIsFreed() throws Exception {
        admin().body(Map.of("slug", "jobs-lab", "name", "Jobs Lab"))
                .post("/api/v1/accounts")
                .then()
                .statusCode(201);
        admin().body(Map.of(
                        "items",
                        List.of(
                                Map.of("resource", "nvidia-a100-80gb", "guaranteed", "8", "max", "8"),
                                Map.of("resource", "cpu", "guaranteed", "64", "max", "64"),
                                Map.of("resource", "memory", "guaranteed", "512Gi", "max", "512Gi"))))
                .put("/api/v1/accounts/jobs-lab/quota")
                .then()
                .statusCode(200);
        String alice = Api.user("jobs.alice", PW);
        String bob = Api.user("jobs.bob", PW);
        String outsider = Api.user("jobs.out", PW);
        admin().body(Map.of("role", "member"))
                .put("/api/v1/accounts/jobs-lab/members/jobs.alice")
                .then()
                .statusCode(200);
        admin().body(Map.of("role", "member"))
                .put("/api/v1/accounts/jobs-lab/members/jobs.bob")
                .then()
                .statusCode(200);

        // A dry run decides and shows the manifests, and creates nothing.
        as(alice)
                .header("X-Crater-Account", "jobs-lab")
                .body(job("preview", 4, Map.of()))
                .post("/api/v1/jobs?dryRun=true")
                .then()
                .statusCode(200)
                .body("decision", equalTo("ADMIT"))
                .body("manifests", containsString("queue: \"crater-jobs-lab\""));
        as(alice).get("/api/v1/jobs?account=jobs-lab").then().statusCode(200).body("items", hasSize(0));

        // 6 GPUs run; another 4 would exceed the max of 8 and waits with the numbers.
        String first = as(alice)
                .header("X-Crater-Account", "jobs-lab")
                .body(job("first", 6, Map.of()))
                .post("/api/v1/jobs")
                .then()
                .statusCode(201)
                .body("state", equalTo("Queued"))
                .extract()
                .path("id");
        await().atMost(Duration.ofSeconds(30)).until(() -> state(alice, first).equals("Running"));
        // Its log, followed as it is written: lines keep arriving while it runs.
        List<String> followed = follow(alice, first, 2);
        assertThat(followed).anyMatch(l -> l.startsWith("data:") && l.contains("step "));
        // The same with a personal access token, as scripts follow logs.
        String pat = as(alice)
                .body(Map.of("name", "logs"))
                .post("/api/v1/me/tokens")
                .then()
                .statusCode(201)
                .extract()
                .path("token");
        assertThat(follow(pat, first, 1)).anyMatch(l -> l.contains("step "));
        String second = as(bob).header("X-Crater-Account", "jobs-lab")
                .body(job("second", 4, Map.of("SIM_DURATION", "2s")))
                .post("/api/v1/jobs")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> as(bob).get("/api/v1/jobs/" + second)
                        .then()
                        .body("job.state", equalTo("Queued"))
                        .body("job.reasons[0].code", equalTo("AccountQuotaExceeded"))
                        .body("job.reasons[0].numbers.used", equalTo(6000))
                        .body("job.reasons[0].numbers.effectiveMax", equalTo(8000)));
        as(bob).get("/api/v1/accounts/jobs-lab")
                .then()
                .body("quota.find { it.resource == 'nvidia-a100-80gb' }.used", equalTo("6"));

        // Others may not see the lab's jobs; a member may not stop another member's job.
        as(outsider).get("/api/v1/jobs/" + first).then().statusCode(403);
        as(outsider)
                .header("Accept", "text/event-stream")
                .get("/api/v1/jobs/" + first + "/logs/stream")
                .then()
                .statusCode(403);
        admin().get("/api/v1/audit/denied")
                .then()
                .body("items.path", hasItem("/api/v1/jobs/" + first + "/logs/stream"));
        as(bob).post("/api/v1/jobs/" + first + "/stop").then().statusCode(403).body("code", equalTo("NotJobOwner"));

        // Stopping the first frees the GPUs: the second is admitted, runs for its 2 s and succeeds.
        as(alice).post("/api/v1/jobs/" + first + "/stop").then().statusCode(200);
        await().atMost(Duration.ofSeconds(30)).until(() -> state(alice, first).equals("Stopped"));
        await().atMost(Duration.ofSeconds(40)).until(() -> state(bob, second).equals("Succeeded"));
        as(bob).get("/api/v1/jobs/" + second)
                .then()
                .body("history.to", hasItem("Admitted"))
                .body("history.to", hasItem("Running"))
                .body("history.to", hasItem("Succeeded"));
        try (KubernetesClient k8s =
                KubeClients.forUrl(CraterTestResource.simulator().url())) {
            VolcanoJob vj = k8s.resources(VolcanoJob.class)
                    .inNamespace("crater-jobs")
                    .withName("c-" + second)
                    .get();
            assertThat(vj.getSpec().queue).isEqualTo("crater-jobs-lab");
            assertThat(vj.getMetadata().getLabels()).containsEntry("crater.io/job-id", second);
        }
        as(alice).post("/api/v1/jobs/" + first + "/stop").then().statusCode(409).body("code", equalTo("JobFinished"));

        // The log of the finished job, then again after its pods are gone: served from the archive.
        as(bob).get("/api/v1/jobs/" + second + "/logs")
                .then()
                .statusCode(200)
                .body(containsString("container main started"))
                .body(containsString("process exited with code 0"));
        as(alice).get("/api/v1/jobs/" + second + "/logs").then().statusCode(403).body("code", equalTo("NotJobOwner"));
        try (KubernetesClient k8s =
                KubeClients.forUrl(CraterTestResource.simulator().url())) {
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> !k8s.pods()
                            .inNamespace("crater-jobs")
                            .withLabel("crater.io/job-id", second)
                            .list()
                            .getItems()
                            .isEmpty());
            k8s.resources(VolcanoJob.class)
                    .inNamespace("crater-jobs")
                    .withName("c-" + second)
                    .delete();
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> k8s.pods()
                            .inNamespace("crater-jobs")
                            .withLabel("crater.io/job-id", second)
                            .list()
                            .getItems()
                            .isEmpty());
        }
        String archived = as(bob).get("/api/v1/jobs/" + second + "/logs")
                .then()
                .statusCode(200)
                .body(containsString("process exited with code 0"))
                .extract()
                .asString();
        List<String> all = archived.lines().toList();
        assertThat(all).hasSizeGreaterThan(1);
        String tail = as(bob).get("/api/v1/jobs/" + second + "/logs?tailLines=1")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertThat(tail.lines().toList()).containsExactly("process exited with code 0");
        as(bob).get("/api/v1/jobs/" + second).then().body("job.state", equalTo("Succeeded"));
        admin().get("/api/v1/audit?action=job.submit").then().body("items.targetId", hasItem(second));
        as(bob).get("/api/v1/jobs?account=jobs-lab")
                .then()
                .statusCode(200)
                .body("items.find { it.id == '" + second + "' }.requests.'nvidia-a100-80gb'", equalTo("4"))
                .body("items.find { it.id == '" + second + "' }.requests.memory", equalTo("16Gi"));
        // The list filters by accelerator model; a platform admin sees every account's jobs with the same filters.
        as(bob).get("/api/v1/jobs?account=jobs-lab&model=nvidia-a100-80gb&owner=jobs.bob")
                .then()
                .statusCode(200)
                .body("items.id", hasItem(second))
                .body("items.owner", everyItem(equalTo("jobs.bob")));
        as(bob).get("/api/v1/jobs?account=jobs-lab&model=nvidia-h100-80gb")
                .then()
                .statusCode(200)
                .body("items", hasSize(0));
        admin().get("/api/v1/jobs?model=nvidia-a100-80gb&state=Succeeded")
                .then()
                .statusCode(200)
                .body("items.find { it.id == '" + second + "' }.account", equalTo("jobs-lab"));
        as(bob).get("/api/v1/jobs?model=tpu-v9")
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body(
                        "errors.find { it.field == 'model' }.message",
                        equalTo("not an accelerator model of the catalogue"));
    }

    @Test
    void badJobsAreRefusedAndNothingIsCreated() {
        String carol = Api.user("jobs.carol", PW);
        as(carol)
                .body(Map.of("name", "x", "kind", "quantum"))
                .post("/api/v1/jobs")
                .then()
                .statusCode(400)
                .body("errors.field", hasItem("kind"));
        as(carol)
                .body(Map.of(
                        "name",
                        "x",
                        "kind",
                        "custom",
                        "image",
                        "python",
                        "command",
                        List.of("true"),
                        "resources",
                        Map.of("cpu", "-1", "memory", "lots", "acceleratorModel", "tpu-v9", "accelerators", 1)))
                .post("/api/v1/jobs")
                .then()
                .statusCode(400)
                .body("errors.field", hasItem("resources.cpu"))
                .body("errors.field", hasItem("resources.memory"))
                .body("errors.field", hasItem("resources.acceleratorModel"));
        // Each limit is said with its number: a long name is refused (never cut), a bare memory number has no unit.
        as(carol)
                .body(Map.of(
                        "name",
                        "n".repeat(300),
                        "kind",
                        "custom",
                        "image",
                        "python",
                        "command",
                        List.of("true"),
                        "resources",
                        Map.of("memory", "64", "sharedMemory", "99999Ti", "accelerators", -1)))
                .post("/api/v1/jobs")
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body(
                        "errors.find { it.field == 'name' }.message",
                        equalTo("at most 100 characters (this one has 300)"))
                .body(
                        "errors.find { it.field == 'resources.memory' }.message",
                        equalTo("memory needs a unit (examples: 512Mi, 64Gi, 1Ti)"))
                .body(
                        "errors.find { it.field == 'resources.sharedMemory' }.message",
                        equalTo("too large: at most 16Ti"))
                .body("errors.find { it.field == 'resources.accelerators' }.message", equalTo("must not be negative"));
        as(carol)
                .body(Map.of(
                        "name",
                        "x",
                        "kind",
                        "custom",
                        "image",
                        "python",
                        "command",
                        List.of("true"),
                        "env",
                        Map.of("CRATER_USER", "root")))
                .post("/api/v1/jobs")
                .then()
                .statusCode(400)
                .body("errors[0].field", equalTo("env.CRATER_USER"));
        // A pod larger than any node can never run: rejected at once with the numbers.
        as(carol)
                .body(Map.of(
                        "name",
                        "huge",
                        "kind",
                        "custom",
                        "image",
                        "python",
                        "command",
                        List.of("true"),
                        "resources",
                        Map.of(
                                "cpu",
                                "4",
                                "memory",
                                "16Gi",
                                "acceleratorModel",
                                "nvidia-a100-80gb",
                                "accelerators",
                                16)))
                .post("/api/v1/jobs")
                .then()
                .statusCode(422)
                .body("code", equalTo("JobRejected"))
                .body("reasons[0].code", equalTo("PodLargerThanAnyNode"));
        as(carol)
                .header("X-Crater-Account", "jobs-lab")
                .body(job("sneak", 1, Map.of()))
                .post("/api/v1/jobs")
                .then()
                .statusCode(403);
        as(carol).get("/api/v1/jobs").then().statusCode(200).body("items", hasSize(0));
    }

    /**
     * What another replica, a migration or psql writes straight to the database reaches the next submission: a
     * submission's account, membership, quota lines and member limits are kept in memory only until the tables'
     * triggers notify that they changed. Each change is made after the cache holds the older value.
     */
    @Test
    void writesStraightToTheDatabaseReachTheNextSubmission() throws Exception {
        String dora = Api.user("jobs.dora", PW);
        admin().body(Map.of("slug", "direct-lab", "name", "Direct Lab"))
                .post("/api/v1/accounts")
                .then()
                .statusCode(201);
        admin().body(Map.of(
                        "items",
                        List.of(
                                Map.of("resource", "cpu", "guaranteed", "8", "max", "8"),
                                Map.of("resource", "memory", "guaranteed", "32Gi", "max", "32Gi"))))
                .put("/api/v1/accounts/direct-lab/quota")
                .then()
                .statusCode(200);
        admin().body(Map.of("role", "member"))
                .put("/api/v1/accounts/direct-lab/members/jobs.dora")
                .then()
                .statusCode(200);
        admin().body(Map.of("resources", Map.of("cpu", "8")))
                .put("/api/v1/accounts/direct-lab/members/jobs.dora/limits")
                .then()
                .statusCode(200);
        String account = "(SELECT id FROM accounts WHERE slug = 'direct-lab')";
        String user = "(SELECT id FROM users WHERE username = 'jobs.dora')";
        admits(dora);
        Map<String, Long> hits = hits();
        admits(dora);
        for (String cache : List.of("account-targets", "quota-lines", "member-limits", "quota-grants")) {
            assertThat(hits().get(cache))
                    .as("the second submission reads " + cache + " from memory")
                    .isGreaterThan(hits.get(cache));
        }

        sql("UPDATE quotas SET guaranteed_milli = 2000, max_milli = 2000 WHERE resource = 'cpu' AND account_id = "
                + account);
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> dryRun(dora)
                        .statusCode(200)
                        .body("decision", equalTo("QUEUE"))
                        .body("reasons[0].code", equalTo("AccountQuotaExceeded"))
                        .body("reasons[0].numbers.requested", equalTo(4000))
                        .body("reasons[0].numbers.max", equalTo(2000)));
        sql("UPDATE quotas SET guaranteed_milli = 8000, max_milli = 8000 WHERE resource = 'cpu' AND account_id = "
                + account);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> admits(dora));

        sql("UPDATE member_limit_resources SET max_milli = 1000 WHERE limit_id IN (SELECT id FROM member_limits"
                + " WHERE account_id = " + account + " AND user_id = " + user + ")");
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> dryRun(dora)
                        .statusCode(200)
                        .body("decision", equalTo("QUEUE"))
                        .body("reasons[0].code", equalTo("MemberLimitReached"))
                        .body("reasons[0].numbers.limit", equalTo(1000)));
        sql("DELETE FROM member_limits WHERE account_id = " + account + " AND user_id = " + user);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> admits(dora));

        sql("UPDATE accounts SET archived_at = now() WHERE slug = 'direct-lab'");
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> dryRun(dora).statusCode(409).body("code", equalTo("AccountArchived")));
        sql("UPDATE accounts SET archived_at = NULL WHERE slug = 'direct-lab'");
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> admits(dora));

        // The member's accounts, which every job list of hers starts from, come from memory too.
        as(dora).get("/api/v1/jobs?account=direct-lab").then().statusCode(200);
        long listed = hits().get("member-accounts");
        as(dora).get("/api/v1/jobs?account=direct-lab").then().statusCode(200);
        assertThat(hits().get("member-accounts")).isGreaterThan(listed);

        sql("DELETE FROM account_members WHERE account_id = " + account + " AND user_id = " + user);
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> dryRun(dora).statusCode(403).body("code", equalTo("NotAMember")));
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> as(dora).get("/api/v1/jobs?account=direct-lab")
                        .then()
                        .statusCode(403)
                        .body("code", equalTo("NotAMember")));
        as(dora).header("X-Crater-Account", "direct-lab")
                .body(small())
                .post("/api/v1/jobs")
                .then()
                .statusCode(403)
                .body("code", equalTo("NotAMember"));
        assertThat(Db.count("SELECT count(*) FROM jobs WHERE account_id = " + account))
                .isZero();
    }

    Map<String, Long> hits() {
        Map<String, Long> out = new java.util.HashMap<>();
        caches.caches().forEach(c -> out.put(c.name(), c.hits()));
        return out;
    }

    static Map<String, Object> small() {
        return Map.of(
                "name",
                "direct",
                "kind",
                "custom",
                "image",
                "busybox",
                "command",
                List.of("true"),
                "resources",
                Map.of("cpu", "4", "memory", "1Gi"));
    }

    static io.restassured.response.ValidatableResponse dryRun(String token) {
        return as(token)
                .header("X-Crater-Account", "direct-lab")
                .body(small())
                .post("/api/v1/jobs?dryRun=true")
                .then();
    }

    static void admits(String token) {
        dryRun(token).statusCode(200).body("decision", equalTo("ADMIT"));
    }

    static void sql(String statement) throws Exception {
        try (java.sql.Connection c = Db.connection();
                java.sql.Statement s = c.createStatement()) {
            s.executeUpdate(statement);
        }
    }

    @Test
    void anAdmittedJobWhoseObjectsWereNeverMadeGetsThemFromTheRepairStep() throws Exception {
        admin().body(Map.of("slug", "repair-lab", "name", "Repair Lab"))
                .post("/api/v1/accounts")
                .then()
                .statusCode(201);
        admin().body(Map.of(
                        "items",
                        List.of(
                                Map.of("resource", "nvidia-a100-80gb", "guaranteed", "2", "max", "2"),
                                Map.of("resource", "cpu", "guaranteed", "16", "max", "16"),
                                Map.of("resource", "memory", "guaranteed", "64Gi", "max", "64Gi"))))
                .put("/api/v1/accounts/repair-lab/quota")
                .then()
                .statusCode(200);
        String erin = Api.user("jobs.erin", PW);
        admin().body(Map.of("role", "member"))
                .put("/api/v1/accounts/repair-lab/members/jobs.erin")
                .then()
                .statusCode(200);
        String running = submit(erin, "repair-lab", job("holds", 2, Map.of()));
        await().atMost(Duration.ofSeconds(30)).until(() -> "Running".equals(state(erin, running)));
        String lost = submit(erin, "repair-lab", job("lost", 2, Map.of()));
        assertThat(state(erin, lost)).isEqualTo("Queued");

        // As if the replica that admitted it died before creating its objects: admitted a minute ago, nothing made.
        sql("UPDATE jobs SET state = 'Admitted', admitted_at = now() - interval '1 minute' WHERE public_id = ?", lost);
        sql("SELECT pg_notify('" + JobStates.ADMISSION_CHANNEL + "', ?)", lost);

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            try (KubernetesClient k =
                    KubeClients.forUrl(CraterTestResource.simulator().url())) {
                assertThat(k.resources(VolcanoJob.class)
                                .inNamespace("crater-jobs")
                                .withName(JobNames.volcanoName(lost))
                                .get())
                        .isNotNull();
            }
            assertThat(state(erin, lost)).isIn("Pending", "Running");
        });
        as(erin).post("/api/v1/jobs/" + running + "/stop").then().statusCode(200);
        as(erin).post("/api/v1/jobs/" + lost + "/stop").then().statusCode(200);
    }

    @Test
    void aQueuedJobWhoseSpecNoLongerPassesIsRejectedByARoundWithItsReason() throws Exception {
        admin().body(Map.of("slug", "reject-lab", "name", "Reject Lab"))
                .post("/api/v1/accounts")
                .then()
                .statusCode(201);
        admin().body(Map.of(
                        "items",
                        List.of(
                                Map.of("resource", "nvidia-a100-80gb", "guaranteed", "2", "max", "2"),
                                Map.of("resource", "cpu", "guaranteed", "16", "max", "16"),
                                Map.of("resource", "memory", "guaranteed", "64Gi", "max", "64Gi"))))
                .put("/api/v1/accounts/reject-lab/quota")
                .then()
                .statusCode(200);
        String fay = Api.user("jobs.fay", PW);
        admin().body(Map.of("role", "member"))
                .put("/api/v1/accounts/reject-lab/members/jobs.fay")
                .then()
                .statusCode(200);
        String running = submit(fay, "reject-lab", job("holds", 2, Map.of()));
        await().atMost(Duration.ofSeconds(30)).until(() -> "Running".equals(state(fay, running)));
        String waiting = submit(fay, "reject-lab", job("waits", 2, Map.of()));

        // A queued row whose stored spec no longer passes the checks, as an older version may have left one: written
        // straight into the database beside the waiting job, the way another replica would, and announced.
        String spoiled = JobNames.newPublicId();
        sql(
                "INSERT INTO jobs (public_id, account_id, user_id, name, kind, interactive, state, spec, priority,"
                        + " time_limit_s, backfill) SELECT '" + spoiled + "', account_id, user_id, 'spoiled', kind,"
                        + " interactive, 'Queued', jsonb_set(spec, '{image}', '\"\"'), priority, time_limit_s, backfill"
                        + " FROM jobs WHERE public_id = ?",
                waiting);
        sql("SELECT pg_notify('" + JobStates.ADMISSION_CHANNEL + "', ?)", spoiled);
        await().atMost(Duration.ofSeconds(30)).until(() -> "Rejected".equals(state(fay, spoiled)));
        as(fay).get("/api/v1/jobs/" + spoiled)
                .then()
                .statusCode(200)
                .body("job.state", equalTo("Rejected"))
                .body("history.reason", hasItem("InvalidSpec"));
        assertThat(state(fay, waiting)).isEqualTo("Queued");
        assertThat(state(fay, running)).isEqualTo("Running");
        as(fay).post("/api/v1/jobs/" + running + "/stop").then().statusCode(200);
        await().atMost(Duration.ofSeconds(30)).until(() -> "Running".equals(state(fay, waiting)));
        as(fay).post("/api/v1/jobs/" + waiting + "/stop").then().statusCode(200);
    }

    static String submit(String token, String account, Map<String, Object> spec) {
        return as(token)
                .header("X-Crater-Account", account)
                .body(spec)
                .post("/api/v1/jobs")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
    }

    /** Runs one statement with a string parameter straight on the database, as another replica would. */
    static void sql(String statement, String param) throws Exception {
        try (java.sql.Connection c = Db.connection();
                java.sql.PreparedStatement s = c.prepareStatement(statement)) {
            s.setString(1, param);
            s.execute();
        }
    }
}
