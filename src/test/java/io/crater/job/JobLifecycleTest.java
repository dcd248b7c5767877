package io.crater.job;

import static io.crater.Api.admin;
import static io.crater.Api.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.crater.platform.Sql;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.inject.Inject;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A job's life after submission: detail with pods, events and exit reasons; resubmit, delete; list filters; the
 * job topics of the events stream; per-account time limits; jobs whose Volcano Job vanished while unseen.
 */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class JobLifecycleTest {

    static final String PW = "Lifecycle-pass-2026";
    static String ivy;
    static String jack;
    static String kim;

    @TestHTTPResource("/")
    URL base;

    @Inject
    JobReconciler reconciler;

    @BeforeEach
    void people() {
        if (ivy != null) {
            return;
        }
        admin().body(Map.of("slug", "life-lab", "name", "Life Lab")).post("/api/v1/accounts");
        admin().body(Map.of(
                        "items",
                        List.of(
                                Map.of("resource", "cpu", "guaranteed", "32", "max", "32"),
                                Map.of("resource", "memory", "guaranteed", "128Gi", "max", "128Gi"))))
                .put("/api/v1/accounts/life-lab/quota")
                .then()
                .statusCode(200);
        ivy = Api.user("life.ivy", PW);
        jack = Api.user("life.jack", PW);
        kim = Api.user("life.kim", PW);
        admin().body(Map.of("role", "member")).put("/api/v1/accounts/life-lab/members/life.ivy");
        admin().body(Map.of("role", "member")).put("/api/v1/accounts/life-lab/members/life.jack");
    }

    static Map<String, Object> job(String name, Map<String, String> env) {
        return Map.of(
                "name",
                name,
                "kind",
                "custom",
                "image",
                "python:3.12",
                "command",
                List.of("python", "run.py"),
                "env",
                env,
                "resources",
                Map.of("cpu", "1", "memory", "1Gi"));
    }

    static String submit(String token, Map<String, Object> body) {
        return as(token)
                .header("X-Crater-Account", "life-lab")
                .body(body)
                .post("/api/v1/jobs")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
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
    void aFailedJobSaysWhyAfterItsPodsAreGoneAndCanBeResubmittedAndDeleted() {
        String id = submit(ivy, job("oom", Map.of("SIM_DURATION", "1s", "SIM_EXIT_CODE", "137")));
        await().atMost(Duration.ofSeconds(40)).until(() -> state(ivy, id).equals("Failed"));
        // Exit code, reason and message were archived; the events were too.
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> as(ivy).get("/api/v1/jobs/" + id)
                        .then()
                        .body("exits[0].pod", equalTo("c-" + id + "-main-0"))
                        .body("exits[0].exitCode", equalTo(137))
                        .body("exits[0].reason", equalTo("OOMKilled"))
                        .body("events.reason", hasItem("Scheduled"))
                        .body("permissions.delete", equalTo(true))
                        .body("permissions.stop", equalTo(false)));
        as(jack).get("/api/v1/jobs/" + id)
                .then()
                .body("permissions.delete", equalTo(false))
                .body("permissions.readLogs", equalTo(false))
                .body("permissions.resubmit", equalTo(true));
        as(ivy).get("/api/v1/jobs/" + id + "/manifests")
                .then()
                .statusCode(200)
                .body("yaml", containsString("name: \"c-" + id + "\""))
                .body("yaml", not(containsString("JUPYTER_TOKEN: \"")));

        // Resubmit: a new job with the same spec, linked, owned by whoever resubmits it.
        String again = as(jack).post("/api/v1/jobs/" + id + "/resubmit")
                .then()
                .statusCode(201)
                .body("owner", equalTo("life.jack"))
                .extract()
                .path("id");
        as(jack).get("/api/v1/jobs/" + again)
                .then()
                .body("sourceJob", equalTo(id))
                .body("spec.env.SIM_EXIT_CODE", equalTo("137"))
                .body("job.account", equalTo("life-lab"));
        as(kim).post("/api/v1/jobs/" + id + "/resubmit").then().statusCode(403);

        // Delete: only finished jobs, only by those who may act on them; then gone from every view.
        as(jack).delete("/api/v1/jobs/" + id).then().statusCode(403).body("code", equalTo("NotJobOwner"));
        String running = submit(ivy, job("runs", Map.of()));
        as(ivy).delete("/api/v1/jobs/" + running).then().statusCode(409).body("code", equalTo("JobNotFinished"));
        as(ivy).post("/api/v1/jobs/" + running + "/stop").then().statusCode(200);
        as(ivy).delete("/api/v1/jobs/" + id).then().statusCode(204);
        as(ivy).get("/api/v1/jobs/" + id).then().statusCode(404);
        as(ivy).get("/api/v1/jobs?account=life-lab&limit=200").then().body("items.id", not(hasItem(id)));
        admin().get("/api/v1/audit?action=job.delete").then().body("items.targetId", hasItem(id));
    }

    @Test
    void theListFiltersSortsAndPagesAndRefusesBadFilters() {
        Instant from = Instant.now().minusSeconds(1);
        String a = submit(ivy, job("filter-a", Map.of("SIM_DURATION", "1s")));
        String b = submit(jack, job("filter-b", Map.of("SIM_DURATION", "1s")));
        String c = submit(ivy, job("filter-c", Map.of("SIM_DURATION", "1s")));

        as(ivy).get("/api/v1/jobs?account=life-lab&mine=true&since=" + from)
                .then()
                .statusCode(200)
                .body("items.id", equalTo(List.of(c, a)));
        as(ivy).get("/api/v1/jobs?account=life-lab&owner=life.jack&since=" + from)
                .then()
                .body("items.id", equalTo(List.of(b)));
        String next = as(ivy).get("/api/v1/jobs?account=life-lab&sort=created&since=" + from + "&limit=2")
                .then()
                .body("items.id", equalTo(List.of(a, b)))
                .extract()
                .path("nextCursor");
        assertThat(next).isNotNull();
        as(ivy).get("/api/v1/jobs?account=life-lab&sort=created&since=" + from + "&limit=2&cursor=" + next)
                .then()
                .body("items.id", equalTo(List.of(c)))
                .body("nextCursor", equalTo(null));
        as(ivy).get("/api/v1/jobs?kind=jupyter&since=" + from).then().body("items", hasSize(0));
        as(ivy).get("/api/v1/jobs?until=" + from).then().body("items.id", not(hasItem(a)));
        as(ivy).get("/api/v1/jobs?state=Sleeping").then().statusCode(400).body("errors.field", hasItem("state"));
        as(ivy).get("/api/v1/jobs?kind=quantum&since=yesterday")
                .then()
                .statusCode(400)
                .body("errors.field", hasItem("kind"))
                .body("errors.field", hasItem("since"));
        as(ivy).get("/api/v1/jobs?sort=name").then().statusCode(400);
        as(kim).get("/api/v1/jobs?account=life-lab").then().statusCode(403);
        as(kim).get("/api/v1/jobs").then().statusCode(200).body("items.id", not(hasItem(a)));
    }

    /** Reads an event stream until {@code until} holds for the lines read, or the time is up. */
    CompletableFuture<List<String>> listen(
            String token, String topics, java.util.function.Predicate<List<String>> until) {
        return listen(token, topics, until, new CopyOnWriteArrayList<>());
    }

    CompletableFuture<List<String>> listen(
            String token, String topics, java.util.function.Predicate<List<String>> until, List<String> lines) {
        HttpRequest req = HttpRequest.newBuilder(URI.create(base + "api/v1/events?topics=" + topics))
                .header("Authorization", "Bearer " + token)
                .header("Accept", "text/event-stream")
                .timeout(Duration.ofSeconds(60))
                .build();
        return HttpClient.newHttpClient()
                .sendAsync(req, HttpResponse.BodyHandlers.ofInputStream())
                .thenApply(r -> {
                    lines.add("status:" + r.statusCode());
                    try (BufferedReader reader =
                            new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
                        String line;
                        while ((line = reader.readLine()) != null) {
                            lines.add(line);
                            if (until.test(lines)) {
                                break;
                            }
                        }
                    } catch (java.io.IOException e) {
                        lines.add("error:" + e);
                    }
                    return lines;
                });
    }

    @Test
    void jobChangesReachTheMembersOfTheAccountOnTheEventsStream() throws Exception {
        String id = submit(jack, job("streamed", Map.of("SIM_DURATION", "2s")));
        // Subscribing to one job is refused to someone outside its account.
        as(kim).header("Accept", "text/event-stream")
                .get("/api/v1/events?topics=job:" + id)
                .then()
                .statusCode(403);
        as(kim).header("Accept", "text/event-stream")
                .get("/api/v1/events?topics=jobs:life-lab")
                .then()
                .statusCode(403);
        as(kim).header("Accept", "text/event-stream")
                .get("/api/v1/events?topics=job:jzzzzzz")
                .then()
                .statusCode(404);

        String again = submit(jack, job("streamed-2", Map.of("SIM_DURATION", "2s")));
        var member = listen(
                ivy,
                "jobs",
                l -> l.stream()
                        .anyMatch(
                                x -> x.contains("\"id\":\"" + again + "\"") && x.contains("\"state\":\"Succeeded\"")));
        var one = listen(jack, "job:" + again, l -> l.stream().anyMatch(x -> x.contains("\"state\":\"Succeeded\"")));
        List<String> outsiderLines = new CopyOnWriteArrayList<>();
        var outsider = listen(kim, "jobs", l -> l.size() > 1000, outsiderLines);
        List<String> seen = member.get(60, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(seen).contains("status:200").contains("event:job");
        assertThat(seen).anyMatch(x -> x.contains("\"id\":\"" + again + "\"") && x.contains("\"state\":\"Running\""));
        assertThat(one.get(60, java.util.concurrent.TimeUnit.SECONDS))
                .noneMatch(x -> x.startsWith("data:") && x.contains("\"id\":\"" + id + "\""));
        // The outsider's stream is open but carries none of the lab's jobs.
        Thread.sleep(500);
        assertThat(outsiderLines).contains("status:200").noneMatch(x -> x.contains("life-lab"));
        outsider.cancel(true);
    }

    @Test
    void accountTimeLimitsNarrowThePlatformsAndAreWrittenIntoTheJob() {
        as(ivy).body(Map.of("batchMax", "2h"))
                .put("/api/v1/accounts/life-lab/time-limits")
                .then()
                .statusCode(403);
        admin().body(Map.of("batchDefault", "3h", "batchMax", "2h"))
                .put("/api/v1/accounts/life-lab/time-limits")
                .then()
                .statusCode(400)
                .body("errors.field", hasItem("batchDefault"));
        admin().body(Map.of("batchMax", "90d"))
                .put("/api/v1/accounts/life-lab/time-limits")
                .then()
                .statusCode(400)
                .body("errors.field", hasItem("batchMax"));
        admin().body(Map.of("batchDefault", "1h", "batchMax", "2h"))
                .put("/api/v1/accounts/life-lab/time-limits")
                .then()
                .statusCode(200)
                .body("batchMax", equalTo("2h"))
                .body("effective.batchDefault", equalTo("1h"))
                .body("effective.interactiveMax", equalTo("7d"));
        try {
            String id = submit(ivy, job("limited", Map.of("SIM_DURATION", "1s")));
            as(ivy).get("/api/v1/jobs/" + id).then().body("spec.timeLimit", equalTo("1h"));
            Map<String, Object> tooLong = new java.util.HashMap<>(job("too-long", Map.of()));
            tooLong.put("timeLimit", "3h");
            as(ivy).header("X-Crater-Account", "life-lab")
                    .body(tooLong)
                    .post("/api/v1/jobs")
                    .then()
                    .statusCode(400)
                    .body("errors.field", hasItem("timeLimit"));
        } finally {
            admin().body(Map.of())
                    .put("/api/v1/accounts/life-lab/time-limits")
                    .then()
                    .statusCode(200);
        }
    }

    @Test
    void theOwnerIsWarnedOnceBeforeTheTimeLimitEndsAJob() {
        Map<String, Object> short10 = new java.util.HashMap<>(job("short", Map.of()));
        short10.put("timeLimit", "10m");
        String id = submit(jack, short10);
        await().atMost(Duration.ofSeconds(40)).until(() -> state(jack, id).equals("Running"));
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> as(jack).get("/api/v1/me/notifications")
                        .then()
                        .body(
                                "items.findAll { it.kind == 'job.time-limit' && it.link == '/jobs/" + id + "' }.size()",
                                equalTo(1)));
        as(jack).post("/api/v1/jobs/" + id + "/stop").then().statusCode(200);
    }

    @Test
    void onlyAnAccountAdminSubmitsWithHighPriority() {
        Map<String, Object> high = new java.util.HashMap<>(job("urgent", Map.of()));
        high.put("priority", "high");
        as(ivy).header("X-Crater-Account", "life-lab")
                .body(high)
                .post("/api/v1/jobs")
                .then()
                .statusCode(403)
                .body("code", equalTo("HighPriorityNeedsAccountAdmin"));
        // In one's personal account one is its admin.
        as(ivy).body(high).post("/api/v1/jobs").then().statusCode(201);
    }

    @Test
    void aJobWhoseVolcanoJobVanishedUnseenIsEndedByTheSweep() throws Throwable {
        String id = JobNames.newPublicId();
        VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> Sql.update(
                "INSERT INTO jobs (public_id, account_id, user_id, name, kind, state, spec, admitted_at)"
                        + " SELECT ?1, a.id, u.id, 'ghost', 'custom', 'Running', '{}', now() - interval '1 hour'"
                        + " FROM accounts a, users u WHERE a.slug = 'life-lab' AND u.username = 'life.ivy'",
                id)));
        reconciler.sweep();
        as(ivy).get("/api/v1/jobs/" + id)
                .then()
                .body("job.state", equalTo("Failed"))
                .body("stateReason", equalTo("VolcanoJobVanished"));
    }

    @Test
    void aJobThatEndedWithoutItsArchiveIsArchivedByTheSweep() throws Throwable {
        String id = submit(ivy, job("unarchived", Map.of("SIM_DURATION", "1s")));
        await().atMost(Duration.ofSeconds(40)).until(() -> state(ivy, id).equals("Succeeded"));
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> as(ivy).get("/api/v1/jobs/" + id).then().body("exits.size()", equalTo(1)));
        // As if the server had stopped after writing the end, before the archive: ended two minutes ago, no archive.
        VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> Sql.update(
                        "DELETE FROM job_archives WHERE job_id = (SELECT id FROM jobs WHERE public_id = ?1)", id)
                .flatMap(n -> Sql.update(
                        "UPDATE jobs SET finished_at = now() - interval '2 minutes' WHERE public_id = ?1", id))));
        as(ivy).get("/api/v1/jobs/" + id).then().body("exits.size()", equalTo(0));
        reconciler.sweep();
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> as(ivy).get("/api/v1/jobs/" + id)
                        .then()
                        .body("exits.size()", equalTo(1))
                        .body("exits[0].exitCode", equalTo(0)));
    }

    @Test
    void aMoveFromAStateTheJobHasLeftWritesNothing() throws Throwable {
        String id = JobNames.newPublicId();
        long row = VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> Sql.longs(
                        "INSERT INTO jobs (public_id, account_id, user_id, name, kind, state, spec)"
                                + " SELECT ?1, a.id, u.id, 'late', 'custom', 'Stopped', '{}'"
                                + " FROM accounts a, users u WHERE a.slug = 'life-lab' AND u.username = 'life.ivy'"
                                + " RETURNING id",
                        id)))
                .get(0);
        // An admission round that read the job while it was queued, writing after a stop committed.
        boolean moved = VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(
                () -> JobStates.move(row, "Queued", "Admitted", "Admitted", "within the account's quota")));
        assertThat(moved).isFalse();
        List<Object[]> after = VertxContextSupport.subscribeAndAwait(() -> Panache.withSession(() -> Sql.rows(
                "SELECT state, (SELECT count(*) FROM usage_intervals WHERE job_id = ?1),"
                        + " (SELECT count(*) FROM job_transitions WHERE job_id = ?1) FROM jobs WHERE id = ?1",
                row)));
        assertThat(after.get(0)[0]).isEqualTo("Stopped");
        assertThat(Sql.longOf(after.get(0)[1])).as("usage intervals").isZero();
        assertThat(Sql.longOf(after.get(0)[2])).as("history entries").isZero();
    }

    @Test
    void jobsStoppedRightAfterSubmissionEndStoppedAndHoldNothing() throws Throwable {
        List<String> ids = new java.util.ArrayList<>();
        for (int i = 0; i < 16; i++) {
            String id = submit(jack, job("quick-stop-" + i, Map.of("SIM_DURATION", "600s")));
            as(jack).post("/api/v1/jobs/" + id + "/stop").then().statusCode(200);
            ids.add(id);
        }
        for (String id : ids) {
            await().atMost(Duration.ofSeconds(30)).until(() -> "Stopped".equals(state(jack, id)));
        }
        List<Object[]> open = VertxContextSupport.subscribeAndAwait(() -> Panache.withSession(() -> Sql.rows(
                "SELECT j.public_id FROM usage_intervals u JOIN jobs j ON j.id = u.job_id"
                        + " WHERE u.ended_at IS NULL AND j.public_id IN (" + Sql.placeholders(ids.size()) + ")",
                ids.toArray())));
        assertThat(open).as("intervals still open").isEmpty();
    }
}
