package io.crater.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.crater.cluster.ClusterConfig;
import io.crater.platform.PgNotifications;
import io.crater.platform.Sql;
import io.crater.volcano.VolcanoJob;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The reconciler's flush writes a batch of jobs in one transaction: many jobs ending together are each written once
 * (history, notices, usage intervals, wake-ups, then their archive), a batch that fails is retried whole, and a move
 * from a state a job has left writes nothing for that job alone, and a job whose archive is refused does not take the
 * archives of the rest of its batch with it.
 */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class JobFlushTest {

    static final String ACCOUNT = "flush-lab";

    @Inject
    KubernetesClient client;

    @Inject
    ClusterConfig cluster;

    @Inject
    PgNotifications notifications;

    static Map<String, Object> job(String name) {
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
                Map.of("SIM_DURATION", "2s"),
                "resources",
                Map.of("cpu", "500m", "memory", "256Mi"));
    }

    static <T> T db(java.util.function.Supplier<io.smallrye.mutiny.Uni<T>> work) throws Exception {
        try {
            return VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(work));
        } catch (Exception e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** Ids of the given jobs, as one SQL list parameter. */
    static String ids(List<String> publicIds) {
        return String.join(",", publicIds);
    }

    static long count(String sql, List<String> publicIds) throws Exception {
        return db(() -> Sql.count(sql, ids(publicIds)));
    }

    static final String OF_JOBS = " j.public_id = ANY(string_to_array(?1, ','))";

    @Test
    void fiftyJobsEndingTogetherAreWrittenOnceEachAfterTheirFailedBatchIsRetried() throws Throwable {
        String owner = Api.user("flush.ann", "Flush-pass-2026");
        Flows.account(
                ACCOUNT, List.of(Flows.line("cpu", "64", "64"), Flows.line("memory", "64Gi", "64Gi")), "flush.ann");
        // A real failure of the batch's transaction: the database refuses these jobs' ends until the trigger goes.
        VertxContextSupport.subscribeAndAwait(
                () -> Sql.update("CREATE OR REPLACE FUNCTION flush_test_refuse() RETURNS trigger AS $$ BEGIN"
                        + " IF NEW.to_state = 'Succeeded' AND EXISTS (SELECT 1 FROM jobs j JOIN accounts a"
                        + " ON a.id = j.account_id WHERE j.id = NEW.job_id AND a.slug = '" + ACCOUNT + "')"
                        + " THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql"));
        VertxContextSupport.subscribeAndAwait(() -> Sql.update("CREATE TRIGGER flush_test_refuse BEFORE INSERT"
                + " ON job_transitions FOR EACH ROW EXECUTE FUNCTION flush_test_refuse()"));
        Map<String, AtomicInteger> ended = new ConcurrentHashMap<>();
        notifications.listen(
                JobStates.ENDED_CHANNEL,
                id -> ended.computeIfAbsent(id, x -> new AtomicInteger()).incrementAndGet());
        List<String> jobs = new ArrayList<>();
        try {
            for (int i = 0; i < 50; i++) {
                jobs.add(Flows.submit(owner, ACCOUNT, job("together-" + i)));
            }
            awaitCompleted(jobs, Duration.ofSeconds(90));
            Thread.sleep(1500); // several flushes, each failing whole
            // The whole batch rolls back: not only the ends, also the moves it held of jobs that still ran.
            assertThat(count(
                            "SELECT count(*) FROM jobs j WHERE" + OF_JOBS
                                    + " AND state IN ('Admitted', 'Pending', 'Running') AND finished_at IS NULL",
                            jobs))
                    .as("jobs still written as unfinished while their batches fail")
                    .isEqualTo(50);
            assertThat(count(
                            "SELECT count(*) FROM usage_intervals u JOIN jobs j ON j.id = u.job_id WHERE" + OF_JOBS
                                    + " AND u.ended_at IS NOT NULL",
                            jobs))
                    .as("intervals closed while their batches fail")
                    .isZero();
            assertThat(count(
                            "SELECT count(*) FROM job_archives a JOIN jobs j ON j.id = a.job_id WHERE" + OF_JOBS, jobs))
                    .as("nothing archived before the states are committed")
                    .isZero();
        } finally {
            VertxContextSupport.subscribeAndAwait(
                    () -> Sql.update("DROP TRIGGER IF EXISTS flush_test_refuse ON job_transitions"));
        }
        await().atMost(Duration.ofSeconds(30))
                .until(() ->
                        count("SELECT count(*) FROM jobs j WHERE" + OF_JOBS + " AND state = 'Succeeded'", jobs) == 50);
        assertWrittenOnce(jobs, ended);
    }

    @Test
    void aJobTheDatabaseRefusesDoesNotHoldBackTheOthersOfItsBatch() throws Throwable {
        String owner = Api.user("flush.bea", "Flush-pass-2026");
        String account = "flush-poison";
        Flows.account(
                account, List.of(Flows.line("cpu", "64", "64"), Flows.line("memory", "64Gi", "64Gi")), "flush.bea");
        VertxContextSupport.subscribeAndAwait(
                () -> Sql.update("CREATE OR REPLACE FUNCTION flush_test_poison() RETURNS trigger AS $$ BEGIN"
                        + " IF NEW.to_state = 'Succeeded' AND EXISTS (SELECT 1 FROM jobs j"
                        + " WHERE j.id = NEW.job_id AND j.name = 'poison')"
                        + " THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql"));
        VertxContextSupport.subscribeAndAwait(() -> Sql.update("CREATE TRIGGER flush_test_poison BEFORE INSERT"
                + " ON job_transitions FOR EACH ROW EXECUTE FUNCTION flush_test_poison()"));
        List<String> others = new ArrayList<>();
        String poison;
        try {
            poison = Flows.submit(owner, account, job("poison"));
            for (int i = 0; i < 10; i++) {
                others.add(Flows.submit(owner, account, job("beside-" + i)));
            }
            await().atMost(Duration.ofSeconds(60))
                    .until(() ->
                            count("SELECT count(*) FROM jobs j WHERE" + OF_JOBS + " AND state = 'Succeeded'", others)
                                    == 10);
            assertThat(count(
                            "SELECT count(*) FROM jobs j WHERE" + OF_JOBS + " AND finished_at IS NULL",
                            List.of(poison)))
                    .as("the refused job is not written as ended")
                    .isEqualTo(1);
        } finally {
            VertxContextSupport.subscribeAndAwait(
                    () -> Sql.update("DROP TRIGGER IF EXISTS flush_test_poison ON job_transitions"));
        }
        await().atMost(Duration.ofSeconds(30))
                .until(() -> count(
                                "SELECT count(*) FROM jobs j WHERE" + OF_JOBS + " AND state = 'Succeeded'",
                                List.of(poison))
                        == 1);
    }

    @Test
    void aJobWhoseArchiveTheDatabaseRefusesDoesNotLoseTheOthersArchives() throws Throwable {
        String owner = Api.user("flush.cid", "Flush-pass-2026");
        String account = "flush-archive";
        Flows.account(
                account, List.of(Flows.line("cpu", "64", "64"), Flows.line("memory", "64Gi", "64Gi")), "flush.cid");
        String ofAccount = " EXISTS (SELECT 1 FROM jobs j JOIN accounts a ON a.id = j.account_id"
                + " WHERE j.id = NEW.job_id AND a.slug = '" + account + "'";
        // The ends are held back until every job has ended, so that they are written, and archived, as one batch.
        VertxContextSupport.subscribeAndAwait(
                () -> Sql.update("CREATE OR REPLACE FUNCTION flush_test_hold() RETURNS trigger AS $$ BEGIN"
                        + " IF NEW.to_state = 'Succeeded' AND" + ofAccount + ")"
                        + " THEN RAISE EXCEPTION 'held by the test'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql"));
        VertxContextSupport.subscribeAndAwait(() -> Sql.update("CREATE TRIGGER flush_test_hold BEFORE INSERT"
                + " ON job_transitions FOR EACH ROW EXECUTE FUNCTION flush_test_hold()"));
        VertxContextSupport.subscribeAndAwait(
                () -> Sql.update("CREATE OR REPLACE FUNCTION flush_test_unarchivable() RETURNS trigger AS $$ BEGIN"
                        + " IF" + ofAccount + " AND j.name = 'unarchivable')"
                        + " THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql"));
        VertxContextSupport.subscribeAndAwait(() -> Sql.update("CREATE TRIGGER flush_test_unarchivable BEFORE INSERT"
                + " ON job_archives FOR EACH ROW EXECUTE FUNCTION flush_test_unarchivable()"));
        List<String> others = new ArrayList<>();
        String refused;
        try {
            refused = Flows.submit(owner, account, job("unarchivable"));
            for (int i = 0; i < 5; i++) {
                others.add(Flows.submit(owner, account, job("archived-" + i)));
            }
            List<String> all = new ArrayList<>(others);
            all.add(refused);
            awaitCompleted(all, Duration.ofSeconds(60));
            VertxContextSupport.subscribeAndAwait(
                    () -> Sql.update("DROP TRIGGER IF EXISTS flush_test_hold ON job_transitions"));
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> count("SELECT count(*) FROM jobs j WHERE" + OF_JOBS + " AND state = 'Succeeded'", all)
                            == all.size());
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> assertThat(count(
                                    "SELECT count(DISTINCT a.job_id) FROM job_archives a JOIN jobs j ON j.id = a.job_id"
                                            + " WHERE" + OF_JOBS,
                                    others))
                            .as("the others of the batch are archived")
                            .isEqualTo(others.size()));
            assertThat(count(
                            "SELECT count(*) FROM job_archives a JOIN jobs j ON j.id = a.job_id WHERE" + OF_JOBS,
                            List.of(refused)))
                    .as("the refused job has no archive, and nothing half-written")
                    .isZero();
        } finally {
            VertxContextSupport.subscribeAndAwait(
                    () -> Sql.update("DROP TRIGGER IF EXISTS flush_test_hold ON job_transitions"));
            VertxContextSupport.subscribeAndAwait(
                    () -> Sql.update("DROP TRIGGER IF EXISTS flush_test_unarchivable ON job_archives"));
        }
    }

    /** Waits until the Volcano Jobs of all the given jobs show Completed in the cluster. */
    private void awaitCompleted(List<String> jobs, Duration within) {
        Set<String> names = jobs.stream().map(JobNames::volcanoName).collect(Collectors.toSet());
        await().atMost(within)
                .until(() ->
                        client.resources(VolcanoJob.class).inNamespace(cluster.namespace()).list().getItems().stream()
                                        .filter(v ->
                                                names.contains(v.getMetadata().getName()))
                                        .filter(v -> v.getStatus() != null
                                                && v.getStatus().state != null
                                                && "Completed".equals(v.getStatus().state.phase))
                                        .count()
                                == names.size());
    }

    private void assertWrittenOnce(List<String> jobs, Map<String, AtomicInteger> ended) throws Throwable {
        assertThat(count(
                        "SELECT count(*) FROM job_transitions t JOIN jobs j ON j.id = t.job_id WHERE" + OF_JOBS
                                + " AND t.to_state = 'Succeeded'",
                        jobs))
                .as("one history entry of each end")
                .isEqualTo(50);
        assertThat(count(
                        "SELECT count(*) FROM (SELECT t.job_id FROM job_transitions t JOIN jobs j ON j.id = t.job_id"
                                + " WHERE" + OF_JOBS + " GROUP BY t.job_id, t.to_state HAVING count(*) > 1) AS twice",
                        jobs))
                .as("states entered twice")
                .isZero();
        assertThat(count("SELECT count(*) FROM jobs j WHERE" + OF_JOBS + " AND finished_at IS NOT NULL", jobs))
                .isEqualTo(50);
        assertThat(count(
                        "SELECT count(*) FROM usage_intervals u JOIN jobs j ON j.id = u.job_id WHERE" + OF_JOBS
                                + " AND u.ended_at IS NOT NULL",
                        jobs))
                .as("cpu and memory intervals, each opened once and closed")
                .isEqualTo(100);
        assertThat(count("SELECT count(*) FROM usage_intervals u JOIN jobs j ON j.id = u.job_id WHERE" + OF_JOBS, jobs))
                .isEqualTo(100);
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(count(
                                "SELECT count(*) FROM job_archives a JOIN jobs j ON j.id = a.job_id WHERE" + OF_JOBS
                                        + " AND a.pod = 'c-' || j.public_id || '-main-0' AND a.exit_code = 0",
                                jobs))
                        .as("each job's container archived once, with its exit code")
                        .isEqualTo(50));
        assertThat(count(
                        "SELECT count(DISTINCT e.job_id) FROM job_events e JOIN jobs j ON j.id = e.job_id WHERE"
                                + OF_JOBS,
                        jobs))
                .as("jobs whose events were archived")
                .isEqualTo(50);
        List<Long> rowIds = db(() -> Sql.longs("SELECT id FROM jobs j WHERE" + OF_JOBS, ids(jobs)));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> rowIds.stream().allMatch(id -> ended.containsKey(Long.toString(id))));
        assertThat(rowIds)
                .allSatisfy(id -> assertThat(ended.get(Long.toString(id)))
                        .as("crater_job_ended of job %d", id)
                        .hasValue(1));
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(count(
                                "SELECT count(*) FROM notifications n JOIN jobs j ON n.link = '/jobs/' || j.public_id"
                                        + " WHERE" + OF_JOBS + " AND n.kind = 'job.succeeded'",
                                jobs))
                        .as("one notice of success per job")
                        .isEqualTo(50));
    }

    @Test
    void aBatchMovesOnlyTheJobsStillInTheStatesItsMovesLeave() throws Throwable {
        Api.user("flush.bo", "Flush-pass-2026");
        Flows.account("flush-cas", List.of(Flows.line("cpu", "8", "8")), "flush.bo");
        long queued = inserted("Queued", null);
        long stopped = inserted("Stopped", null);
        long faulty = inserted("Running", "{\"message\": \"GPU 3 on node a100-4 reported XID 79\"}");
        db(() -> Sql.update(
                "INSERT INTO usage_intervals (job_id, account_id, user_id, resource, milli, backfill, started_at,"
                        + " charged_until) SELECT id, account_id, user_id, 'cpu', 1000, FALSE, now(), now()"
                        + " FROM jobs WHERE id = ?1",
                faulty));
        Map<String, Object> borrowing = new HashMap<>();
        borrowing.put("borrowing", 0L);
        // The second move was decided from a read taken before a stop committed.
        List<JobStates.Change> batch = List.of(
                new JobStates.Change(queued, "Queued", "Admitted", "Admitted", "within the account's quota", borrowing),
                new JobStates.Change(
                        stopped, "Queued", "Admitted", "Admitted", "within the account's quota", borrowing),
                new JobStates.Change(faulty, "Running", "Failed", "PodFailed", "Task main failed", null));
        // Read inside the batch's own transaction: the notices worker cannot claim the notices before they are seen.
        Outcome seen = db(() -> JobStates.moveAll(batch)
                .flatMap(moved -> Sql.rows(
                                "SELECT j.id, j.state, j.state_reason, j.state_message, j.finished_at IS NOT NULL,"
                                        + " (SELECT string_agg(t.to_state || ':' || t.reason || ':'"
                                        + " || COALESCE(CAST(t.args AS text), '-'), ',') FROM job_transitions t"
                                        + " WHERE t.job_id = j.id),"
                                        + " (SELECT string_agg(n.state, ',') FROM job_notices n WHERE n.job_id = j.id),"
                                        + " (SELECT count(*) FROM usage_intervals u WHERE u.job_id = j.id AND u.ended_at IS NULL)"
                                        + " FROM jobs j WHERE j.id IN (?1, ?2, ?3) ORDER BY j.id",
                                queued,
                                stopped,
                                faulty)
                        .map(rows ->
                                new Outcome(moved, rows.stream().map(Seen::of).toList()))));
        assertThat(seen.moved()).containsExactlyInAnyOrder(queued, faulty);
        List<Seen> rows = seen.rows();
        assertThat(rows.get(0))
                .isEqualTo(new Seen(
                        queued,
                        "Admitted",
                        "Admitted",
                        "within the account's quota",
                        false,
                        "Admitted:Admitted:{\"borrowing\": 0}",
                        "Admitted",
                        1));
        assertThat(rows.get(1)).isEqualTo(new Seen(stopped, "Stopped", null, null, false, null, null, 0));
        assertThat(rows.get(2))
                .isEqualTo(new Seen(
                        faulty,
                        "Failed",
                        JobFaults.GPU_FAULT,
                        "GPU 3 on node a100-4 reported XID 79; Task main failed",
                        true,
                        "Failed:PodFailed:-",
                        "Failed",
                        0));
        // The admitted job has no objects: stopped at once, so the repair step never makes them; it holds nothing.
        assertThat(db(() -> JobStates.move(queued, "Admitted", "Stopped", "Stopped", "stopped on request")))
                .isTrue();
        assertThat(db(() -> Sql.count(
                        "SELECT count(*) FROM usage_intervals WHERE job_id = ?1 AND ended_at IS NULL", queued)))
                .isZero();
    }

    /** Which jobs a batch moved, and their rows as it left them. */
    record Outcome(Set<Long> moved, List<Seen> rows) {}

    /** A job row as the batch left it: state, reason, history (to:reason:args), notices, open intervals. */
    record Seen(
            long id,
            String state,
            String reason,
            String message,
            boolean finished,
            String history,
            String notices,
            long openIntervals) {
        static Seen of(Object[] r) {
            return new Seen(
                    Sql.longOf(r[0]),
                    (String) r[1],
                    (String) r[2],
                    (String) r[3],
                    (Boolean) r[4],
                    (String) r[5],
                    (String) r[6],
                    Sql.longOf(r[7]));
        }
    }

    /** A job of flush.bo in the given state, asking for one CPU; its row id. */
    private static long inserted(String state, String gpuFault) throws Throwable {
        String id = JobNames.newPublicId();
        long row = db(() -> Sql.insertReturningId(
                "INSERT INTO jobs (public_id, account_id, user_id, name, kind, state, spec, gpu_fault)"
                        + " SELECT ?1, a.id, u.id, 'cas', 'custom', ?2, '{}',"
                        + " NULLIF(CAST(CAST(?3 AS text) AS jsonb), 'null'::jsonb)"
                        + " FROM accounts a, users u WHERE a.slug = 'flush-cas' AND u.username = 'flush.bo'"
                        + " RETURNING id",
                id,
                state,
                gpuFault == null ? "null" : gpuFault));
        db(() -> Sql.update("INSERT INTO job_requests (job_id, resource, milli) VALUES (?1, 'cpu', 1000)", row));
        return row;
    }
}
