package io.crater.interactive;

import static io.crater.Api.as;
import static io.crater.interactive.OpenSsh.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.crater.interactive.OpenSsh.Result;
import io.crater.job.Flows;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.UpgradeRejectedException;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketConnectOptions;
import jakarta.inject.Inject;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The terminal and the SSH gateway end to end: a running job in the simulated cluster, the console's WebSocket
 * (Vert.x's client) and Debian's OpenSSH client ({@code ssh}, {@code scp}, {@code sftp}) against the gateway.
 */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class InteractiveFlowTest {

    static final String PW = "Interactive-pass-2026";

    @TestHTTPResource("/")
    URL base;

    @Inject
    Vertx vertx;

    @Inject
    SshGateway gateway;

    String owner;
    String other;
    String job;
    String otherJob;
    OpenSsh openssh;

    @BeforeEach
    void runningJobs() throws Exception {
        if (job != null) {
            return;
        }
        owner = Api.user("tess", PW);
        other = Api.user("uma", PW);
        Flows.account(
                "term", List.of(Flows.line("cpu", "8", "8"), Flows.line("memory", "16Gi", "16Gi")), "tess", "uma");
        String mine = submit(owner, "shell");
        otherJob = submit(other, "other");
        Flows.awaitRunning(owner, mine);
        Flows.awaitRunning(other, otherJob);
        openssh = new OpenSsh(gateway.port());
        for (String who : List.of("tess", "uma", "stranger")) {
            openssh.keygen(who);
        }
        openssh.register(owner, "tess");
        openssh.register(other, "uma");
        job = mine;
    }

    static String submit(String token, String name) {
        return Flows.submit(
                token,
                "term",
                Map.of(
                        "name",
                        name,
                        "kind",
                        "custom",
                        "image",
                        "python:3.12",
                        "command",
                        List.of("sleep", "infinity"),
                        "env",
                        Map.of("SIM_DURATION", "30m"),
                        "resources",
                        Map.of("cpu", "1", "memory", "1Gi")));
    }

    // ---- terminal ----

    /** A terminal's frames as they arrive, and how it ended. */
    static final class Term {
        final StringBuilder out = new StringBuilder();
        final List<String> control = new ArrayList<>();
        final CompletableFuture<Short> closed = new CompletableFuture<>();
        WebSocket ws;

        synchronized String text() {
            return out.toString();
        }
    }

    Term terminal(String token, String origin, String query) throws Exception {
        WebSocketConnectOptions o = new WebSocketConnectOptions()
                .setHost(base.getHost())
                .setPort(base.getPort())
                .setURI("/api/v1/jobs/" + job + "/terminal" + query)
                .addHeader("Authorization", "Bearer " + token);
        if (origin != null) {
            o.addHeader("Origin", origin);
        }
        Term t = new Term();
        t.ws = vertx.createWebSocketClient()
                .connect(o)
                .toCompletionStage()
                .toCompletableFuture()
                .get(20, TimeUnit.SECONDS);
        t.ws.binaryMessageHandler(b -> {
            synchronized (t) {
                t.out.append(b.toString(StandardCharsets.UTF_8));
            }
        });
        t.ws.textMessageHandler(t.control::add);
        t.ws.closeHandler(v -> t.closed.complete(t.ws.closeStatusCode()));
        return t;
    }

    int refusal(String token, String origin, String id) throws Exception {
        WebSocketConnectOptions o = new WebSocketConnectOptions()
                .setHost(base.getHost())
                .setPort(base.getPort())
                .setURI("/api/v1/jobs/" + id + "/terminal");
        if (token != null) {
            o.addHeader("Authorization", "Bearer " + token);
        }
        if (origin != null) {
            o.addHeader("Origin", origin);
        }
        try {
            vertx.createWebSocketClient()
                    .connect(o)
                    .toCompletionStage()
                    .toCompletableFuture()
                    .get(20, TimeUnit.SECONDS);
            return 101;
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof UpgradeRejectedException r) {
                return r.getStatus();
            }
            throw e;
        }
    }

    @Test
    void theTerminalRunsAShellInThePodWithKeystrokesResizeAndExit() throws Exception {
        String origin = "http://" + base.getHost() + ":" + base.getPort();
        Term t = terminal(owner, origin, "");
        await().atMost(Duration.ofSeconds(10)).until(() -> t.text().contains("$ "));
        // The shell is the owner's, at home in their space: the folder SFTP serves, under CRATER_HOME.
        assertThat(t.text()).contains("tess@").endsWith(":~$ ");
        java.nio.file.Path space = io.crater.CraterTestResource.home().resolve("spaces/users/tess");
        java.nio.file.Files.createDirectories(space);
        java.nio.file.Files.writeString(space.resolve("from-the-space.txt"), "written on the host\n");
        t.ws.writeBinaryMessage(Buffer.buffer("cat ~/from-the-space.txt && id -un\r"));
        await().atMost(Duration.ofSeconds(10)).until(() -> t.text().contains("written on the host\r\ntess\r\n"));
        t.ws.writeBinaryMessage(Buffer.buffer("echo hello-from-$HOSTNAME\r"));
        t.ws.writeTextMessage("{\"type\":\"resize\",\"cols\":132,\"rows\":43}");
        t.ws.writeBinaryMessage(Buffer.buffer("stty size\r"));
        await().atMost(Duration.ofSeconds(10)).until(() -> t.text().contains("43 132"));
        assertThat(t.text()).contains("echo hello"); // echoed as typed, as a TTY does
        t.ws.writeBinaryMessage(Buffer.buffer("exit 7\r"));
        await().atMost(Duration.ofSeconds(10))
                .alias("closed after exit; saw: " + t.text())
                .until(t.closed::isDone);
        assertThat(t.control).anyMatch(c -> c.contains("\"exit\"") && c.contains("7"));
        // The session is on record with its bytes.
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            var rows = io.crater.Db.count(
                    "SELECT count(*) FROM interactive_sessions WHERE channel = 'terminal' AND job_public_id = '" + job
                            + "' AND ended_at IS NOT NULL AND bytes_in > 0 AND bytes_out > 0");
            return rows > 0;
        });
    }

    @Test
    void theConnectPanelGivesTheExactSshCommandAndConfigToTheOwnerOnly() {
        as(owner)
                .get("/api/v1/jobs/" + job + "/connect")
                .then()
                .statusCode(200)
                .body("reachable", org.hamcrest.Matchers.equalTo(true))
                .body("pods[0].pod", org.hamcrest.Matchers.equalTo("main-0"))
                .body(
                        "pods[0].command",
                        org.hamcrest.Matchers.equalTo("ssh -p " + gateway.port() + " tess+" + job + "@localhost"))
                .body("pods[0].sshConfig", org.hamcrest.Matchers.containsString("User tess+" + job));
        as(other)
                .get("/api/v1/jobs/" + job + "/connect")
                .then()
                .statusCode(200)
                .body("reachable", org.hamcrest.Matchers.equalTo(false));
    }

    @Test
    void theTerminalRefusesOtherSitesOtherUsersAndNobody() throws Exception {
        assertThat(refusal(owner, "https://evil.example", job)).isEqualTo(403);
        assertThat(refusal(null, null, job)).isEqualTo(401);
        assertThat(refusal(other, null, job)).isEqualTo(403);
        assertThat(refusal(owner, null, "jnosuchjob")).isEqualTo(404);
        String stranger = Api.user("vic", PW);
        assertThat(refusal(stranger, null, job)).isEqualTo(403); // not even a member of the account
    }

    // ---- SSH ----

    List<String> ssh(String key, String login, String... rest) {
        return openssh.ssh(key, login, rest);
    }

    @Test
    void sshRunsCommandsWithAndWithoutAPtyAndReturnsTheirExitStatus() throws Exception {
        long before = io.crater.Db.count("SELECT coalesce(max(id), 0) FROM interactive_sessions");
        Result plain = run(ssh("tess", "tess+" + job, "echo out; echo err >&2; exit 3"));
        assertThat(plain.code()).isEqualTo(3);
        assertThat(plain.out()).isEqualTo("out\n");
        assertThat(plain.err()).contains("err");

        Result tty = run(ssh("tess", "tess+" + job, "-tt", "echo with-a-pty"));
        assertThat(tty.code()).isZero();
        assertThat(tty.out()).contains("with-a-pty\r\n");

        // A shell without a PTY reads the commands piped into it, as VS Code Remote-SSH's installer does.
        Result piped = run(ssh("tess", "tess+" + job + "+main-0"), "echo piped\nexit 4\n");
        assertThat(piped.out()).contains("piped");
        assertThat(piped.code()).isEqualTo(4);

        // Each connection is one session on record, ended, with its bytes (OpenSSH offers its key twice per login).
        String mine =
                " FROM interactive_sessions WHERE channel = 'ssh' AND job_public_id = '" + job + "' AND id > " + before;
        await().atMost(Duration.ofSeconds(10))
                .until(() -> io.crater.Db.count("SELECT count(*)" + mine + " AND ended_at IS NOT NULL") == 3);
        assertThat(io.crater.Db.count("SELECT count(*)" + mine)).isEqualTo(3);
        assertThat(io.crater.Db.count("SELECT count(*)" + mine + " AND bytes_out > 0"))
                .isEqualTo(3);

        // The end of what the client pipes in reaches the command (v5.channel.k8s.io closes its stdin): a shell
        // reading piped lines ends without an `exit` (over v4 it would wait for more until the client gave up).
        Result ended = run(ssh("tess", "tess+" + job), "echo input-ended\n");
        assertThat(ended.out()).contains("input-ended");
        assertThat(ended.code()).isZero();
    }

    @Test
    void sshRefusesUnknownKeysOtherUsersKeysOtherUsersJobsAndStoppedJobs() throws Exception {
        Result unknown = run(ssh("stranger", "tess+" + job, "true"));
        assertThat(unknown.code()).isEqualTo(255);
        assertThat(unknown.err()).contains("Permission denied");

        Result othersKey = run(ssh("uma", "tess+" + job, "true"));
        assertThat(othersKey.code()).isEqualTo(255);
        assertThat(othersKey.err()).contains("Permission denied");

        Result othersJob = run(ssh("uma", "uma+" + job, "true"));
        assertThat(othersJob.code()).isEqualTo(1);
        assertThat(othersJob.err()).contains("only the job's owner");

        Result noPod = run(ssh("tess", "tess+" + job + "+worker-3", "true"));
        assertThat(noPod.code()).isEqualTo(1);
        assertThat(noPod.err()).contains("has no pod worker-3");

        Result elsewhere = run(ssh("tess", "tess+" + job, "-W", "10.0.0.1:80"));
        assertThat(elsewhere.code()).isEqualTo(255);
        assertThat(elsewhere.err()).contains("administratively prohibited");

        String stopped = submit(owner, "stopped");
        Flows.awaitRunning(owner, stopped);
        as(owner).post("/api/v1/jobs/" + stopped + "/stop").then().statusCode(200);
        Result gone = run(ssh("tess", "tess+" + stopped, "true"));
        assertThat(gone.code()).isEqualTo(1);
        assertThat(gone.err()).contains("only a running job can be reached");
    }

    @Test
    void sshAndTheTerminalAreRefusedWhereTheAccountTurnedThemOffWhileTheJobRunsOn() throws Exception {
        Api.admin()
                .body(Map.of("features", Map.of("ssh", false)))
                .put("/api/v1/accounts/term/features")
                .then()
                .statusCode(200);
        try {
            Result refused = run(ssh("tess", "tess+" + job, "echo inside"));
            assertThat(refused.code()).isEqualTo(1);
            assertThat(refused.out()).isEmpty();
            assertThat(refused.err())
                    .contains("'ssh' is turned off in account 'term' by a platform admin (SSH and the web terminal)");
            assertThat(refusal(owner, null, job)).isEqualTo(403);
            // Turning it off stops nothing that runs.
            as(owner).get("/api/v1/jobs/" + job).then().statusCode(200).body("job.state", equalTo("Running"));
        } finally {
            Api.admin()
                    .body(Map.of())
                    .put("/api/v1/accounts/term/features")
                    .then()
                    .statusCode(200);
        }
        Result again = run(ssh("tess", "tess+" + job, "echo back"));
        assertThat(again.code()).isZero();
        assertThat(again.out()).isEqualTo("back\n");
    }

    @Test
    void aLocalForwardReachesAServerInsideThePodThroughPortForward() throws Exception {
        // A real HTTP server stands in for TensorBoard listening on the pod's loopback.
        byte[] big = new byte[64 << 20];
        new java.util.Random(11).nextBytes(big);
        var server = vertx.createHttpServer()
                .requestHandler(r -> {
                    if (r.path().equals("/big")) {
                        r.response().end(Buffer.buffer(big));
                    } else {
                        r.response().end("tensorboard of " + r.path());
                    }
                })
                .listen(0, "127.0.0.1")
                .toCompletionStage()
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
        String pod = "c-" + job + "-main-0";
        CraterTestResource.simulator()
                .backPort("crater-jobs", pod, 6006, new java.net.InetSocketAddress("127.0.0.1", server.actualPort()));
        try {
            // ssh -W carries stdin/stdout over one direct-tcpip channel: an HTTP request through it.
            String request = "GET /runs HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
            Result r = run(ssh("tess", "tess+" + job, "-W", "localhost:6006"), request);
            // When it fails, whether the same request then succeeds tells a lost frame from a broken path.
            String again = r.out().startsWith("HTTP/1.1 200")
                    ? ""
                    : run(ssh("tess", "tess+" + job, "-W", "localhost:6006"), request)
                            .toString();
            assertThat(r.out())
                    .as("exit %d, stderr: %s; the same request again: %s", r.code(), r.err(), again)
                    .startsWith("HTTP/1.1 200")
                    .endsWith("tensorboard of /runs");
            // A large answer arrives whole, up to its last byte, although the server closes right after it (the
            // simulated port-forward used to end at the connection's close and drop what still waited to be sent).
            Path got = Files.createTempFile("crater-forward", ".out");
            Process p = new ProcessBuilder(ssh("tess", "tess+" + job, "-W", "localhost:6006"))
                    .redirectOutput(got.toFile())
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            p.getOutputStream()
                    .write("GET /big HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                            .getBytes(StandardCharsets.US_ASCII));
            p.getOutputStream().close();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            byte[] all = Files.readAllBytes(got);
            assertThat(all.length).as("bytes through ssh -W").isGreaterThan(big.length);
            assertThat(java.util.Arrays.copyOfRange(all, all.length - big.length, all.length))
                    .isEqualTo(big);
            Files.delete(got);

            Result refused = run(ssh("tess", "tess+" + job, "-W", "localhost:6007"), "");
            assertThat(refused.out()).isEmpty();
        } finally {
            CraterTestResource.simulator().removeBackPort("crater-jobs", pod, 6006);
            server.close();
        }
    }

    @Test
    void scpAndSftpCopyIntoTheUsersOwnSpace() throws Exception {
        Path file = Files.createTempFile("crater-scp", ".txt");
        Files.writeString(file, "copied by scp\n");
        Result scp = run(copying("scp", file.toString(), "tess+" + job + "@127.0.0.1:notes.txt"));
        assertThat(scp.code()).as(scp.err()).isZero();
        Path space = CraterTestResource.home().resolve("spaces/users/tess");
        assertThat(Files.readString(space.resolve("notes.txt"))).isEqualTo("copied by scp\n");

        Result sftp = run(
                copying("sftp", "-b", "-", "tess+" + job + "@127.0.0.1"),
                "mkdir data\nput " + file + " data/again.txt\nls data\n");
        assertThat(sftp.code()).as(sftp.err()).isZero();
        assertThat(Files.readString(space.resolve("data/again.txt"))).isEqualTo("copied by scp\n");
        // Nothing outside the user's space: the root of the SFTP view is the space itself.
        Result escape = run(
                copying("sftp", "-b", "-", "tess+" + job + "@127.0.0.1"),
                "get ../uma/secret.txt /tmp/crater-escape.txt\n");
        assertThat(escape.code()).isNotZero();
    }

    /** {@code scp} or {@code sftp} with tess's key against the gateway, then {@code rest}. */
    List<String> copying(String tool, String... rest) {
        return openssh.copying(tool, "tess", rest);
    }

    @Test
    void theGatewayPresentsTheHostKeyStoredInTheDatabase() throws Exception {
        String stored;
        try (var c = io.crater.Db.connection();
                var st = c.createStatement();
                var rs = st.executeQuery("SELECT public_key FROM ssh_host_keys")) {
            assertThat(rs.next()).isTrue();
            stored = rs.getString(1);
            assertThat(rs.next()).as("one host key for every replica").isFalse();
        }
        var key = java.security.KeyFactory.getInstance("EC")
                .generatePublic(new java.security.spec.X509EncodedKeySpec(
                        java.util.Base64.getDecoder().decode(stored)));
        String openssh = org.apache.sshd.common.config.keys.PublicKeyEntry.toString(key);
        Result scan = run(List.of("ssh-keyscan", "-p", Integer.toString(gateway.port()), "-t", "ecdsa", "127.0.0.1"));
        assertThat(scan.out()).contains(openssh);
    }
}
