package io.crater;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.crater.boot.EmbeddedDatabase;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A 1 GiB resumable upload survives the death of the replica it was going to: two packaged replicas share one
 * PostgreSQL and one spaces folder (the RWX claim of a cluster); {@code tus-js-client} under node sends the file in
 * 64 MiB PATCHes to the first, which is killed with SIGKILL while a PATCH is in flight; the client then finds its
 * upload again, asks the second replica where it stands and finishes it there. The file in the space is the source
 * byte for byte, and nothing of the upload is left behind.
 */
class ResumableUploadIT {

    static final long SIZE = 1L << 30;
    static final int CHUNK = 64 << 20;

    @Test
    void aGibibyteUploadResumesOnTheOtherReplica() throws Exception {
        File webui = new File(System.getProperty("crater.webui.dir", "src/main/webui")).getAbsoluteFile();
        assertThat(new File(webui, "node_modules/tus-js-client"))
                .as("tus-js-client is installed (npm ci in src/main/webui, as make test-ui does)")
                .exists();
        Path base = TestDirs.create("crater-upload-failover");
        Path spaces = Files.createDirectories(base.resolve("spaces"));
        Path source = base.resolve("source.bin");
        String sha256 = writeRandom(source);
        try (EmbeddedDatabase db = EmbeddedDatabase.start(base.resolve("pg"), base.resolve("pg-work"));
                PackagedApp sim =
                        new PackagedApp(base.resolve("sim"), "sim", Map.of(), "Simulated cluster API: ").start()) {
            Map<String, String> env = Map.of(
                    "CRATER_DB_URL", db.jdbcUrl(),
                    "CRATER_DB_USER", "postgres",
                    "CRATER_DB_PASSWORD", "postgres",
                    "CRATER_CLUSTER_MODE", "kubernetes",
                    "KUBERNETES_MASTER", sim.lineAfter("Simulated cluster API: "),
                    "KUBERNETES_AUTH_TRYKUBECONFIG", "false",
                    "KUBERNETES_AUTH_TRYSERVICEACCOUNT", "false",
                    // Both replicas see the same spaces, as they would mount the same claim.
                    "CRATER_SSH_SPACES_ROOT", spaces.toString());
            try (PackagedApp a = new PackagedApp(base.resolve("a"), "server", env, "Console: http://");
                    PackagedApp b = new PackagedApp(base.resolve("b"), "server", env, "Console: http://")) {
                FailoverIT.startTogether(a, b, db);
                String[] admin = (Files.exists(a.home().resolve("initial-admin.txt")) ? a : b).initialAdmin();
                String token = a.login(admin[0], admin[1]);
                Process node = client(webui, base, source, a, b, token);
                List<JsonNode> events = new ArrayList<>();
                try (BufferedReader out =
                        new BufferedReader(new InputStreamReader(node.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line; (line = out.readLine()) != null; ) {
                        JsonNode event = new ObjectMapper().readTree(line);
                        events.add(event);
                        if (event.path("event").asText().equals("kill")) {
                            a.kill9();
                        }
                    }
                }
                assertThat(node.waitFor(10, TimeUnit.MINUTES)).isTrue();
                assertThat(node.exitValue())
                        .as(events + Files.readString(base.resolve("client-stderr.txt")))
                        .isZero();
                assertThat(a.alive()).as("the first replica was killed").isFalse();
                JsonNode resumed = events.get(events.size() - 1);
                assertThat(resumed.path("event").asText()).as(events.toString()).isEqualTo("resumed");
                long offset = resumed.at("/before/offset").asLong();
                System.out.printf(
                        "upload failover: %d MiB of %d MiB were stored when the replica died; the other replica went"
                                + " on from there after %d retries%n",
                        offset >> 20, SIZE >> 20, resumed.path("retries").asInt());
                assertThat(resumed.at("/before/status").asInt()).isEqualTo(200);
                assertThat(offset)
                        .as("the other replica goes on from the last PATCH the killed one finished")
                        .isPositive()
                        .isLessThan(SIZE);
                assertThat(offset % CHUNK).isZero();
                Path landed = spaces.resolve("users").resolve(admin[0]).resolve("big.bin");
                assertThat(Files.size(landed)).isEqualTo(SIZE);
                assertThat(sha256(landed))
                        .as("the file in the space is the source")
                        .isEqualTo(sha256);
                assertThat(count(db, "SELECT count(*) FROM tus_uploads")).isZero();
                assertThat(count(db, "SELECT count(*) FROM audit_log WHERE action = 'file.upload'"))
                        .isEqualTo(1);
                try (var staged = Files.walk(spaces.resolve(".uploads"))) {
                    assertThat(staged.filter(Files::isRegularFile).toList())
                            .as("no part file left")
                            .isEmpty();
                }
            }
        }
    }

    static Process client(File webui, Path base, Path source, PackagedApp a, PackagedApp b, String token)
            throws Exception {
        ProcessBuilder pb = new ProcessBuilder("node", "e2e/tus-failover.mjs")
                .directory(webui)
                .redirectError(base.resolve("client-stderr.txt").toFile());
        pb.environment().put("CRATER_URL", a.url());
        pb.environment().put("CRATER_URL_B", b.url());
        pb.environment().put("CRATER_TOKEN", token);
        pb.environment().put("SOURCE", source.toString());
        pb.environment().put("TUS_STORE", base.resolve("tus-store.json").toString());
        pb.environment().put("SPACE", "user");
        pb.environment().put("TARGET_PATH", "/big.bin");
        pb.environment().put("CHUNK", Integer.toString(CHUNK));
        pb.environment().put("KILL_AT", Long.toString(SIZE * 2 / 5));
        return pb.start();
    }

    /** Writes {@link #SIZE} random bytes; their SHA-256 in hex. */
    static String writeRandom(Path file) throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        byte[] mib = new byte[1 << 20];
        Random random = new Random(16);
        try (OutputStream o = Files.newOutputStream(file)) {
            for (long i = 0; i < SIZE; i += mib.length) {
                random.nextBytes(mib);
                sha.update(mib);
                o.write(mib);
            }
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    static String sha256(Path file) throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        byte[] buf = new byte[1 << 20];
        try (InputStream in = Files.newInputStream(file)) {
            for (int n; (n = in.read(buf)) > 0; ) {
                sha.update(buf, 0, n);
            }
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    static long count(EmbeddedDatabase db, String sql) throws Exception {
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), "postgres", "postgres");
                ResultSet r = c.createStatement().executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        }
    }
}
