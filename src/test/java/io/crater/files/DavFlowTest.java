package io.crater.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.crater.Api;
import io.crater.CraterTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * WebDAV end to end: a real rclone copies a tree up and down, lists, moves and deletes through {@code /dav/}; raw
 * requests check the refusals (infinite depth, hostile paths, other accounts, read-only members, quota, foreign
 * destinations) and that nothing changed on disk when refused.
 */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DavFlowTest {

    static final String PW = "Dav-pass-2026";
    static final HttpClient HTTP = HttpClient.newHttpClient();

    @TestHTTPResource("/")
    URL base;

    String ownerPat;
    String readerPat;
    String outsiderPat;
    String ownerSlug;

    @BeforeEach
    synchronized void people() {
        if (ownerPat != null) {
            return;
        }
        String owner = Api.user("dv.owner", PW);
        ownerPat = pat(owner);
        readerPat = pat(Api.user("dv.reader", PW));
        outsiderPat = pat(Api.user("dv.out", PW));
        ownerSlug =
                Api.as(owner).get("/api/v1/me").then().statusCode(200).extract().path("slug");
        for (String slug : List.of("dv-lab", "dv-other", "dv-quota")) {
            Api.admin().body(Map.of("slug", slug, "name", slug)).post("/api/v1/accounts");
        }
        FilesFlowTest.member("dv-lab", "dv.owner", "rw");
        FilesFlowTest.member("dv-lab", "dv.reader", "ro");
        FilesFlowTest.member("dv-other", "dv.out", "rw");
        FilesFlowTest.member("dv-quota", "dv.owner", "rw");
    }

    static String pat(String session) {
        return Api.as(session)
                .body(Map.of("name", "laptop"))
                .post("/api/v1/me/tokens")
                .then()
                .statusCode(201)
                .extract()
                .path("token");
    }

    static Path spaces() {
        return CraterTestResource.home().resolve("spaces");
    }

    String dav(String path) {
        return base.toString() + "dav/" + path;
    }

    // ---- rclone

    @Test
    void rcloneCopiesUpListsCopiesDownMovesAndDeletes() throws Exception {
        Path local = Files.createTempDirectory("dav-up");
        Map<String, byte[]> tree = new TreeMap<>();
        Random random = new Random(7);
        for (String name : List.of("a.txt", "spaced name.txt", "sub/b.bin", "sub/deep/c.txt", "sub/deep/ü.txt")) {
            // The .bin is larger than the HTTP layer's body limit for REST requests (10 MiB), which uploads bypass.
            byte[] bytes = new byte[name.endsWith(".bin") ? 24 << 20 : 10 + random.nextInt(100)];
            random.nextBytes(bytes);
            tree.put(name, bytes);
            Files.createDirectories(local.resolve(name).getParent());
            Files.write(local.resolve(name), bytes);
        }
        Map<String, String> env = basic("X", dav("user"), "dv.owner", ownerPat);
        rclone(env, "copy", local.toString(), "X:up");
        Path mine = spaces().resolve("users/" + ownerSlug + "/up");
        for (var e : tree.entrySet()) {
            assertThat(Files.readAllBytes(mine.resolve(e.getKey())))
                    .as(e.getKey())
                    .isEqualTo(e.getValue());
        }

        Map<String, Long> listed = new TreeMap<>();
        for (JsonNode n : new ObjectMapper().readTree(rclone(env, "lsjson", "-R", "X:up"))) {
            listed.put(
                    n.get("Path").asText(),
                    n.get("IsDir").asBoolean() ? -1 : n.get("Size").asLong());
        }
        Map<String, Long> expected = new TreeMap<>(Map.of("sub", -1L, "sub/deep", -1L));
        tree.forEach((k, v) -> expected.put(k, (long) v.length));
        assertThat(listed).isEqualTo(expected);

        Path down = Files.createTempDirectory("dav-down");
        rclone(env, "copy", "X:up", down.toString());
        for (var e : tree.entrySet()) {
            assertThat(Files.readAllBytes(down.resolve(e.getKey())))
                    .as(e.getKey())
                    .isEqualTo(e.getValue());
        }

        rclone(env, "moveto", "X:up/a.txt", "X:up/sub/a-moved.txt");
        assertThat(mine.resolve("a.txt")).doesNotExist();
        assertThat(Files.readAllBytes(mine.resolve("sub/a-moved.txt"))).isEqualTo(tree.get("a.txt"));
        rclone(env, "deletefile", "X:up/spaced name.txt");
        assertThat(mine.resolve("spaced name.txt")).doesNotExist();
        rclone(env, "purge", "X:up/sub");
        assertThat(mine.resolve("sub")).doesNotExist();
        List<String> trashed = Api.as(Api.login("dv.owner", PW))
                .get("/api/v1/trash/user")
                .jsonPath()
                .getList("path");
        assertThat(trashed).contains("/up/spaced name.txt", "/up/sub");
        assertThat(Api.admin()
                        .get("/api/v1/audit?action=file.upload&limit=200")
                        .jsonPath()
                        .getList("items.targetId", String.class))
                .contains("user:" + ownerSlug + ":/up/sub/deep/c.txt");
    }

    @Test
    void rcloneWithABearerTokenWritesAnAccountSpace() throws Exception {
        Path local = Files.createTempDirectory("dav-lab");
        Files.writeString(local.resolve("notes.txt"), "shared notes");
        Map<String, String> env = new HashMap<>(Map.of(
                "RCLONE_CONFIG_L_TYPE",
                "webdav",
                "RCLONE_CONFIG_L_URL",
                dav("account%3Adv-lab"),
                "RCLONE_CONFIG_L_VENDOR",
                "other",
                "RCLONE_CONFIG_L_BEARER_TOKEN",
                ownerPat));
        rclone(env, "copy", local.toString(), "L:from-laptop");
        assertThat(spaces().resolve("accounts/dv-lab/from-laptop/notes.txt")).hasContent("shared notes");
        assertThat(rclone(env, "cat", "L:from-laptop/notes.txt")).isEqualTo("shared notes");
    }

    static Map<String, String> basic(String remote, String url, String user, String token) throws Exception {
        Map<String, String> env = new HashMap<>();
        env.put("RCLONE_CONFIG_" + remote + "_TYPE", "webdav");
        env.put("RCLONE_CONFIG_" + remote + "_URL", url);
        env.put("RCLONE_CONFIG_" + remote + "_VENDOR", "other");
        env.put("RCLONE_CONFIG_" + remote + "_USER", user);
        env.put(
                "RCLONE_CONFIG_" + remote + "_PASS",
                run(Map.of(), "obscure", token).trim());
        return env;
    }

    static String rclone(Map<String, String> env, String... args) throws Exception {
        return run(env, args);
    }

    private static String run(Map<String, String> env, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("rclone", "--config", "/dev/null", "--low-level-retries", "1"));
        cmd.addAll(List.of("--retries", "1"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(false);
        pb.environment().putAll(env);
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            return fail("rclone is not on the PATH: `make test` installs it (Debian package rclone)", e);
        }
        byte[] out = p.getInputStream().readAllBytes();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue())
                .as("rclone %s: %s", String.join(" ", args), err)
                .isZero();
        return new String(out, StandardCharsets.UTF_8);
    }

    // ---- raw HTTP

    HttpResponse<String> call(String method, String path, String token, Map<String, String> headers, byte[] body)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(dav(path)))
                .method(
                        method,
                        body == null
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofByteArray(body));
        if (token != null) {
            b.header("Authorization", "Basic " + Base64.getEncoder().encodeToString((":" + token).getBytes()));
        }
        headers.forEach(b::header);
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> call(String method, String path, String token, Map<String, String> headers) throws Exception {
        return call(method, path, token, headers, null);
    }

    String bearerBasic(String user, String token) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + token).getBytes());
    }

    @Test
    void optionsAuthenticationAndPropfind() throws Exception {
        HttpResponse<String> options = call("OPTIONS", "user/", null, Map.of());
        assertThat(options.statusCode()).isEqualTo(200);
        assertThat(options.headers().firstValue("DAV")).hasValue("1");
        assertThat(options.headers().firstValue("Allow").orElse("")).contains("PROPFIND", "MKCOL", "MOVE");

        HttpResponse<String> anonymous = call("PROPFIND", "user/", null, Map.of("Depth", "0"));
        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(anonymous.headers().firstValue("WWW-Authenticate").orElse(""))
                .startsWith("Basic realm=\"crater\"");
        String session = Api.login("dv.owner", PW);
        assertThat(call("PROPFIND", "user/", null, Map.of("Depth", "0", "Cookie", "crater_access=" + session))
                        .statusCode())
                .as("the console's cookie does not sign in to WebDAV")
                .isEqualTo(401);
        assertThat(call(
                                "PROPFIND",
                                "user/",
                                null,
                                Map.of("Depth", "0", "Authorization", bearerBasic("dv.out", ownerPat)))
                        .statusCode())
                .as("the username must be the token's user")
                .isEqualTo(401);
        assertThat(call(
                                "PROPFIND",
                                "user/",
                                null,
                                Map.of("Depth", "0", "Authorization", bearerBasic("dv.owner", ownerPat)))
                        .statusCode())
                .isEqualTo(207);
        assertThat(call("PROPFIND", "user/", null, Map.of("Depth", "0", "Authorization", "Bearer " + ownerPat))
                        .statusCode())
                .isEqualTo(207);

        assertThat(call("PUT", "user/p/one.txt", ownerPat, Map.of(), "x".getBytes())
                        .statusCode())
                .as("a missing folder is a conflict")
                .isEqualTo(409);
        assertThat(call("MKCOL", "user/p", ownerPat, Map.of()).statusCode()).isEqualTo(201);
        assertThat(call("MKCOL", "user/p", ownerPat, Map.of()).statusCode()).isEqualTo(405);
        assertThat(call("MKCOL", "user/none/q", ownerPat, Map.of()).statusCode())
                .isEqualTo(409);
        assertThat(call("MKCOL", "user/q", ownerPat, Map.of(), "<x/>".getBytes())
                        .statusCode())
                .isEqualTo(415);
        assertThat(spaces().resolve("users/" + ownerSlug + "/q")).doesNotExist();
        assertThat(call("PUT", "user/p/one.txt", ownerPat, Map.of(), "hello world".getBytes())
                        .statusCode())
                .isEqualTo(201);
        assertThat(call("PUT", "user/p/one.txt", ownerPat, Map.of(), "hello dav".getBytes())
                        .statusCode())
                .isEqualTo(204);
        assertThat(call("PUT", "user/p/one.txt", ownerPat, Map.of("If-None-Match", "*"), "no".getBytes())
                        .statusCode())
                .isEqualTo(412);
        assertThat(spaces().resolve("users/" + ownerSlug + "/p/one.txt")).hasContent("hello dav");

        HttpResponse<String> part = call("GET", "user/p/one.txt", ownerPat, Map.of("Range", "bytes=6-8"));
        assertThat(part.statusCode()).isEqualTo(206);
        assertThat(part.body()).isEqualTo("dav");
        assertThat(part.headers().firstValue("Content-Range")).hasValue("bytes 6-8/9");
        HttpResponse<String> head = call("HEAD", "user/p/one.txt", ownerPat, Map.of());
        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.headers().firstValue("Content-Length")).hasValue("9");

        HttpResponse<String> one = call("PROPFIND", "user/p", ownerPat, Map.of("Depth", "1"));
        assertThat(one.statusCode()).isEqualTo(207);
        assertThat(one.body())
                .contains("<D:href>/dav/user/p/</D:href>", "<D:collection/>", "<D:href>/dav/user/p/one.txt</D:href>")
                .contains("<D:getcontentlength>9</D:getcontentlength>", "GMT</D:getlastmodified>", "<D:getetag>");
        String ask = "<?xml version=\"1.0\"?><D:propfind xmlns:D=\"DAV:\" xmlns:Z=\"urn:z\"><D:prop>"
                + "<D:getcontentlength/><Z:color/></D:prop></D:propfind>";
        HttpResponse<String> named = call("PROPFIND", "user/p/one.txt", ownerPat, Map.of("Depth", "0"), ask.getBytes());
        assertThat(named.body())
                .contains("<D:getcontentlength>9</D:getcontentlength>", "HTTP/1.1 404 Not Found")
                .doesNotContain("getlastmodified");

        for (Map<String, String> infinite : List.of(Map.of("Depth", "infinity"), Map.<String, String>of())) {
            HttpResponse<String> deep = call("PROPFIND", "user/", ownerPat, infinite);
            assertThat(deep.statusCode()).isEqualTo(403);
            assertThat(deep.body()).contains("<D:propfind-finite-depth/>");
        }
        HttpResponse<String> patch = call(
                "PROPPATCH",
                "user/p/one.txt",
                ownerPat,
                Map.of(),
                ("<D:propertyupdate xmlns:D=\"DAV:\"><D:set><D:prop><D:displayname>x</D:displayname>"
                                + "</D:prop></D:set></D:propertyupdate>")
                        .getBytes());
        assertThat(patch.statusCode()).isEqualTo(207);
        assertThat(patch.body()).contains("<D:displayname/>", "HTTP/1.1 403 Forbidden");
    }

    @Test
    void moveAndCopyCheckTheirDestination() throws Exception {
        assertThat(call("MKCOL", "user/mv", ownerPat, Map.of()).statusCode()).isEqualTo(201);
        assertThat(call("PUT", "user/mv/a.txt", ownerPat, Map.of(), "aaa".getBytes())
                        .statusCode())
                .isEqualTo(201);
        assertThat(call("PUT", "user/mv/b.txt", ownerPat, Map.of(), "bbb".getBytes())
                        .statusCode())
                .isEqualTo(201);
        Path mv = spaces().resolve("users/" + ownerSlug + "/mv");
        String here = base.getHost() + ":" + base.getPort();
        for (String foreign : List.of(
                "http://elsewhere.example/dav/user/mv/c.txt",
                "http://" + here + "/api/v1/files/user/mv/c.txt",
                "http://" + here + "/dav/user/mv/..%2Fc.txt",
                "not a uri")) {
            HttpResponse<String> r = call("MOVE", "user/mv/a.txt", ownerPat, Map.of("Destination", foreign));
            assertThat(r.statusCode()).as(foreign).isEqualTo(400);
        }
        assertThat(call(
                                "MOVE",
                                "user/mv/a.txt",
                                ownerPat,
                                Map.of("Destination", dav("user/mv/b.txt"), "Overwrite", "F"))
                        .statusCode())
                .isEqualTo(412);
        assertThat(mv.resolve("a.txt")).hasContent("aaa");
        assertThat(mv.resolve("b.txt")).hasContent("bbb");
        assertThat(call("COPY", "user/mv/a.txt", ownerPat, Map.of("Destination", "/dav/user/mv/c.txt"))
                        .statusCode())
                .isEqualTo(201);
        assertThat(call("MOVE", "user/mv/a.txt", ownerPat, Map.of("Destination", dav("user/mv/b.txt")))
                        .statusCode())
                .isEqualTo(204);
        assertThat(mv.resolve("a.txt")).doesNotExist();
        assertThat(mv.resolve("b.txt")).hasContent("aaa");
        assertThat(mv.resolve("c.txt")).hasContent("aaa");
        assertThat(call("MOVE", "user/mv", ownerPat, Map.of("Destination", dav("user/mv/inner")))
                        .statusCode())
                .isEqualTo(403);
        assertThat(call("COPY", "user/mv/c.txt", ownerPat, Map.of("Destination", dav("account:dv-other/c.txt")))
                        .statusCode())
                .as("another account's space is not there for this caller")
                .isEqualTo(404);
        assertThat(call("COPY", "user/mv/c.txt", ownerPat, Map.of("Destination", dav("account%3Adv-lab/c.txt")))
                        .statusCode())
                .isEqualTo(201);
        assertThat(spaces().resolve("accounts/dv-lab/c.txt")).hasContent("aaa");
    }

    @Test
    void hostilePathsTouchNothingOutsideTheSpace() throws Exception {
        List<String> hostile = List.of(
                "user/..%2F..%2Fdav-escape",
                "user/%2e%2e/%2e%2e/dav-escape",
                "user/a%2F..%2F..%2F..%2Fdav-escape",
                "user/dav-escape%00.txt",
                "user/%C0%AE%C0%AE/dav-escape",
                "user/..%5C..%5Cdav-escape",
                "%2e%2e/dav-escape",
                "user%2F..%2F..%2Fdav-escape");
        for (String p : hostile) {
            for (String method : List.of("PUT", "MKCOL", "PROPFIND", "DELETE")) {
                HttpResponse<String> r =
                        call(method, p, ownerPat, Map.of("Depth", "0"), method.equals("PUT") ? "x".getBytes() : null);
                assertThat(r.statusCode()).as("%s %s", method, p).isBetween(400, 499);
            }
        }
        try (Stream<Path> all = Files.walk(CraterTestResource.home())) {
            assertThat(all.filter(f -> f.getFileName().toString().contains("dav-escape")))
                    .isEmpty();
        }
    }

    @Test
    void othersGet404AndReadersGet403WithNothingChanged() throws Exception {
        assertThat(call("PUT", "account:dv-lab/keep.txt", ownerPat, Map.of(), "keep".getBytes())
                        .statusCode())
                .isIn(201, 204);
        Path lab = spaces().resolve("accounts/dv-lab");
        assertThat(call("PUT", "user/mine.txt", readerPat, Map.of(), "mine".getBytes())
                        .statusCode())
                .isIn(201, 204);
        for (String method : List.of("PROPFIND", "GET", "PUT", "MKCOL", "DELETE")) {
            assertThat(call(method, "account:dv-lab/keep.txt", outsiderPat, Map.of("Depth", "0"), new byte[0])
                            .statusCode())
                    .as("%s by another account's member", method)
                    .isEqualTo(404);
        }
        assertThat(call("PROPFIND", "account:dv-nowhere/", outsiderPat, Map.of("Depth", "0"))
                        .statusCode())
                .isEqualTo(404);
        assertThat(call("PROPFIND", "account:dv-lab/", readerPat, Map.of("Depth", "1"))
                        .statusCode())
                .isEqualTo(207);
        List<HttpResponse<String>> refused = List.of(
                call("PUT", "account:dv-lab/new.txt", readerPat, Map.of(), "new".getBytes()),
                call("PUT", "account:dv-lab/keep.txt", readerPat, Map.of(), "changed".getBytes()),
                call("MKCOL", "account:dv-lab/newdir", readerPat, Map.of()),
                call("DELETE", "account:dv-lab/keep.txt", readerPat, Map.of()),
                call("MOVE", "account:dv-lab/keep.txt", readerPat, Map.of("Destination", dav("account:dv-lab/m.txt"))),
                call("MOVE", "user/mine.txt", readerPat, Map.of("Destination", dav("account:dv-lab/m.txt"))));
        for (HttpResponse<String> r : refused) {
            assertThat(r.statusCode())
                    .as(r.request().method() + " " + r.request().uri())
                    .isEqualTo(403);
            assertThat(r.body()).contains("ReadOnlySpace");
        }
        assertThat(lab.resolve("keep.txt")).hasContent("keep");
        assertThat(lab.resolve("new.txt")).doesNotExist();
        assertThat(lab.resolve("newdir")).doesNotExist();
        assertThat(lab.resolve("m.txt")).doesNotExist();
    }

    @Test
    void anUploadOverTheQuotaLeavesNothing() throws Exception {
        Api.admin()
                .body(Map.of("maxBytes", 1000, "maxFiles", 100))
                .put("/api/v1/spaces/account:dv-quota/quota")
                .then()
                .statusCode(200);
        assertThat(call("PUT", "account:dv-quota/small.bin", ownerPat, Map.of(), new byte[600])
                        .statusCode())
                .isIn(201, 204);
        HttpResponse<String> big = call("PUT", "account:dv-quota/big.bin", ownerPat, Map.of(), new byte[500]);
        assertThat(big.statusCode()).isEqualTo(507);
        assertThat(big.body()).contains("FileQuotaExceeded");
        try (Stream<Path> left = Files.list(spaces().resolve("accounts/dv-quota"))) {
            assertThat(left.map(p -> p.getFileName().toString())).containsExactly("small.bin");
        }
    }
}
