package io.crater.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.crater.CraterTestResource;
import io.crater.sim.apiserver.InProcessApiServer;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Kueue's scheduler performance trace ({@link KueueTrace}) replayed against Crater through its HTTP API, on the
 * simulated cluster (run by {@code make bench} and {@code make bench-large}, never by {@code make test}). It prints
 * figures beside Kueue's and asserts only that every job ends, nothing about time.
 * {@code -Dtrace=baseline|large-scale} picks the trace, {@code -Dtrace.scale=0.1} keeps that fraction of its queues.
 *
 * <p>Mapping: each Kueue ClusterQueue is a team account {@code kq-<n>} with CPU guaranteed = nominal quota (20) and
 * max = nominal + borrowingLimit (120), memory plentiful, and one user {@code kq.<n>}, the account's admin (so it may
 * submit {@code high}). Workload classes are priorities: small = low, medium = normal, large = high. A workload of
 * request r is a one-pod {@code custom} job with {@code resources.cpu} = r, 64Mi, {@code SIM_DURATION} = its runtime
 * and a time limit of 5 s ({@link #TIME_LIMIT}). The fleet's allocatable CPU equals the trace's Σ nominal quota; the
 * simulated cluster ticks every 0.05 s and starts a bound pod at once.
 *
 * <p>Not replicated: cohorts (a Crater account borrows from the whole cluster, not from its cohort of 6 or 100),
 * Kueue's preemption within a queue ({@code LowerPriority}) and {@code reclaimWithinCohort}. Crater's own reclaim
 * (cluster-wide, for an account within its guarantee) is narrowed with {@code crater.jobs.reclaim-min-run-time=1h} to
 * admitted jobs whose pods have not started yet, since a reclaimed job ends Stopped and is not queued again
 * ({@code -Dtrace.reclaim=true} keeps Crater's default); the bench counts them. Kueue's minimalkueue admits workloads
 * that have no pods; here each job becomes a Volcano Job, PodGroup and pod in the simulated cluster and frees its
 * quota only when the reconciler sees it end, so every runtime includes that pipeline.
 */
@QuarkusTest
@TestProfile(TraceBench.Profile.class)
class TraceBench {

    static final String PW = "Trace-pass-2026";
    static final int CLIENTS = 32;
    static final int ESTIMATE_EVERY = 100;
    /**
     * The jobs' time limit ({@code -Dtrace.time-limit}), 5 s by default. It feeds the start estimates, which take
     * running jobs to run to it. The simulated kubelet ends a container at its run time when that comes before its
     * deadline, however late it looks at the pod, so a job the trace gives less time than its limit ends
     * {@code Succeeded}. The end states show how each ended.
     */
    static final String TIME_LIMIT = System.getProperty("trace.time-limit", "5s");

    static final List<String> CLASSES = List.of("small", "medium", "large");
    static final Map<String, String> PRIORITY = Map.of("small", "low", "medium", "normal", "large", "high");

    /** Kueue's measured means (minimalkueue), from the comments of its rangespec files. */
    record KueueFigures(double wallMs, double usagePercent, Map<String, Long> avgTimeToAdmissionMs) {}

    static final Map<String, KueueFigures> KUEUE = Map.of(
            // 5 runs: wall 351,116.4 ms; usage 55.9 %; time to admission large 16,501, medium 76,768, small 215,468 ms.
            "baseline",
            new KueueFigures(351_116.4, 55.9, Map.of("small", 215_468L, "medium", 76_768L, "large", 16_501L)),
            // 19 runs: wall 1,179,411 ms; usage 38.64 %; large 105,604, medium 256,413, small 700,379 ms.
            "large-scale",
            new KueueFigures(1_179_411, 38.64, Map.of("small", 700_379L, "medium", 256_413L, "large", 105_604L)));

    /** Its own Crater: the trace's fleet and pace, no global test resource, running jobs never reclaimed. */
    public static class Profile implements QuarkusTestProfile {
        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(TraceTestResource.class));
        }

        @Override
        public boolean disableGlobalTestResources() {
            return true;
        }

        @Override
        public Map<String, String> getConfigOverrides() {
            return reclaim() ? Map.of() : Map.of("crater.jobs.reclaim-min-run-time", "1h");
        }
    }

    static String traceName() {
        String name = System.getProperty("trace", "baseline");
        if (!KUEUE.containsKey(name)) {
            throw new IllegalArgumentException("-Dtrace must be baseline or large-scale, not " + name);
        }
        return name;
    }

    static double scale() {
        return Double.parseDouble(System.getProperty("trace.scale", "1.0"));
    }

    static boolean reclaim() {
        return Boolean.getBoolean("trace.reclaim");
    }

    /** The trace this run replays. */
    static KueueTrace trace() {
        return KueueTrace.load(traceName()).keep(scale());
    }

    /** A job row as the benchmark reads it back. */
    record Row(
            String state,
            String reason,
            String message,
            Instant created,
            Instant admitted,
            Instant started,
            Instant finished) {}

    /** A start estimate asked for right after submission. */
    record Estimate(int workload, String state, Instant startBy, String unknown) {}

    @TestHTTPResource("/")
    URL base;

    final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
    final ObjectMapper json = new ObjectMapper();

    KueueTrace trace;
    Instant t0;
    long t0Nanos;
    AtomicLongArray sent;
    AtomicLongArray accepted;
    AtomicReferenceArray<String> ids;
    AtomicReferenceArray<String> errors;
    final List<Estimate> estimates = Collections.synchronizedList(new ArrayList<>());

    @Test
    void replay() throws Exception {
        trace = trace();
        printSetting();
        String[] tokens = setUp();
        InProcessApiServer.Stats before = CraterTestResource.simulator().apiServerStats();
        TraceStages stages = Boolean.getBoolean("trace.stages")
                ? new TraceStages(CraterTestResource.simulator().url(), clusterConfig.namespace())
                : null;
        replay(tokens);
        Instant end = awaitEnd();
        if (stages != null) {
            stages.close();
        }
        InProcessApiServer.Stats after = CraterTestResource.simulator().apiServerStats();
        double seconds = (System.nanoTime() - t0Nanos) / 1e9;
        Map<String, Row> rows = rows();
        printReplay();
        printAdmission(rows, end);
        printEnds(rows);
        if (stages != null) {
            printStages(rows, stages);
        }
        printEstimates(rows);
        System.out.printf(
                "trace simulated cluster's API server: %d requests in %.1f s from the replay's start to the end ="
                        + " %.0f/s; busy serving them %.0f %% of that time%n",
                after.requests() - before.requests(),
                seconds,
                (after.requests() - before.requests()) / seconds,
                (after.busyNanos() - before.busyNanos()) / 1e7 / seconds);
        printHeap(after);
        if (end != null) {
            throw new AssertionError("not every job of the trace ended; see the 'trace' lines above");
        }
    }

    /** The heap this JVM (Crater, the simulated cluster, the benchmark) keeps at the end, after a full collection. */
    static void printHeap(InProcessApiServer.Stats stats) {
        System.gc();
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        System.out.printf(
                "trace heap at the end after a full collection: %d MiB of %d MiB (Crater, the simulated cluster and the"
                        + " benchmark in one JVM); the simulated API server holds %d objects%n",
                heap.getUsed() >> 20, heap.getMax() >> 20, stats.objects());
    }

    void printSetting() {
        String name = traceName();
        System.out.printf(
                "trace machine: %d cores, JVM %s, max heap %d MiB%n",
                Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version"),
                Runtime.getRuntime().maxMemory() >> 20);
        Map<String, Long> byClass = trace.countByClass();
        Map<Long, Integer> perSecond = new TreeMap<>();
        trace.workloads().forEach(w -> perSecond.merge(w.createdAtMs() / 1000, 1, Integer::sum));
        System.out.printf(
                "trace kueue %s at scale %s: %d queues in %d cohort(s), %d workloads (small %d, medium %d, large %d)"
                        + " created over %.1f s, at most %d in one second; lower limit %.1f s%n",
                name,
                BigDecimal.valueOf(scale()).stripTrailingZeros().toPlainString(),
                trace.queues().size(),
                trace.cohorts(),
                trace.workloads().size(),
                byClass.getOrDefault("small", 0L),
                byClass.getOrDefault("medium", 0L),
                byClass.getOrDefault("large", 0L),
                trace.lastCreationMs() / 1000.0,
                perSecond.values().stream().mapToInt(Integer::intValue).max().orElse(0),
                trace.lowerLimitMs() / 1000.0);
        System.out.printf(
                "trace mapping: ClusterQueue → account kq-<n> (cpu guaranteed 20, max 120) with one admin;"
                        + " small/medium/large → priority low/normal/high; workload → one-pod custom job"
                        + " (cpu = request, 64Mi, SIM_DURATION = runtime, time limit %s); fleet %d CPU allocatable"
                        + " = Σ nominal quota;"
                        + " simulated tick 0.05 s, pod start 0 s; %d HTTP clients%n",
                TIME_LIMIT, trace.nominalMilli() / 1000, CLIENTS);
        System.out.printf(
                "trace not replicated: cohorts (accounts borrow from the whole cluster), Kueue's preemption within a"
                        + " queue (LowerPriority) and reclaimWithinCohort (%s); minimalkueue admits workloads without"
                        + " pods, Crater runs each job's Volcano Job, PodGroup and pod and frees its quota when the"
                        + " reconciler sees it end%n",
                reclaim()
                        ? "Crater's reclaim at its defaults: reclaimed jobs end Stopped and are not queued again"
                        : "Crater's reclaim only of jobs not yet running: crater.jobs.reclaim-min-run-time=1h;"
                                + " reclaimed jobs end Stopped and are not queued again");
        if (scale() < 1) {
            System.out.printf(
                    "trace note: Kueue's figures below are for the whole %s trace; this run keeps %d of its"
                            + " queues%n",
                    name, trace.queues().size());
        }
    }

    /** Accounts, users and their tokens, one per queue. */
    String[] setUp() throws Exception {
        String[] admin = CraterTestResource.initialAdmin();
        String adminToken = login(admin[0], admin[1]);
        List<KueueTrace.Queue> queues = trace.queues();
        parallel(4, queues.size(), n -> {
            KueueTrace.Queue q = queues.get(n);
            String user = "kq." + n;
            String slug = "kq-" + n;
            String max = milli(q.nominalMilli() + q.borrowingLimitMilli());
            List<Map<String, String>> quota = List.of(
                    Map.of("resource", "cpu", "guaranteed", milli(q.nominalMilli()), "max", max),
                    Map.of("resource", "memory", "guaranteed", "1Ti", "max", "1Ti"));
            Map<String, String> newUser = Map.of("username", user, "displayName", user, "password", PW);
            expect(call(adminToken, null, "POST", "/api/v1/users", newUser), 201);
            expect(call(adminToken, null, "POST", "/api/v1/accounts", Map.of("slug", slug, "name", slug)), 201);
            expect(call(adminToken, null, "PUT", "/api/v1/accounts/" + slug + "/quota", Map.of("items", quota)), 200);
            String member = "/api/v1/accounts/" + slug + "/members/" + user;
            expect(call(adminToken, null, "PUT", member, Map.of("role", "admin")), 200);
        });
        String[] tokens = new String[queues.size()];
        parallel(4, queues.size(), n -> tokens[n] = login("kq." + n, PW));
        return tokens;
    }

    /** Submits every workload at its creation time, from a pool of clients; the schedule runs on this thread. */
    void replay(String[] tokens) throws Exception {
        List<KueueTrace.Workload> workloads = trace.workloads();
        int n = workloads.size();
        sent = new AtomicLongArray(n);
        accepted = new AtomicLongArray(n);
        ids = new AtomicReferenceArray<>(n);
        errors = new AtomicReferenceArray<>(n);
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        t0 = Instant.now();
        t0Nanos = System.nanoTime();
        for (int i = 0; i < n; i++) {
            KueueTrace.Workload w = workloads.get(i);
            long wait;
            while ((wait = t0Nanos + w.createdAtMs() * 1_000_000 - System.nanoTime()) > 0) {
                LockSupport.parkNanos(wait);
            }
            int index = i;
            pool.execute(() -> submit(index, w, tokens[w.queue()]));
        }
        pool.shutdown();
        if (!pool.awaitTermination(1, TimeUnit.HOURS)) {
            throw new IllegalStateException("submissions did not end within an hour");
        }
    }

    void submit(int i, KueueTrace.Workload w, String token) {
        Map<String, Object> job = new LinkedHashMap<>();
        job.put("name", w.name());
        job.put("kind", "custom");
        job.put("image", "busybox");
        job.put("command", List.of("true"));
        String runtime =
                BigDecimal.valueOf(w.runtimeMs(), 3).stripTrailingZeros().toPlainString() + "s";
        job.put("env", Map.of("SIM_DURATION", runtime));
        job.put("resources", Map.of("cpu", milli(w.requestMilli()), "memory", "64Mi"));
        job.put("timeLimit", TIME_LIMIT);
        job.put("priority", PRIORITY.get(w.className()));
        try {
            sent.set(i, System.nanoTime());
            HttpResponse<String> r = call(token, "kq-" + w.queue(), "POST", "/api/v1/jobs", job);
            long at = System.nanoTime();
            if (r.statusCode() != 201) {
                errors.set(i, r.statusCode() + " " + r.body());
                return;
            }
            accepted.set(i, at);
            JsonNode body = json.readTree(r.body());
            ids.set(i, body.path("id").asText());
            if (i % ESTIMATE_EVERY == 0 && "Queued".equals(body.path("state").asText())) {
                estimate(i, body.path("id").asText(), token, "kq-" + w.queue());
            }
        } catch (Exception e) {
            errors.set(i, e.toString());
        }
    }

    void estimate(int i, String id, String token, String account) throws Exception {
        HttpResponse<String> r = call(token, account, "GET", "/api/v1/jobs/" + id + "/wait", null);
        if (r.statusCode() != 200) {
            estimates.add(new Estimate(i, "HTTP " + r.statusCode(), null, null));
            return;
        }
        JsonNode wait = json.readTree(r.body());
        JsonNode e = wait.path("estimate");
        JsonNode startBy = e.path("startBy");
        estimates.add(new Estimate(
                i,
                wait.path("state").asText(),
                startBy.isNumber()
                        ? Instant.ofEpochMilli(Math.round(startBy.asDouble() * 1000))
                        : startBy.isTextual() ? Instant.parse(startBy.asText()) : null,
                e.path("unknown").path("code").asText(null)));
    }

    /**
     * Waits until every job of the kq- accounts has ended (deadline: 20 × the lower limit + 10 min; or 5 min in which
     * no job ends); returns null when they all ended, else the moment it gave up.
     */
    Instant awaitEnd() throws Exception {
        // -Dtrace.patience=<seconds> replaces the default wait (20 × the lower limit + 10 min) after the submissions.
        long patience = Long.getLong("trace.patience", (20 * (long) trace.lowerLimitMs() + 600_000) / 1000);
        long deadline = System.currentTimeMillis() + patience * 1000;
        String open = "FROM jobs j JOIN accounts a ON a.id = j.account_id WHERE a.slug LIKE 'kq-%'"
                + " AND j.state NOT IN ('Succeeded', 'Failed', 'Stopped', 'Rejected')";
        long left = -1;
        long lastPrint = 0;
        long lastChange = 0;
        while (true) {
            long now = io.crater.Db.count("SELECT count(*) " + open);
            long at = System.currentTimeMillis();
            if (now != left) {
                lastChange = at;
                left = now;
            }
            if (left == 0) {
                return null;
            }
            String why = at > deadline
                    ? "DEADLINE PASSED"
                    : at - lastChange > 300_000 ? "STALLED (no job ended for 5 min)" : null;
            if (why != null) {
                Map<String, Long> states = new TreeMap<>();
                try (Connection c = io.crater.Db.connection();
                        Statement s = c.createStatement();
                        ResultSet rs = s.executeQuery("SELECT j.state, count(*) " + open + " GROUP BY j.state")) {
                    while (rs.next()) {
                        states.put(rs.getString(1), rs.getLong(2));
                    }
                }
                System.out.printf("trace %s: %d jobs had not ended: %s%n", why, left, states);
                return Instant.now();
            }
            if (at - lastPrint > 30_000) {
                System.out.printf("waiting: %d jobs not ended%n", left);
                lastPrint = at;
            }
            Thread.sleep(1000);
        }
    }

    /** Every job of the kq- accounts, by id. */
    Map<String, Row> rows() throws Exception {
        Map<String, Row> out = new HashMap<>();
        try (Connection c = io.crater.Db.connection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(
                        "SELECT j.public_id, j.state, j.state_reason, j.created_at, j.admitted_at, j.started_at,"
                                + " j.finished_at, j.state_message FROM jobs j JOIN accounts a ON a.id = j.account_id"
                                + " WHERE a.slug LIKE 'kq-%'")) {
            while (rs.next()) {
                out.put(
                        rs.getString(1),
                        new Row(
                                rs.getString(2),
                                rs.getString(3),
                                rs.getString(8),
                                instant(rs, 4),
                                instant(rs, 5),
                                instant(rs, 6),
                                instant(rs, 7)));
            }
        }
        return out;
    }

    void printReplay() {
        int n = trace.workloads().size();
        List<Double> latency = new ArrayList<>();
        List<Double> lag = new ArrayList<>();
        Map<String, Integer> failures = new TreeMap<>();
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (int i = 0; i < n; i++) {
            if (errors.get(i) != null) {
                String e = errors.get(i);
                failures.merge(e.length() > 160 ? e.substring(0, 160) : e, 1, Integer::sum);
                continue;
            }
            first = Math.min(first, sent.get(i));
            last = Math.max(last, accepted.get(i));
            latency.add((accepted.get(i) - sent.get(i)) / 1e6);
            long scheduled = t0Nanos + trace.workloads().get(i).createdAtMs() * 1_000_000;
            lag.add((accepted.get(i) - scheduled) / 1e6);
        }
        double span = (last - first) / 1e9;
        System.out.printf(
                "trace submissions: %d of %d accepted in %.1f s = %.0f/s from %d clients; latency p50 %.0f ms,"
                        + " p99 %.0f ms; behind the trace's schedule (accepted − created) p50 %.0f ms, p99 %.0f ms,"
                        + " max %.0f ms%n",
                latency.size(),
                n,
                span,
                latency.size() / span,
                CLIENTS,
                ApiBench.pct(latency, 50),
                ApiBench.pct(latency, 99),
                ApiBench.pct(lag, 50),
                ApiBench.pct(lag, 99),
                ApiBench.pct(lag, 100));
        if (scale() == 1) {
            Report.figure("trace." + traceName() + ".submissions.rate", latency.size() / span);
            Report.figure("trace." + traceName() + ".submissions.p99", ApiBench.pct(latency, 99));
        }
        if (!failures.isEmpty()) {
            System.out.printf("trace submissions refused or failed: %s%n", failures);
        }
    }

    void printAdmission(Map<String, Row> rows, Instant deadlineEnd) {
        KueueFigures kueue = KUEUE.get(traceName());
        Instant start = t0.plusNanos(firstSent() - t0Nanos);
        Instant end = deadlineEnd != null
                ? deadlineEnd
                : rows.values().stream()
                        .map(Row::finished)
                        .filter(f -> f != null)
                        .max(Instant::compareTo)
                        .orElse(start);
        double wallMs = Duration.between(start, end).toMillis();
        double lower = trace.lowerLimitMs();
        System.out.printf(
                "trace wall: %.1f s from the first submission to %s = %.2f × the lower limit (%.1f s);"
                        + " Kueue %.1f s = %.2f ×%n",
                wallMs / 1000,
                deadlineEnd == null ? "the last job's end" : "giving up (NOT every job ended)",
                wallMs / lower,
                lower / 1000,
                kueue.wallMs() / 1000,
                kueue.wallMs() / lower);
        if (scale() == 1 && deadlineEnd == null) {
            Report.figure("trace." + traceName() + ".wall", wallMs / 1000);
            Report.figure("trace." + traceName() + ".lower", lower / 1000);
        }
        Map<String, List<Double>> toAdmit = new TreeMap<>();
        Map<String, List<Double>> fromSchedule = new TreeMap<>();
        Map<String, List<Double>> held = new TreeMap<>();
        Map<String, List<Double>> ran = new TreeMap<>();
        Map<Integer, Double> usedMilliMs = new TreeMap<>();
        List<Instant> admissions = new ArrayList<>();
        for (int i = 0; i < trace.workloads().size(); i++) {
            KueueTrace.Workload w = trace.workloads().get(i);
            Row r = ids.get(i) == null ? null : rows.get(ids.get(i));
            if (r == null || r.admitted() == null) {
                continue;
            }
            admissions.add(r.admitted());
            toAdmit.computeIfAbsent(w.className(), k -> new ArrayList<>()).add(ms(r.created(), r.admitted()));
            fromSchedule
                    .computeIfAbsent(w.className(), k -> new ArrayList<>())
                    .add(ms(t0.plusMillis(w.createdAtMs()), r.admitted()));
            Instant until = r.finished() == null ? end : r.finished();
            held.computeIfAbsent(w.className(), k -> new ArrayList<>()).add(ms(r.admitted(), until));
            if (r.started() != null && r.finished() != null) {
                ran.computeIfAbsent(w.className(), k -> new ArrayList<>()).add(ms(r.started(), r.finished()));
            }
            Instant from = r.admitted().isBefore(start) ? start : r.admitted();
            Instant to = until.isAfter(end) ? end : until;
            if (to.isAfter(from)) {
                usedMilliMs.merge(w.queue(), (double) w.requestMilli() * ms(from, to), Double::sum);
            }
        }
        printClasses(toAdmit, fromSchedule, held, ran, kueue);
        printUsage(usedMilliMs, wallMs, kueue);
        printDecisions(admissions);
    }

    /** Per class: time to admission beside Kueue's, and how long jobs held their quota beside the trace's runtime. */
    void printClasses(
            Map<String, List<Double>> toAdmit,
            Map<String, List<Double>> fromSchedule,
            Map<String, List<Double>> held,
            Map<String, List<Double>> ran,
            KueueFigures kueue) {
        for (String c : CLASSES) {
            List<Double> t = toAdmit.getOrDefault(c, List.of());
            System.out.printf(
                    "trace time to admission %s (priority %s): avg %.0f ms, p50 %.0f, p99 %.0f over %d jobs (from the"
                            + " trace's creation time: avg %.0f ms); Kueue avg %d ms%n",
                    c,
                    PRIORITY.get(c),
                    avg(t),
                    ApiBench.pct(t, 50),
                    ApiBench.pct(t, 99),
                    t.size(),
                    avg(fromSchedule.getOrDefault(c, List.of())),
                    kueue.avgTimeToAdmissionMs().get(c));
        }
        for (String c : CLASSES) {
            long runtime = trace.workloads().stream()
                    .filter(w -> w.className().equals(c))
                    .mapToLong(KueueTrace.Workload::runtimeMs)
                    .findFirst()
                    .orElse(0);
            System.out.printf(
                    "trace quota held %s: avg %.0f ms admitted→ended (running→ended avg %.0f ms; the trace's runtime"
                            + " %d ms)%n",
                    c, avg(held.getOrDefault(c, List.of())), avg(ran.getOrDefault(c, List.of())), runtime);
        }
    }

    /** Admission decisions per second: admitted jobs over the span from the first admission to the last; the peak. */
    void printDecisions(List<Instant> admissions) {
        Collections.sort(admissions);
        Map<Long, Integer> perSecond = new TreeMap<>();
        admissions.forEach(a -> perSecond.merge(a.getEpochSecond(), 1, Integer::sum));
        double admitSpan = admissions.size() < 2
                ? Double.NaN
                : ms(admissions.get(0), admissions.get(admissions.size() - 1)) / 1000;
        System.out.printf(
                "trace admission decisions: %d jobs admitted in %.1f s (first to last) = %.0f/s; peak %d in one"
                        + " second%n",
                admissions.size(),
                admitSpan,
                admissions.size() / admitSpan,
                perSecond.values().stream().mapToInt(Integer::intValue).max().orElse(0));
        io.micrometer.core.instrument.Timer rounds =
                meters.find("crater.admission.round").timer();
        if (rounds != null) {
            System.out.printf(
                    "trace admission rounds: %d, mean %.1f ms each, %.0f %% of the wall time in rounds%n",
                    rounds.count(),
                    rounds.mean(TimeUnit.MILLISECONDS),
                    rounds.totalTime(TimeUnit.MILLISECONDS) / ((System.nanoTime() - t0Nanos) / 1e6) * 100);
        }
    }

    @jakarta.inject.Inject
    io.micrometer.core.instrument.MeterRegistry meters;

    @jakarta.inject.Inject
    io.crater.cluster.ClusterConfig clusterConfig;

    /**
     * Where each class's jobs spent the time from admission to the end Crater recorded ({@code -Dtrace.stages=true}):
     * each step as the cluster's objects show it, and Crater's own started and finished times, in ms after admission.
     */
    void printStages(Map<String, Row> rows, TraceStages stages) {
        for (String c : CLASSES) {
            Map<String, List<Double>> after = new java.util.LinkedHashMap<>();
            for (int i = 0; i < trace.workloads().size(); i++) {
                Row r = ids.get(i) == null ? null : rows.get(ids.get(i));
                if (r == null
                        || r.admitted() == null
                        || !trace.workloads().get(i).className().equals(c)) {
                    continue;
                }
                Map<TraceStages.Step, Instant> seen = stages.of(ids.get(i));
                for (TraceStages.Step step : TraceStages.Step.values()) {
                    if (seen.containsKey(step)) {
                        after.computeIfAbsent(step.label, k -> new ArrayList<>())
                                .add(ms(r.admitted(), seen.get(step)));
                    }
                    if (step == TraceStages.Step.POD_RUNNING && r.started() != null) {
                        after.computeIfAbsent("Crater's started_at", k -> new ArrayList<>())
                                .add(ms(r.admitted(), r.started()));
                    }
                }
                if (r.finished() != null) {
                    after.computeIfAbsent("Crater's finished_at", k -> new ArrayList<>())
                            .add(ms(r.admitted(), r.finished()));
                }
            }
            StringBuilder line = new StringBuilder();
            after.forEach((step, t) -> line.append(line.isEmpty() ? "" : "; ")
                    .append(step)
                    .append(String.format(" %.0f/%.0f/%.0f", avg(t), ApiBench.pct(t, 50), ApiBench.pct(t, 90))));
            System.out.printf("trace stages %s, ms after admission (avg/p50/p90): %s%n", c, line);
        }
    }

    /** How the jobs ended, per class, with a message of each kind and how the containers of failed jobs ended. */
    void printEnds(Map<String, Row> rows) throws Exception {
        Map<String, Map<String, Integer>> ends = new TreeMap<>();
        Map<String, String> example = new TreeMap<>();
        for (int i = 0; i < trace.workloads().size(); i++) {
            Row r = ids.get(i) == null ? null : rows.get(ids.get(i));
            if (r == null) {
                continue;
            }
            String state = r.state() + (r.reason() == null || r.state().equals("Succeeded") ? "" : "/" + r.reason());
            ends.computeIfAbsent(state, k -> new TreeMap<>())
                    .merge(trace.workloads().get(i).className(), 1, Integer::sum);
            if (r.message() != null && !r.state().equals("Succeeded")) {
                example.putIfAbsent(state, r.message());
            }
        }
        System.out.printf("trace end states (per class): %s%n", ends);
        example.forEach((state, message) -> System.out.printf("trace end state %s, e.g.: %s%n", state, message));
        Map<String, Long> exits = new TreeMap<>();
        try (Connection c = io.crater.Db.connection();
                Statement s = c.createStatement();
                ResultSet rs =
                        s.executeQuery("SELECT coalesce(x.reason, '-') || ' (exit ' || coalesce(x.exit_code::text,"
                                + " '-') || ')', count(*) FROM jobs j JOIN accounts a ON a.id = j.account_id"
                                + " JOIN job_archives x ON x.job_id = j.id WHERE a.slug LIKE 'kq-%'"
                                + " AND j.state = 'Failed' GROUP BY 1")) {
            while (rs.next()) {
                exits.put(rs.getString(1), rs.getLong(2));
            }
        }
        if (!exits.isEmpty()) {
            System.out.printf("trace failed jobs' containers ended: %s%n", exits);
        }
    }

    /**
     * Kueue's clusterQueueClassesMinUsage (checker_test.go over recorder.go): Σ over the queues of ∫ CPU in use dt,
     * divided by Σ nominal quota × the time monitored, in %. Here CPU is in use from admission to the job's end.
     */
    void printUsage(Map<Integer, Double> usedMilliMs, double wallMs, KueueFigures kueue) {
        double used =
                usedMilliMs.values().stream().mapToDouble(Double::doubleValue).sum();
        double lowest = Double.MAX_VALUE;
        double highest = 0;
        for (KueueTrace.Queue q : trace.queues()) {
            double share = usedMilliMs.getOrDefault(q.index(), 0.0) * 100 / (q.nominalMilli() * wallMs);
            lowest = Math.min(lowest, share);
            highest = Math.max(highest, share);
        }
        System.out.printf(
                "trace usage of nominal quota (Kueue's definition: Σ ∫ CPU in use dt ÷ (Σ nominal × wall); in use from"
                        + " admission until the reconciler records the job's end, so it can exceed 100 %%): %.1f %%"
                        + " (accounts from %.1f %% to %.1f %%); Kueue %.2f %%%n",
                used * 100 / (trace.nominalMilli() * wallMs), lowest, highest, kueue.usagePercent());
    }

    void printEstimates(Map<String, Row> rows) {
        List<Double> error = new ArrayList<>();
        Map<String, Integer> unknown = new TreeMap<>();
        int withStartBy = 0;
        int notWaiting = 0;
        int byStartBy = 0;
        int startedByStartBy = 0;
        for (Estimate e : estimates) {
            Row r = rows.get(ids.get(e.workload()));
            if (!"Queued".equals(e.state())) {
                notWaiting++;
            } else if (e.startBy() == null) {
                unknown.merge(String.valueOf(e.unknown()), 1, Integer::sum);
            } else if (r != null && r.admitted() != null) {
                withStartBy++;
                error.add(Math.abs(ms(e.startBy(), r.admitted())));
                byStartBy += r.admitted().isAfter(e.startBy()) ? 0 : 1;
                startedByStartBy += r.started() != null && !r.started().isAfter(e.startBy()) ? 1 : 0;
            }
        }
        System.out.printf(
                "trace start estimates (every %dth job still waiting after its submission, asked once): %d asked, %d"
                        + " with startBy, unknown %s, %d no longer waiting when asked; admitted by startBy %.0f %%"
                        + " (running by it %.0f %%); |startBy − admitted| p50 %.0f ms, p90 %.0f ms%n",
                ESTIMATE_EVERY,
                estimates.size(),
                withStartBy,
                unknown,
                notWaiting,
                withStartBy == 0 ? Double.NaN : byStartBy * 100.0 / withStartBy,
                withStartBy == 0 ? Double.NaN : startedByStartBy * 100.0 / withStartBy,
                ApiBench.pct(error, 50),
                ApiBench.pct(error, 90));
    }

    long firstSent() {
        long first = Long.MAX_VALUE;
        for (int i = 0; i < sent.length(); i++) {
            if (sent.get(i) != 0) {
                first = Math.min(first, sent.get(i));
            }
        }
        return first;
    }

    String login(String username, String password) throws Exception {
        HttpResponse<String> r =
                call(null, null, "POST", "/api/v1/auth/login", Map.of("username", username, "password", password));
        expect(r, 200);
        return json.readTree(r.body()).path("accessToken").asText();
    }

    HttpResponse<String> call(String token, String account, String method, String path, Object body) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(base + path.substring(1)))
                .header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(120))
                .method(
                        method,
                        body == null
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofString(json.writeValueAsString(body)));
        if (token != null) {
            r.header("Authorization", "Bearer " + token);
        }
        if (account != null) {
            r.header("X-Crater-Account", account);
        }
        return http.send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    static void expect(HttpResponse<String> r, int status) {
        if (r.statusCode() != status) {
            throw new IllegalStateException(
                    r.request().method() + " " + r.request().uri() + ": " + r.statusCode() + " " + r.body());
        }
    }

    /** Runs {@code task(0..n-1)} on {@code threads} threads and rethrows the first failure. */
    static void parallel(int threads, int n, ThrowingIntConsumer task) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int index = i;
                done.add(pool.submit(() -> {
                    task.accept(index);
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
    }

    /** A step of {@link #parallel}. */
    interface ThrowingIntConsumer {
        void accept(int i) throws Exception;
    }

    static String milli(long milli) {
        return io.crater.policy.Quantities.format(milli);
    }

    static Instant instant(ResultSet rs, int column) throws Exception {
        OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
        return t == null ? null : t.toInstant();
    }

    static double ms(Instant from, Instant to) {
        return Duration.between(from, to).toNanos() / 1e6;
    }

    static double avg(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
    }
}
