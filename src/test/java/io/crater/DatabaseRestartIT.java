package io.crater;

import static org.assertj.core.api.Assertions.assertThat;

import io.crater.boot.EmbeddedDatabase;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
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
 * The database restarts under submission load (a fast shutdown, then a start on the same data and port). While it
 * is away, every answer is a 503 problem with {@code Retry-After}, never a 500; each submission, retried with its
 * idempotency key until it is accepted, ends up exactly once in the database; readiness comes back once the
 * database is back. The figures (answers, 503s, how long readiness stayed down after the database returned) are
 * printed, not asserted.
 */
class DatabaseRestartIT {

    static final String PW = "Restart-pass-2026";
    static final int CLIENTS = 4;

    @Test
    void aDatabaseRestartCostsOnlyTheSecondsItLasts() throws Exception {
        Path base = TestDirs.create("crater-db-restart");
        int port = freePort();
        EmbeddedDatabase db = EmbeddedDatabase.start(base.resolve("pg"), base.resolve("pg-work"), port);
        try {
            Map<String, String> env = Map.of(
                    "CRATER_DB_URL", db.jdbcUrl(), "CRATER_DB_USER", "postgres", "CRATER_DB_PASSWORD", "postgres");
            try (PackagedApp app = new PackagedApp(base.resolve("crater"), "server", env, "Console: http://").start()) {
                String[] admin = app.initialAdmin();
                String adminToken = app.login(admin[0], admin[1]);
                RecoveryIT.expect(
                        app.call(
                                "POST",
                                "/api/v1/users",
                                adminToken,
                                null,
                                "{\"username\":\"dr.user\",\"displayName\":\"D\",\"password\":\"" + PW + "\"}"),
                        201);
                String token = app.login("dr.user", PW);
                Load load = new Load(app, token);
                Readiness readiness = new Readiness(app);
                readiness.start();
                load.start();
                Thread.sleep(3_000);
                long stopAt = System.nanoTime();
                db.close();
                db = EmbeddedDatabase.start(base.resolve("pg"), base.resolve("pg-work"), port);
                long backAt = System.nanoTime();
                Thread.sleep(5_000);
                load.stop();
                long readyAt = readiness.awaitUp(60_000);
                readiness.stopPolling();

                assertThat(load.unexpected)
                        .as("answers other than 201, 200 or a 503 problem")
                        .isEmpty();
                assertThat(load.unavailable.get() + load.broken.get())
                        .as("submissions that met the restart (a 503 problem or a lost connection): else nothing here"
                                + " tested an outage")
                        .isPositive();
                assertThat(load.accepted.get()).isEqualTo(load.keys.get());
                try (Connection c = DriverManager.getConnection(db.jdbcUrl(), "postgres", "postgres");
                        Statement s = c.createStatement();
                        ResultSet rs = s.executeQuery(
                                "SELECT count(*), count(DISTINCT name) FROM jobs WHERE name LIKE 'dr-%'")) {
                    rs.next();
                    assertThat(rs.getLong(1)).as("jobs in the database").isEqualTo(load.keys.get());
                    assertThat(rs.getLong(2)).as("none twice").isEqualTo(load.keys.get());
                }
                assertThat(app.get("/q/health/ready").statusCode()).isEqualTo(200);
                System.out.printf(
                        "database restart: %d submissions by %d clients, %d answered 503 (Retry-After) and %d lost"
                                + " connections while it was away, 0 answered 500; the database was away %d ms;"
                                + " readiness DOWN for %d ms after it was back%n",
                        load.keys.get(),
                        CLIENTS,
                        load.unavailable.get(),
                        load.broken.get(),
                        (backAt - stopAt) / 1_000_000,
                        Math.max(0, (readyAt - backAt) / 1_000_000));
            }
        } finally {
            db.close();
        }
    }

    /** Clients submitting one job after another, each retried with its key until it is accepted. */
    static final class Load {
        final PackagedApp app;
        final String token;
        final AtomicBoolean running = new AtomicBoolean(true);
        final AtomicInteger keys = new AtomicInteger();
        final AtomicInteger accepted = new AtomicInteger();
        final AtomicInteger unavailable = new AtomicInteger();
        final AtomicInteger broken = new AtomicInteger();
        final List<String> unexpected = Collections.synchronizedList(new ArrayList<>());
        final ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        final List<Future<?>> clients = new ArrayList<>();

        Load(PackagedApp app, String token) {
            this.app = app;
            this.token = token;
        }

        void start() {
            for (int i = 0; i < CLIENTS; i++) {
                clients.add(pool.submit(this::client));
            }
        }

        void stop() throws Exception {
            running.set(false);
            for (Future<?> f : clients) {
                f.get();
            }
            pool.shutdown();
        }

        private Void client() throws Exception {
            while (running.get()) {
                String name = "dr-" + keys.incrementAndGet();
                submitUntilAccepted(name);
            }
            return null;
        }

        private void submitUntilAccepted(String name) throws Exception {
            String body = "{\"name\":\"" + name + "\",\"kind\":\"custom\",\"image\":\"busybox\","
                    + "\"command\":[\"sleep\",\"600\"],\"resources\":{\"cpu\":\"100m\",\"memory\":\"64Mi\"}}";
            long deadline = System.currentTimeMillis() + 60_000;
            while (System.currentTimeMillis() < deadline) {
                HttpResponse<String> r;
                try {
                    r = app.call("POST", "/api/v1/jobs", token, null, body, Map.of("Idempotency-Key", name));
                } catch (java.io.IOException e) {
                    broken.incrementAndGet();
                    Thread.sleep(200);
                    continue;
                }
                if (r.statusCode() == 201 || r.statusCode() == 200) {
                    accepted.incrementAndGet();
                    return;
                }
                if (r.statusCode() == 503
                        && r.body().contains("\"code\":\"DatabaseUnavailable\"")
                        && r.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json")
                        && r.headers().firstValue("Retry-After").isPresent()) {
                    unavailable.incrementAndGet();
                    Thread.sleep(200);
                    continue;
                }
                unexpected.add(r.statusCode() + " " + r.body());
                return;
            }
            unexpected.add(name + " not accepted within 60 s");
        }
    }

    /** Polls readiness every 100 ms and remembers when it was last seen DOWN. */
    static final class Readiness extends Thread {
        final PackagedApp app;
        final AtomicBoolean running = new AtomicBoolean(true);
        final AtomicLong lastDown = new AtomicLong();
        volatile boolean up = true;

        Readiness(PackagedApp app) {
            this.app = app;
            setDaemon(true);
        }

        @Override
        public void run() {
            while (running.get()) {
                try {
                    up = app.get("/q/health/ready").statusCode() == 200;
                } catch (Exception e) {
                    up = false;
                }
                if (!up) {
                    lastDown.set(System.nanoTime());
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        /** When readiness was last DOWN before it came back (nanoTime). */
        long awaitUp(long millis) throws InterruptedException {
            long deadline = System.currentTimeMillis() + millis;
            while (!up && System.currentTimeMillis() < deadline) {
                Thread.sleep(50);
            }
            assertThat(up)
                    .as("readiness UP again within %d s of the database", millis / 1000)
                    .isTrue();
            return lastDown.get();
        }

        void stopPolling() {
            running.set(false);
        }
    }

    static int freePort() throws Exception {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
