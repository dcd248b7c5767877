package io.crater;

import static org.assertj.core.api.Assertions.assertThat;

import io.crater.boot.EmbeddedDatabase;
import io.crater.kube.KubeClients;
import io.crater.volcano.VolcanoJob;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Two packaged Crater replicas in kubernetes mode against a simulated cluster run by {@code crater sim}, sharing
 * one PostgreSQL. While 80 one-GPU jobs are submitted to both against a quota of 8 GPUs, the replica leading
 * admission is killed with SIGKILL. The other takes the Lease over; usage never exceeds the quota, exactly 8
 * jobs run, each once in the cluster, and the rest wait with their reason. Followers of the job and node events on
 * both replicas miss nothing, the killed replica's resuming on the survivor from its last event id.
 */
class FailoverIT {

    static final int QUOTA = 8;
    static final int JOBS = 80;
    static final String TOPICS = "/api/v1/events?topics=jobs,nodes";

    @Test
    void quotasHoldWhenTheLeaderIsKilledMidBurst() throws Exception {
        Path base = TestDirs.create("crater-failover");
        try (EmbeddedDatabase db = EmbeddedDatabase.start(base.resolve("pg"), base.resolve("pg-work"));
                PackagedApp sim =
                        new PackagedApp(base.resolve("sim"), "sim", Map.of(), "Simulated cluster API: ").start()) {
            String api = sim.lineAfter("Simulated cluster API: ");
            Map<String, String> env = Map.of(
                    "CRATER_DB_URL", db.jdbcUrl(),
                    "CRATER_DB_USER", "postgres",
                    "CRATER_DB_PASSWORD", "postgres",
                    "CRATER_CLUSTER_MODE", "kubernetes",
                    "KUBERNETES_MASTER", api,
                    "KUBERNETES_AUTH_TRYKUBECONFIG", "false",
                    "KUBERNETES_AUTH_TRYSERVICEACCOUNT", "false",
                    // Both replicas settle every 2 s, so the kill lands while settlement runs too.
                    "CRATER_ACCOUNTING_SETTLE_EVERY", "2s");
            try (PackagedApp a = new PackagedApp(base.resolve("a"), "server", env, "Console: http://");
                    PackagedApp b = new PackagedApp(base.resolve("b"), "server", env, "Console: http://")) {
                startTogether(a, b, db);
                String[] admin = (Files.exists(a.home().resolve("initial-admin.txt")) ? a : b).initialAdmin();
                String token = login(a, admin[0], admin[1]);
                setUp(a, token);
                PackagedApp leader = awaitLeader(List.of(a, b), 1, Duration.ofSeconds(60));
                PackagedApp survivor = leader == a ? b : a;
                // Live job and node events followed on both replicas; the leader's follower resumes on the survivor.
                SseFollower ofSurvivor = SseFollower.open(survivor.url() + TOPICS, token, null);
                SseFollower ofLeader = SseFollower.open(leader.url() + TOPICS, token, null);
                // A node cordoned through the leader before the kill (its event may reach the leader's follower or
                // only the resumed one), another through the survivor after it.
                expect(post(leader, "/api/v1/admin/nodes/ascend-0/cordon", token, "{\"reason\":\"before\"}"), 200);
                // A terminal in a running job (the administrator's own, outside fo-lab) through each replica.
                String shell = runningShellJob(a, token);
                JobTerminal termOfSurvivor = JobTerminal.open(survivor.url(), token, shell);
                JobTerminal termOfLeader = JobTerminal.open(leader.url(), token, shell);
                for (JobTerminal t : List.of(termOfSurvivor, termOfLeader)) {
                    t.type("echo \"bef\"ore-kill\r");
                    assertThat(t.shows("before-kill", Duration.ofSeconds(20)))
                            .as("a terminal before the kill: " + t.text())
                            .isTrue();
                }
                String[] members = new String[4];
                for (int i = 0; i < members.length; i++) {
                    members[i] = login(a, "fo.m" + i, "Failover-pass-2026");
                }

                AtomicLong maxUsed = new AtomicLong();
                AtomicBoolean sampling = new AtomicBoolean(true);
                Thread sampler = new Thread(() -> {
                    while (sampling.get()) {
                        try {
                            maxUsed.accumulateAndGet(gpusInUse(db), Math::max);
                            Thread.sleep(50);
                        } catch (Exception e) {
                            // the next sample retries
                        }
                    }
                });
                sampler.start();

                AtomicInteger submitted = new AtomicInteger();
                AtomicInteger retried = new AtomicInteger();
                long killedAt;
                SseFollower resumed;
                ExecutorService pool = Executors.newFixedThreadPool(8);
                try {
                    List<Future<?>> done = new ArrayList<>();
                    for (int i = 0; i < JOBS; i++) {
                        int n = i;
                        done.add(pool.submit(() -> {
                            PackagedApp target = n % 2 == 0 ? a : b;
                            String body = "{\"name\":\"burst-" + n + "\",\"kind\":\"custom\",\"image\":\"busybox\","
                                    + "\"command\":[\"sleep\",\"3600\"],\"resources\":{\"cpu\":\"1\",\"memory\":\"1Gi\","
                                    + "\"acceleratorModel\":\"nvidia-a100-80gb\",\"accelerators\":1}}";
                            for (PackagedApp t : List.of(target, target == a ? b : a)) {
                                try {
                                    // The same key on the retry: a submission that committed on the killed replica
                                    // is answered, not made twice.
                                    HttpResponse<String> r = t.call(
                                            "POST",
                                            "/api/v1/jobs",
                                            members[n % 4],
                                            "fo-lab",
                                            body,
                                            Map.of("Idempotency-Key", "burst-" + n));
                                    if (r.statusCode() == 201 || r.statusCode() == 200) {
                                        submitted.incrementAndGet();
                                        return null;
                                    }
                                    throw new IllegalStateException(r.statusCode() + " " + r.body());
                                } catch (java.io.IOException e) {
                                    retried.incrementAndGet(); // the killed replica: submit to the other
                                }
                            }
                            return null;
                        }));
                        if (i == JOBS / 3) {
                            Thread.sleep(200);
                        }
                    }
                    while (submitted.get() < JOBS / 3) {
                        Thread.sleep(20);
                    }
                    leader.kill9();
                    killedAt = System.nanoTime();
                    resumed = resumeOnSurvivor(ofLeader, survivor, token);
                    expect(post(survivor, "/api/v1/admin/nodes/ascend-1/cordon", token, "{\"reason\":\"after\"}"), 200);
                    terminalsOutliveTheKill(termOfSurvivor, termOfLeader, survivor, token, shell);
                    for (Future<?> f : done) {
                        f.get();
                    }
                } finally {
                    pool.shutdownNow();
                }
                assertThat(submitted.get()).isEqualTo(JOBS);

                awaitLeader(List.of(survivor), 1, Duration.ofSeconds(60));
                long takeoverMs = (System.nanoTime() - killedAt) / 1_000_000;
                long deadline = System.currentTimeMillis() + 90_000;
                while (countActive(db) < QUOTA && System.currentTimeMillis() < deadline) {
                    Thread.sleep(200);
                }
                long admittedMs = (System.nanoTime() - killedAt) / 1_000_000;
                // A few more rounds: nothing else may be admitted.
                Thread.sleep(6_000);
                sampling.set(false);
                sampler.join();

                assertThat(maxUsed.get()).as("GPUs in use at any sample").isLessThanOrEqualTo(QUOTA * 1000L);
                assertThat(countActive(db)).isEqualTo(QUOTA);
                // A submission whose answer was lost with the killed replica may have committed there before it was
                // retried on the other; its idempotency key makes the retry answer that job: one row per submission.
                // Every job beyond the 8 waits for quota.
                long total = count(db, "SELECT count(*) FROM jobs WHERE name LIKE 'burst-%'");
                assertThat(total).isEqualTo(JOBS);
                assertThat(
                                count(
                                        db,
                                        "SELECT count(*) FROM jobs WHERE state = 'Queued' AND reasons::text LIKE '%AccountQuotaExceeded%'"))
                        .isEqualTo(total - QUOTA);
                assertThat(count(db, "SELECT epoch FROM leader_epochs WHERE name = 'admission'"))
                        .isGreaterThanOrEqualTo(2);
                settledExactlyOnce(db);
                Map<String, String> finals = finalStates(db);
                List<SseFollower.Event> acrossTheKill = new ArrayList<>(ofLeader.events);
                acrossTheKill.addAll(resumed.events);
                assertThat(resumed.named("reset"))
                        .as("resumed where it stopped, on the other replica")
                        .isEmpty();
                seesEveryFinalState("the survivor's follower", ofSurvivor, ofSurvivor.events, finals);
                seesEveryFinalState("the follower that resumed", resumed, acrossTheKill, finals);
                seesCordons("the survivor's follower", () -> ofSurvivor.events);
                seesCordons("the follower that resumed", () -> {
                    List<SseFollower.Event> all = new ArrayList<>(ofLeader.events);
                    all.addAll(resumed.events);
                    return all;
                });
                ofSurvivor.close();
                resumed.close();
                try (KubernetesClient k8s = KubeClients.forUrl(api)) {
                    List<VolcanoJob> created = k8s.resources(VolcanoJob.class)
                            .inNamespace("crater-jobs")
                            .list()
                            .getItems();
                    assertThat(created).as("fo-lab's 8 and the shell's").hasSize(QUOTA + 1);
                }
                System.out.printf(
                        "failover: %d submissions (%d retried on the other replica after the kill); new leader %d ms"
                                + " after the kill; %d jobs admitted %d ms after the kill; max GPUs in use %d%n",
                        submitted.get(), retried.get(), takeoverMs, QUOTA, admittedMs, maxUsed.get() / 1000);
            }
        }
    }

    /** A CPU-only job of the administrator's that runs a shell for half an hour; its id once it runs. */
    static String runningShellJob(PackagedApp app, String token) throws Exception {
        HttpResponse<String> r = app.call(
                "POST",
                "/api/v1/jobs",
                token,
                null,
                "{\"name\":\"shell\",\"kind\":\"custom\",\"image\":\"python:3.12\",\"command\":[\"sleep\",\"infinity\"],"
                        + "\"env\":{\"SIM_DURATION\":\"30m\"},\"resources\":{\"cpu\":\"1\",\"memory\":\"1Gi\"}}");
        expect(r, 201);
        String id = new io.vertx.core.json.JsonObject(r.body()).getString("id");
        long deadline = System.currentTimeMillis() + 60_000;
        String seen = null;
        while (System.currentTimeMillis() < deadline) {
            HttpResponse<String> job = app.call("GET", "/api/v1/jobs/" + id, token, null, null);
            seen = job.statusCode() + " " + job.body();
            if (job.statusCode() == 200
                    && "Running"
                            .equals(new io.vertx.core.json.JsonObject(job.body())
                                    .getJsonObject("job")
                                    .getString("state"))) {
                return id;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("the shell job did not run within 60 s: " + seen);
    }

    /**
     * The survivor's terminal goes on as if nothing happened; the killed replica's ends, and opening it again on
     * the survivor gives a working shell.
     */
    static void terminalsOutliveTheKill(
            JobTerminal ofSurvivor, JobTerminal ofLeader, PackagedApp survivor, String token, String shell)
            throws Exception {
        ofSurvivor.type("echo \"sur\"vivor-goes-on\r");
        assertThat(ofSurvivor.shows("survivor-goes-on", Duration.ofSeconds(20)))
                .as("the survivor's terminal after the kill: " + ofSurvivor.text())
                .isTrue();
        ofLeader.ended.get(30, java.util.concurrent.TimeUnit.SECONDS);
        JobTerminal reopened = JobTerminal.open(survivor.url(), token, shell);
        reopened.type("echo \"re\"opened-on-the-survivor\r");
        assertThat(reopened.shows("reopened-on-the-survivor", Duration.ofSeconds(20)))
                .as("the killed replica's terminal opened again on the survivor: " + reopened.text())
                .isTrue();
        reopened.close();
        ofSurvivor.close();
    }

    /** Once the killed replica's stream has ended, reconnects to the survivor from the last id it saw. */
    static SseFollower resumeOnSurvivor(SseFollower ofLeader, PackagedApp survivor, String token) throws Exception {
        long deadline = System.currentTimeMillis() + 30_000;
        while (!ofLeader.ended && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
        assertThat(ofLeader.ended).as("the killed replica's stream ended").isTrue();
        String last = null;
        for (SseFollower.Event e : ofLeader.events) {
            if (e.id() != null) {
                last = e.id();
            }
        }
        assertThat(last).as("events seen before the kill").isNotNull();
        return SseFollower.open(survivor.url() + TOPICS, token, last);
    }

    /** Both cordons reached the follower as node events: the one before the kill and the one after it. */
    static void seesCordons(String who, java.util.function.Supplier<List<SseFollower.Event>> events) throws Exception {
        long deadline = System.currentTimeMillis() + 15_000;
        java.util.Set<String> cordoned = new java.util.TreeSet<>();
        while (cordoned.size() < 2 && System.currentTimeMillis() < deadline) {
            for (SseFollower.Event e : events.get()) {
                if (e.name().equals("node") && !e.json().getBoolean("node.schedulable")) {
                    cordoned.add(e.json().getString("node.name"));
                }
            }
            Thread.sleep(200);
        }
        assertThat(cordoned).as(who + ": nodes seen cordoned").contains("ascend-0", "ascend-1");
    }

    static Map<String, String> finalStates(EmbeddedDatabase db) throws Exception {
        Map<String, String> out = new java.util.HashMap<>();
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), "postgres", "postgres");
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT public_id, state FROM jobs WHERE name LIKE 'burst-%'")) {
            while (rs.next()) {
                out.put(rs.getString(1), rs.getString(2));
            }
        }
        return out;
    }

    /**
     * A follower missed nothing: its ids only grow, and for every job the last event it got shows the state the job
     * ended in (waited for a moment: the log is read a little after the last commit).
     */
    static void seesEveryFinalState(
            String who, SseFollower follower, List<SseFollower.Event> events, Map<String, String> finals)
            throws Exception {
        long deadline = System.currentTimeMillis() + 15_000;
        Map<String, String> wrong = lastStates(events, finals);
        while (!wrong.isEmpty() && System.currentTimeMillis() < deadline) {
            Thread.sleep(200);
            events = new ArrayList<>(events);
            for (SseFollower.Event e : follower.events) {
                if (!events.contains(e)) {
                    events.add(e);
                }
            }
            wrong = lastStates(events, finals);
        }
        assertThat(wrong)
                .as(who + ": jobs whose last event is not their final state")
                .isEmpty();
        io.crater.events.EventPosition previous = null;
        for (SseFollower.Event e : events) {
            if (e.id() != null) {
                io.crater.events.EventPosition at = io.crater.events.EventPosition.parse(e.id());
                assertThat(at).as(who + ": event id " + e.id()).isNotNull();
                if (previous != null) {
                    assertThat(at.after(previous))
                            .as(who + ": ids grow, " + previous + " then " + at)
                            .isTrue();
                }
                previous = at;
            }
        }
    }

    /** The jobs whose last event in {@code events} is missing or not their final state, with what was seen. */
    static Map<String, String> lastStates(List<SseFollower.Event> events, Map<String, String> finals) {
        Map<String, String> last = new java.util.HashMap<>();
        for (SseFollower.Event e : events) {
            if (e.name().equals("job")) {
                last.put(e.json().getString("id"), e.json().getString("state"));
            }
        }
        Map<String, String> wrong = new java.util.TreeMap<>();
        finals.forEach((id, state) -> {
            if (!state.equals(last.get(id))) {
                wrong.put(id, "final " + state + ", last seen " + last.get(id));
            }
        });
        return wrong;
    }

    /**
     * Both replicas start at the same moment on the empty database: Flyway migrates under its PostgreSQL lock, so
     * one applies every migration and the other finds them applied, and exactly one creates the administrator.
     */
    static void startTogether(PackagedApp a, PackagedApp b, EmbeddedDatabase db) throws Exception {
        ExecutorService starters = Executors.newFixedThreadPool(2);
        try {
            Future<PackagedApp> first = starters.submit(a::start);
            Future<PackagedApp> second = starters.submit(b::start);
            first.get();
            second.get();
        } finally {
            starters.shutdownNow();
        }
        assertThat(count(db, "SELECT count(*) FROM flyway_schema_history WHERE NOT success"))
                .isZero();
        assertThat(count(
                        db,
                        "SELECT count(*) FROM (SELECT version FROM flyway_schema_history WHERE version IS NOT NULL"
                                + " GROUP BY version HAVING count(*) > 1) AS twice"))
                .as("migrations applied twice")
                .isZero();
        assertThat(count(db, "SELECT count(*) FROM users"))
                .as("administrators created")
                .isEqualTo(1);
        assertThat(Files.exists(a.home().resolve("initial-admin.txt"))
                        ^ Files.exists(b.home().resolve("initial-admin.txt")))
                .as("one replica hands out the first login")
                .isTrue();
    }

    /**
     * Every interval is charged exactly its cost up to where it was charged, the ledger holds exactly those charges
     * (none twice, none lost, across the replicas and the kill), and every balance is the sum of its entries.
     */
    static void settledExactlyOnce(EmbeddedDatabase db) throws Exception {
        // The survivor keeps settling while this reads: every figure comes from one snapshot, or a run committed
        // between two reads would put charges in the ledger that the intervals read before it do not show yet.
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), "postgres", "postgres")) {
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            c.setAutoCommit(false);
            settledExactlyOnce(c);
            c.rollback();
        }
    }

    private static void settledExactlyOnce(Connection c) throws Exception {
        long runs = count(c, "SELECT runs FROM settlement_state");
        assertThat(runs).as("settlement runs").isGreaterThanOrEqualTo(3);
        long intervals = 0;
        long charged = 0;
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT u.milli, u.started_at, u.charged_until, u.charged_micros,"
                        + " p.effective_from FROM usage_intervals u, prices p WHERE u.resource = 'nvidia-a100-80gb'"
                        + " AND p.resource = u.resource")) {
            while (rs.next()) {
                intervals++;
                java.time.Instant from = rs.getTimestamp(2).toInstant();
                java.time.Instant priced = rs.getTimestamp(5).toInstant();
                io.crater.policy.PriceBook real = new io.crater.policy.PriceBook(
                        List.of(new io.crater.policy.PriceBook.Price("nvidia-a100-80gb", 2_500_000, priced)));
                long cost = io.crater.policy.Settlement.cumulative(
                        new io.crater.policy.Settlement.Holding("nvidia-a100-80gb", rs.getLong(1)),
                        from,
                        rs.getTimestamp(3).toInstant(),
                        real,
                        1000);
                assertThat(rs.getLong(4)).as("an interval's charge").isEqualTo(cost);
                charged += cost;
            }
        }
        assertThat(intervals).as("A100 intervals").isEqualTo(QUOTA);
        assertThat(charged).as("what the jobs held cost").isPositive();
        long gpuShare = count(
                c, "SELECT COALESCE(sum(charged_micros), 0) FROM usage_intervals WHERE resource <> 'nvidia-a100-80gb'");
        assertThat(count(
                        c,
                        "SELECT -COALESCE(sum(amount_micros), 0) FROM ledger_entries WHERE book LIKE 'account:%'"
                                + " AND kind IN ('charge', 'refund')"))
                .as("the ledger's charges")
                .isEqualTo(charged + gpuShare);
        assertThat(count(
                        c,
                        "SELECT count(*) FROM ledger_balances b WHERE balance <> (SELECT COALESCE(sum(amount_micros), 0)"
                                + " FROM ledger_entries e WHERE e.book = b.book)"))
                .as("balances that are not the sum of their entries")
                .isZero();
        assertThat(count(c, "SELECT COALESCE(sum(balance), 0) FROM ledger_balances"))
                .isZero();
    }

    static long gpusInUse(EmbeddedDatabase db) throws Exception {
        return count(
                db,
                "SELECT COALESCE(sum(r.milli), 0) FROM jobs j JOIN job_requests r ON r.job_id = j.id"
                        + " WHERE r.resource = 'nvidia-a100-80gb' AND j.state IN ('Admitted', 'Pending', 'Running', 'Stopping')");
    }

    static long countActive(EmbeddedDatabase db) throws Exception {
        return count(
                db,
                "SELECT count(*) FROM jobs WHERE name LIKE 'burst-%'"
                        + " AND state IN ('Admitted', 'Pending', 'Running', 'Stopping')");
    }

    static long count(Connection c, String sql) throws Exception {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    static long count(EmbeddedDatabase db, String sql) throws Exception {
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), "postgres", "postgres");
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Waits until one of the apps has logged taking the lead {@code times} times; returns it. */
    static PackagedApp awaitLeader(List<PackagedApp> apps, int times, Duration within) throws InterruptedException {
        long deadline = System.currentTimeMillis() + within.toMillis();
        while (System.currentTimeMillis() < deadline) {
            for (PackagedApp app : apps) {
                if (app.alive()
                        && app.output().stream()
                                        .filter(l -> l.contains("admission: leading with epoch"))
                                        .count()
                                >= times) {
                    return app;
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no replica took the lead within " + within);
    }

    /** The account fo-lab with a quota of 8 A100s and four members. */
    static void setUp(PackagedApp app, String token) throws Exception {
        expect(post(app, "/api/v1/accounts", token, "{\"slug\":\"fo-lab\",\"name\":\"Failover Lab\"}"), 201);
        expect(
                put(
                        app,
                        "/api/v1/accounts/fo-lab/quota",
                        token,
                        "{\"items\":[{\"resource\":\"nvidia-a100-80gb\",\"guaranteed\":\"8\",\"max\":\"8\"},"
                                + "{\"resource\":\"cpu\",\"guaranteed\":\"200\",\"max\":\"200\"},"
                                + "{\"resource\":\"memory\",\"guaranteed\":\"1Ti\",\"max\":\"1Ti\"}]}"),
                200);
        expect(
                post(
                        app,
                        "/api/v1/accounting/prices",
                        token,
                        "{\"resource\":\"nvidia-a100-80gb\",\"pricePerHour\":\"2.5\"}"),
                201);
        for (int i = 0; i < 4; i++) {
            expect(
                    post(
                            app,
                            "/api/v1/users",
                            token,
                            "{\"username\":\"fo.m" + i + "\",\"displayName\":\"m" + i
                                    + "\",\"password\":\"Failover-pass-2026\"}"),
                    201);
            expect(put(app, "/api/v1/accounts/fo-lab/members/fo.m" + i, token, "{\"role\":\"member\"}"), 200);
        }
    }

    static String login(PackagedApp app, String user, String password) throws Exception {
        return app.login(user, password);
    }

    static void expect(HttpResponse<String> r, int status) {
        assertThat(r.statusCode()).as(r.uri() + ": " + r.body()).isEqualTo(status);
    }

    static HttpResponse<String> post(PackagedApp app, String path, String token, String json) throws Exception {
        return send(app, path, token, "POST", json);
    }

    static HttpResponse<String> put(PackagedApp app, String path, String token, String json) throws Exception {
        return send(app, path, token, "PUT", json);
    }

    static HttpResponse<String> send(PackagedApp app, String path, String token, String method, String json)
            throws Exception {
        return app.call(method, path, token, path.equals("/api/v1/jobs") ? "fo-lab" : null, json);
    }
}
