package io.crater.files;

import static org.assertj.core.api.Assertions.assertThat;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.crater.Db;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.File;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Resumable uploads over tus 1.0 with raw HTTP, then with a real tus client (tus-js-client under node): chunks,
 * offsets, checksums, the quota reserved at creation and released by termination and expiry, and that nobody but
 * the uploader sees an upload.
 */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TusUploadsTest {

    static final String PW = "Tus-pass-2026";
    static final String TYPE = "application/offset+octet-stream";

    @TestHTTPResource("/")
    URL base;

    @Inject
    TusUploads uploads;

    // HTTP/1.1, as browsers and tus clients speak it to Crater: a refusal closes its connection.
    final HttpClient http =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    String owner;
    String other;
    String ownerSlug;

    @BeforeEach
    synchronized void people() {
        if (owner != null) {
            return;
        }
        owner = Api.user("tus.owner", PW);
        other = Api.user("tus.other", PW);
        ownerSlug =
                Api.as(owner).get("/api/v1/me").then().statusCode(200).extract().path("slug");
        for (String slug : List.of("tus-full", "tus-release")) {
            Api.admin().body(Map.of("slug", slug, "name", slug)).post("/api/v1/accounts");
            Api.admin()
                    .body(Map.of("role", "member", "fileAccess", "rw"))
                    .put("/api/v1/accounts/" + slug + "/members/tus.owner")
                    .then()
                    .statusCode(200);
            Api.admin()
                    .body(Map.of("maxBytes", 1000, "maxFiles", 10))
                    .put("/api/v1/spaces/account:" + slug + "/quota")
                    .then()
                    .statusCode(200);
        }
    }

    static Path spaces() {
        return CraterTestResource.home().resolve("spaces");
    }

    Path mine(String path) {
        return spaces().resolve("users/" + ownerSlug + "/" + path);
    }

    static String metadata(Map<String, String> pairs) {
        return pairs.entrySet().stream()
                .map(e -> e.getKey() + " "
                        + Base64.getEncoder().encodeToString(e.getValue().getBytes(StandardCharsets.UTF_8)))
                .collect(Collectors.joining(","));
    }

    HttpRequest.Builder request(String token, String path) {
        URI uri = URI.create(base.toString()).resolve(path);
        return HttpRequest.newBuilder(uri)
                .header("Authorization", "Bearer " + token)
                .header("Tus-Resumable", "1.0.0");
    }

    HttpResponse<String> create(String token, long length, String space, String path) throws Exception {
        return send(request(token, "/api/v1/uploads")
                .header("Upload-Length", Long.toString(length))
                .header("Upload-Metadata", metadata(Map.of("space", space, "path", path)))
                .POST(HttpRequest.BodyPublishers.noBody()));
    }

    String location(String token, long length, String space, String path) throws Exception {
        HttpResponse<String> r = create(token, length, space, path);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        return r.headers().firstValue("Location").orElseThrow();
    }

    HttpResponse<String> patch(String token, String location, long offset, byte[] body, String checksum)
            throws Exception {
        HttpRequest.Builder b = request(token, location)
                .header("Content-Type", TYPE)
                .header("Upload-Offset", Long.toString(offset))
                .method("PATCH", HttpRequest.BodyPublishers.ofByteArray(body));
        if (checksum != null) {
            b.header("Upload-Checksum", checksum);
        }
        return send(b);
    }

    HttpResponse<String> head(String token, String location) throws Exception {
        return send(request(token, location).method("HEAD", HttpRequest.BodyPublishers.noBody()));
    }

    HttpResponse<String> delete(String token, String location) throws Exception {
        return send(request(token, location).DELETE());
    }

    HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static String sha1(byte[] data) throws Exception {
        return "sha1 "
                + Base64.getEncoder()
                        .encodeToString(MessageDigest.getInstance("SHA-1").digest(data));
    }

    static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    static long offsetOf(HttpResponse<?> r) {
        return Long.parseLong(r.headers().firstValue("Upload-Offset").orElseThrow());
    }

    Path part(String location) {
        String id = location.substring(location.lastIndexOf('/') + 1);
        try (Stream<Path> all = Files.walk(spaces().resolve(".uploads"))) {
            return all.filter(p -> p.getFileName().toString().equals(id))
                    .findFirst()
                    .orElse(null);
        } catch (java.io.IOException e) {
            return null;
        }
    }

    @Test
    void optionsAdvertiseTheProtocolAndItsExtensions() throws Exception {
        HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(base + "api/v1/uploads"))
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody()));
        assertThat(r.statusCode()).isEqualTo(204);
        assertThat(r.headers().firstValue("Tus-Version")).hasValue("1.0.0");
        assertThat(r.headers().firstValue("Tus-Extension")).hasValue("creation,termination,expiration,checksum");
        assertThat(r.headers().firstValue("Tus-Max-Size")).hasValue("1099511627776");
        assertThat(r.headers().firstValue("Tus-Checksum-Algorithm").orElseThrow())
                .contains("sha1");
    }

    @Test
    void threeChunksMakeTheFileWithItsBytesAndSha1() throws Exception {
        byte[] data = random(3 * 1024 * 1024 + 17, 1);
        HttpResponse<String> created = create(owner, data.length, "user", "/tus-three.bin");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        assertThat(created.headers().firstValue("Upload-Expires")).isPresent();
        String at = created.headers().firstValue("Location").orElseThrow();
        assertThat(at).startsWith("/api/v1/uploads/");
        int[] cuts = {0, 1024 * 1024, 2 * 1024 * 1024, data.length};
        for (int i = 0; i < 3; i++) {
            byte[] chunk = Arrays.copyOfRange(data, cuts[i], cuts[i + 1]);
            HttpResponse<String> r = patch(owner, at, cuts[i], chunk, sha1(chunk));
            assertThat(r.statusCode()).as(r.body()).isEqualTo(204);
            assertThat(offsetOf(r)).isEqualTo(cuts[i + 1]);
            if (i == 0) {
                HttpResponse<String> h = head(owner, at);
                assertThat(h.statusCode()).isEqualTo(200);
                assertThat(offsetOf(h)).isEqualTo(cuts[1]);
                assertThat(h.headers().firstValue("Upload-Length")).hasValue(Long.toString(data.length));
                assertThat(h.headers().firstValue("Cache-Control")).hasValue("no-store");
                assertThat(Files.exists(mine("tus-three.bin"))).isFalse();
                assertThat(Api.as(owner).get("/api/v1/files/user").asString()).doesNotContain(at.substring(16));
            }
        }
        byte[] onDisk = Files.readAllBytes(mine("tus-three.bin"));
        assertThat(onDisk).isEqualTo(data);
        assertThat(sha1(onDisk)).isEqualTo(sha1(data));
        assertThat(part(at)).isNull();
        assertThat(head(owner, at).statusCode()).isEqualTo(404);
        assertThat(Db.count("SELECT count(*) FROM audit_log WHERE action = 'file.upload' AND target_id = 'user:"
                        + ownerSlug + ":/tus-three.bin'"))
                .isEqualTo(1);
    }

    @Test
    void aPatchAtAnotherOffsetIs409AndChangesNothing() throws Exception {
        String at = location(owner, 100, "user", "/tus-offset.bin");
        HttpResponse<String> r = patch(owner, at, 5, new byte[10], null);
        assertThat(r.statusCode()).isEqualTo(409);
        assertThat(r.body()).contains("OffsetMismatch");
        HttpResponse<String> h = head(owner, at);
        assertThat(offsetOf(h)).isZero();
        assertThat(Files.size(part(at))).isZero();
    }

    @Test
    void aBadChecksumIs460AndKeepsTheOffset() throws Exception {
        String at = location(owner, 200, "user", "/tus-sum.bin");
        byte[] first = random(100, 2);
        assertThat(patch(owner, at, 0, first, sha1(first)).statusCode()).isEqualTo(204);
        byte[] second = random(100, 3);
        HttpResponse<String> bad = patch(owner, at, 100, second, sha1(first));
        assertThat(bad.statusCode()).isEqualTo(460);
        assertThat(bad.body()).contains("ChecksumMismatch");
        assertThat(offsetOf(head(owner, at))).isEqualTo(100);
        assertThat(Files.readAllBytes(part(at))).isEqualTo(first);
        HttpResponse<String> unknown = patch(owner, at, 100, second, "crc99 AAAA");
        assertThat(unknown.statusCode()).isEqualTo(400);
        assertThat(patch(owner, at, 100, second, sha1(second)).statusCode()).isEqualTo(204);
        byte[] both = new byte[200];
        System.arraycopy(first, 0, both, 0, 100);
        System.arraycopy(second, 0, both, 100, 100);
        assertThat(Files.readAllBytes(mine("tus-sum.bin"))).isEqualTo(both);
    }

    @Test
    void badRequestsAre4xxAndCreateNothing() throws Exception {
        long before = Db.count("SELECT count(*) FROM tus_uploads");
        HttpResponse<String> noVersion = send(HttpRequest.newBuilder(URI.create(base + "api/v1/uploads"))
                .header("Authorization", "Bearer " + owner)
                .header("Upload-Length", "10")
                .header("Upload-Metadata", metadata(Map.of("space", "user", "path", "/x.bin")))
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertThat(noVersion.statusCode()).isEqualTo(412);
        HttpResponse<String> noLength = send(request(owner, "/api/v1/uploads")
                .header("Upload-Metadata", metadata(Map.of("space", "user", "path", "/x.bin")))
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertThat(noLength.statusCode()).isEqualTo(400);
        assertThat(create(owner, 10, "user", "/../x.bin").statusCode()).isEqualTo(400);
        assertThat(create(owner, 10, "account:tus-nowhere", "/x.bin").statusCode())
                .isEqualTo(404);
        assertThat(create(owner, 10, "user", "/no-folder/x.bin").statusCode()).isEqualTo(404);
        assertThat(send(request(owner, "/api/v1/uploads")
                                .header("Upload-Length", "10")
                                .header("Upload-Metadata", "space !!!")
                                .POST(HttpRequest.BodyPublishers.noBody()))
                        .statusCode())
                .isEqualTo(400);
        Api.as(owner).get("/api/v1/files/user").then().statusCode(200);
        Files.writeString(mine("tus-exists.txt"), "here");
        HttpResponse<String> exists = create(owner, 10, "user", "/tus-exists.txt");
        assertThat(exists.statusCode()).isEqualTo(409);
        assertThat(exists.body()).contains("AlreadyExists");
        assertThat(Db.count("SELECT count(*) FROM tus_uploads")).isEqualTo(before);

        String at = location(owner, 10, "user", "/tus-type.bin");
        HttpResponse<String> wrongType = send(request(owner, at)
                .header("Content-Type", "application/octet-stream")
                .header("Upload-Offset", "0")
                .method("PATCH", HttpRequest.BodyPublishers.ofByteArray(new byte[10])));
        assertThat(wrongType.statusCode()).isEqualTo(415);
        HttpResponse<String> tooLong = patch(owner, at, 0, new byte[11], null);
        assertThat(tooLong.statusCode()).isEqualTo(413);
        assertThat(offsetOf(head(owner, at))).isZero();
        assertThat(Files.size(part(at))).isZero();
    }

    @Test
    void anUploadOverQuotaIsRefusedBeforeAnyByte() throws Exception {
        HttpResponse<String> r = create(owner, 1500, "account:tus-full", "/big.bin");
        assertThat(r.statusCode()).isEqualTo(413);
        assertThat(r.body()).contains("FileQuotaExceeded", "\"addBytes\":1500", "\"limitBytes\":1000");
        assertThat(Files.exists(spaces().resolve("accounts/tus-full/big.bin"))).isFalse();
        Path staging = spaces().resolve(".uploads/accounts/tus-full");
        if (Files.exists(staging)) {
            try (Stream<Path> left = Files.list(staging)) {
                assertThat(left).isEmpty();
            }
        }
        assertThat(Db.count("SELECT count(*) FROM tus_uploads WHERE space = 'account:tus-full'"))
                .isZero();
    }

    @Test
    void terminatingReleasesTheReservation() throws Exception {
        String first = location(owner, 700, "account:tus-release", "/a.bin");
        assertThat(patch(owner, first, 0, new byte[300], null).statusCode()).isEqualTo(204);
        HttpResponse<String> second = create(owner, 600, "account:tus-release", "/b.bin");
        assertThat(second.statusCode()).as("700 of 1000 bytes are reserved").isEqualTo(413);
        HttpResponse<String> put = http.send(
                HttpRequest.newBuilder(URI.create(base + "api/v1/files/account:tus-release/c.bin"))
                        .header("Authorization", "Bearer " + owner)
                        .PUT(HttpRequest.BodyPublishers.ofByteArray(new byte[600]))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(put.statusCode())
                .as("a plain upload counts the reservation too")
                .isEqualTo(413);
        Path part = part(first);
        assertThat(part).exists();
        assertThat(delete(owner, first).statusCode()).isEqualTo(204);
        assertThat(head(owner, first).statusCode()).isEqualTo(404);
        assertThat(part).doesNotExist();
        String again = location(owner, 600, "account:tus-release", "/b.bin");
        assertThat(patch(owner, again, 0, new byte[600], null).statusCode()).isEqualTo(204);
        assertThat(Files.size(spaces().resolve("accounts/tus-release/b.bin"))).isEqualTo(600);
    }

    @Test
    void nobodyElseSeesOrTouchesAnUpload() throws Exception {
        String at = location(owner, 50, "user", "/tus-private.bin");
        assertThat(head(other, at).statusCode()).isEqualTo(404);
        assertThat(patch(other, at, 0, new byte[50], null).statusCode()).isEqualTo(404);
        assertThat(delete(other, at).statusCode()).isEqualTo(404);
        assertThat(head(owner, at).statusCode()).isEqualTo(200);
        assertThat(offsetOf(head(owner, at))).isZero();
        assertThat(Files.size(part(at))).isZero();
        HttpResponse<String> anonymous =
                send(HttpRequest.newBuilder(URI.create(base.toString()).resolve(at))
                        .header("Tus-Resumable", "1.0.0")
                        .method("HEAD", HttpRequest.BodyPublishers.noBody()));
        assertThat(anonymous.statusCode()).isEqualTo(401);
    }

    @Test
    void anExpiredUploadIsSweptAndReleased() throws Exception {
        String at = location(owner, 40, "user", "/tus-expired.bin");
        assertThat(patch(owner, at, 0, new byte[20], null).statusCode()).isEqualTo(204);
        Path part = part(at);
        String id = at.substring(at.lastIndexOf('/') + 1);
        try (Connection c = Db.connection();
                PreparedStatement s = c.prepareStatement(
                        "UPDATE tus_uploads SET expires_at = now() - interval '1 minute' WHERE id = ?")) {
            s.setString(1, id);
            assertThat(s.executeUpdate()).isEqualTo(1);
        }
        assertThat(head(owner, at).statusCode()).isEqualTo(410);
        assertThat(uploads.sweep()).isGreaterThanOrEqualTo(1);
        assertThat(head(owner, at).statusCode()).isEqualTo(404);
        assertThat(part).doesNotExist();
        assertThat(Db.count("SELECT count(*) FROM tus_uploads WHERE id = '" + id + "'"))
                .isZero();
        assertThat(Files.exists(mine("tus-expired.bin"))).isFalse();
    }

    @Test
    void aRealTusClientResumesAnInterruptedUpload() throws Exception {
        File webui = new File(System.getProperty("crater.webui.dir", "src/main/webui"));
        assertThat(new File(webui, "node_modules/tus-js-client"))
                .as("tus-js-client is installed (npm ci in src/main/webui, as make test-ui does)")
                .exists();
        Path dir = Files.createTempDirectory("tus-client");
        Path source = dir.resolve("source.bin");
        byte[] data = random(5 * 1024 * 1024 + 321, 4);
        Files.write(source, data);
        ProcessBuilder pb = new ProcessBuilder("node", "e2e/tus-resume.mjs")
                .directory(webui)
                .redirectError(dir.resolve("stderr.txt").toFile());
        pb.environment().put("CRATER_URL", base.toString());
        pb.environment().put("CRATER_TOKEN", owner);
        pb.environment().put("SOURCE", source.toString());
        pb.environment().put("TUS_STORE", dir.resolve("store.json").toString());
        pb.environment().put("SPACE", "user");
        pb.environment().put("TARGET_PATH", "/tus-client.bin");
        pb.environment().put("CHUNK", Integer.toString(1024 * 1024));
        Process node = pb.start();
        String out = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(node.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(node.exitValue())
                .as(out + Files.readString(dir.resolve("stderr.txt")))
                .isZero();
        var report = new com.fasterxml.jackson.databind.ObjectMapper().readTree(out.trim());
        assertThat(report.at("/interrupted/accepted").asLong()).isEqualTo(1024 * 1024);
        assertThat(report.at("/resumed/url").asText())
                .isEqualTo(report.at("/interrupted/url").asText());
        assertThat(report.at("/resumed/firstAccepted").asLong())
                .as("the resumed upload went on from the server's offset")
                .isGreaterThan(1024 * 1024);
        assertThat(Files.readAllBytes(mine("tus-client.bin"))).isEqualTo(data);
    }

    /**
     * A PATCH holds its upload while its body flows, past the hold's length ({@code lock-for}, 2 s in tests), since it
     * renews it: another PATCH meanwhile is 423. A hold nobody renews (its replica died) lapses, and the upload is
     * taken over from the stored offset.
     */
    @Test
    void aFlowingPatchKeepsItsHoldAndADeadOnesHoldLapses() throws Exception {
        byte[] data = random(2 * 1024 * 1024, 9);
        String at = location(owner, data.length, "user", "/tus-held.bin");
        java.io.PipedOutputStream feed = new java.io.PipedOutputStream();
        java.io.PipedInputStream body = new java.io.PipedInputStream(feed, 1 << 16);
        var slow = HttpClient.newHttpClient()
                .sendAsync(
                        request(owner, at)
                                .header("Content-Type", TYPE)
                                .header("Upload-Offset", "0")
                                .method("PATCH", HttpRequest.BodyPublishers.ofInputStream(() -> body))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        feed.write(data, 0, data.length / 2);
        feed.flush();
        String id = at.substring(at.lastIndexOf('/') + 1);
        org.awaitility.Awaitility.await()
                .atMost(java.time.Duration.ofSeconds(10))
                .until(() ->
                        Db.count("SELECT count(*) FROM tus_uploads WHERE id = '" + id + "' AND patch_token IS NOT NULL")
                                == 1);
        Thread.sleep(3_000);
        HttpResponse<String> second = patch(owner, at, 0, new byte[10], null);
        assertThat(second.statusCode()).as(second.body()).isEqualTo(423);
        assertThat(second.body()).contains("UploadLocked");
        feed.write(data, data.length / 2, data.length - data.length / 2);
        feed.close();
        HttpResponse<String> first = slow.get(30, TimeUnit.SECONDS);
        assertThat(first.statusCode()).as(first.body()).isEqualTo(204);
        assertThat(Files.readAllBytes(mine("tus-held.bin"))).isEqualTo(data);

        String other = location(owner, 10, "user", "/tus-lapsed.bin");
        String otherId = other.substring(other.lastIndexOf('/') + 1);
        try (Connection c = Db.connection();
                PreparedStatement held = c.prepareStatement(
                        "UPDATE tus_uploads SET patch_token = 'a-replica-that-died', patch_since = now() - ?::interval"
                                + " WHERE id = ?")) {
            held.setString(1, "0 seconds");
            held.setString(2, otherId);
            held.executeUpdate();
            assertThat(patch(owner, other, 0, new byte[10], null).statusCode()).isEqualTo(423);
            held.setString(1, "1 minute");
            held.executeUpdate();
        }
        HttpResponse<String> takeover = patch(owner, other, 0, new byte[10], null);
        assertThat(takeover.statusCode()).as(takeover.body()).isEqualTo(204);
        assertThat(Files.readAllBytes(mine("tus-lapsed.bin"))).isEqualTo(new byte[10]);
    }
}
