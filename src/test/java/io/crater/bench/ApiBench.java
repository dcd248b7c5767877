package io.crater.bench;

import static io.crater.Api.admin;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Figures of the HTTP API and admission on this machine (run by {@code make bench}, never by {@code make test}):
 * submit→admitted latency while capacity is free, submissions per second the API accepts, and the job list's
 * latency at 100,000 jobs under 50 concurrent clients. It prints figures and asserts nothing about time.
 */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class ApiBench {

    static final String PW = "Bench-pass-2026";

    @TestHTTPResource("/")
    URL base;

    final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @Test
    void figures() throws Exception {
        System.out.printf(
                "machine: %d cores, JVM %s, max heap %d MiB%n",
                Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version"),
                Runtime.getRuntime().maxMemory() >> 20);
        admissionLatency();
        submissions();
        list();
    }

    void account(String slug, List<Map<String, String>> quota, String... members) {
        admin().body(Map.of("slug", slug, "name", slug)).post("/api/v1/accounts");
        admin().body(Map.of("items", quota))
                .put("/api/v1/accounts/" + slug + "/quota")
                .then()
                .statusCode(200);
        for (String m : members) {
            admin().body(Map.of("role", "member")).put("/api/v1/accounts/" + slug + "/members/" + m);
        }
    }

    static Map<String, String> q(String resource, String max) {
        return Map.of("resource", resource, "guaranteed", max, "max", max);
    }

    static String job(String name, String duration) {
        return "{\"name\":\"" + name + "\",\"kind\":\"custom\",\"image\":\"busybox\",\"command\":[\"true\"],"
                + "\"env\":{\"SIM_DURATION\":\"" + duration
                + "\"},\"resources\":{\"cpu\":\"100m\",\"memory\":\"128Mi\"}}";
    }

    HttpResponse<String> send(String token, String account, String method, String path, String body) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(base + path.substring(1)))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(60))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (account != null) {
            r.header("X-Crater-Account", account);
        }
        return http.send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Jobs submitted one every 50 ms while capacity and quota are free: how soon each is admitted and runs. */
    void admissionLatency() throws Exception {
        String token = Api.user("bench.free", PW);
        account("bench-free", List.of(q("cpu", "200"), q("memory", "400Gi")), "bench.free");
        int n = 200;
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            HttpResponse<String> r = send(token, "bench-free", "POST", "/api/v1/jobs", job("free-" + i, "1s"));
            if (r.statusCode() != 201) {
                throw new IllegalStateException(r.body());
            }
            Thread.sleep(50);
        }
        double wall = (System.nanoTime() - t0) / 1e9;
        long deadline = System.currentTimeMillis() + 120_000;
        while (io.crater.Db.count(
                                "SELECT count(*) FROM jobs j JOIN accounts a ON a.id = j.account_id WHERE a.slug = 'bench-free'"
                                        + " AND j.started_at IS NULL AND j.state NOT IN ('Failed', 'Rejected', 'Stopped')")
                        > 0
                && System.currentTimeMillis() < deadline) {
            Thread.sleep(500);
        }
        List<Double> admitted = millis("SELECT EXTRACT(EPOCH FROM (j.admitted_at - j.created_at)) * 1000 FROM jobs j"
                + " JOIN accounts a ON a.id = j.account_id WHERE a.slug = 'bench-free' AND j.admitted_at IS NOT NULL");
        List<Double> running = millis("SELECT EXTRACT(EPOCH FROM (j.started_at - j.created_at)) * 1000 FROM jobs j"
                + " JOIN accounts a ON a.id = j.account_id WHERE a.slug = 'bench-free' AND j.started_at IS NOT NULL");
        System.out.printf(
                "submit→admitted with free capacity (%d jobs over %.1f s): p50 %.0f ms, p99 %.0f ms, max %.0f ms%n",
                admitted.size(), wall, pct(admitted, 50), pct(admitted, 99), pct(admitted, 100));
        Report.figure("api.admitted.p99", pct(admitted, 99));
        System.out.printf(
                "submit→Running (Volcano Job, PodGroup, pod, bind, 0.5 s simulated start): p50 %.0f ms, p99 %.0f ms%n",
                pct(running, 50), pct(running, 99));
    }

    /** 3,000 submissions from 16 clients into an account whose quota holds them all waiting. */
    void submissions() throws Exception {
        String[] tokens = new String[4];
        for (int i = 0; i < tokens.length; i++) {
            tokens[i] = Api.user("bench.sub" + i, PW);
        }
        account(
                "bench-sub",
                List.of(q("cpu", "0"), q("memory", "0")),
                "bench.sub0",
                "bench.sub1",
                "bench.sub2",
                "bench.sub3");
        int n = 3000;
        List<Double> latencies = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger next = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(16);
        long t0 = System.nanoTime();
        List<Future<?>> done = new ArrayList<>();
        for (int c = 0; c < 16; c++) {
            done.add(pool.submit(() -> {
                int i;
                while ((i = next.getAndIncrement()) < n) {
                    long s = System.nanoTime();
                    HttpResponse<String> r =
                            send(tokens[i % tokens.length], "bench-sub", "POST", "/api/v1/jobs", job("sub-" + i, "1s"));
                    if (r.statusCode() != 201) {
                        throw new IllegalStateException(r.body());
                    }
                    latencies.add((System.nanoTime() - s) / 1e6);
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        double wall = (System.nanoTime() - t0) / 1e9;
        pool.shutdown();
        System.out.printf(
                "submissions accepted: %d in %.1f s = %.0f/s from 16 clients; latency p50 %.0f ms, p99 %.0f ms%n",
                n, wall, n / wall, pct(latencies, 50), pct(latencies, 99));
        Report.figure("api.submissions.rate", n / wall);
        Report.figure("api.submissions.p99", pct(latencies, 99));
    }

    /** The job list at 100,000 jobs: 50 clients, 2,000 requests, members and a platform admin. */
    void list() throws Exception {
        String member = Api.user("bench.list", PW);
        account("bench-list", List.of(q("cpu", "1")), "bench.list");
        try (Connection c = io.crater.Db.connection();
                Statement s = c.createStatement()) {
            s.execute("INSERT INTO jobs (public_id, account_id, user_id, name, kind, state, created_at)"
                    + " SELECT 'jbl' || g, a.id, u.id, 'job ' || g,"
                    + " (ARRAY['custom','pytorch','jupyter','webide','inference'])[1 + g % 5],"
                    + " (ARRAY['Succeeded','Failed','Stopped'])[1 + g % 3], now() - make_interval(secs => 100000 - g)"
                    + " FROM generate_series(1, " + (100_000 - io.crater.Db.count("SELECT count(*) FROM jobs")) + ") g,"
                    + " accounts a, users u WHERE a.slug = 'bench-list' AND u.username = 'bench.list'");
            s.execute("ANALYZE jobs");
        }
        String adminToken = io.crater.TestAuth.adminToken();
        List<String> paths = List.of(
                "/api/v1/jobs?limit=50",
                "/api/v1/jobs?state=Failed&limit=50",
                "/api/v1/jobs?account=bench-list&kind=pytorch&limit=50",
                "/api/v1/jobs?mine=true&sort=created&limit=50");
        // Warm up.
        for (String p : paths) {
            send(member, null, "GET", p, null);
        }
        List<Double> latencies = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger next = new AtomicInteger();
        int n = 2000;
        ExecutorService pool = Executors.newFixedThreadPool(50);
        long t0 = System.nanoTime();
        List<Future<?>> done = new ArrayList<>();
        for (int c = 0; c < 50; c++) {
            done.add(pool.submit(() -> {
                int i;
                while ((i = next.getAndIncrement()) < n) {
                    String token = i % 5 == 0 ? adminToken : member;
                    long s = System.nanoTime();
                    HttpResponse<String> r = send(token, null, "GET", paths.get(i % paths.size()), null);
                    if (r.statusCode() != 200) {
                        throw new IllegalStateException(r.body());
                    }
                    latencies.add((System.nanoTime() - s) / 1e6);
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        double wall = (System.nanoTime() - t0) / 1e9;
        pool.shutdown();
        System.out.printf(
                "job list at %d jobs, 50 clients, %d requests (pages of 50): %.0f/s, p50 %.0f ms, p99 %.0f ms%n",
                io.crater.Db.count("SELECT count(*) FROM jobs"), n, n / wall, pct(latencies, 50), pct(latencies, 99));
        Report.figure("api.list.p99", pct(latencies, 99));
    }

    static double pct(List<Double> values, int p) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int i = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, i)));
    }

    static List<Double> millis(String sql) throws Exception {
        List<Double> out = new ArrayList<>();
        try (Connection c = io.crater.Db.connection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getDouble(1));
            }
        }
        return out;
    }
}
