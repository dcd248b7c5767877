package io.crater.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.crater.TestAuth;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The file API end to end: uploads, listings, ranges, zips, moves, copies, the trash; who may see and change which
 * space; quotas refusing an upload before it lands; a large folder streamed as events.
 */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FilesFlowTest {

    static final String PW = "Files-pass-2026";

    @TestHTTPResource("/")
    URL base;

    String owner;
    String reader;
    String outsider;
    String ownerSlug;

    @org.junit.jupiter.api.BeforeEach
    synchronized void people() {
        if (owner != null) {
            return;
        }
        owner = Api.user("fl.owner", PW);
        reader = Api.user("fl.reader", PW);
        outsider = Api.user("fl.out", PW);
        ownerSlug =
                Api.as(owner).get("/api/v1/me").then().statusCode(200).extract().path("slug");
        for (String slug : List.of("fl-lab", "fl-other", "fl-quota")) {
            Api.admin().body(Map.of("slug", slug, "name", slug)).post("/api/v1/accounts");
        }
        member("fl-lab", "fl.owner", "rw");
        member("fl-lab", "fl.reader", "ro");
        member("fl-other", "fl.out", "rw");
        member("fl-quota", "fl.owner", "rw");
    }

    static void member(String account, String user, String access) {
        Api.admin()
                .body(Map.of("role", "member", "fileAccess", access))
                .put("/api/v1/accounts/" + account + "/members/" + user)
                .then()
                .statusCode(200);
    }

    static Path spaces() {
        return CraterTestResource.home().resolve("spaces");
    }

    HttpResponse<String> put(String token, String path, byte[] body) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create(base.toString() + "api/v1/files/" + path))
                .header("Authorization", "Bearer " + token)
                .PUT(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
        return HttpClient.newHttpClient().send(req, HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void uploadListReadMoveCopyDeleteAndRestore() throws Exception {
        Api.as(owner)
                .body(Map.of("action", "mkdir"))
                .post("/api/v1/files/user/trip")
                .then()
                .statusCode(201);
        Api.as(owner)
                .body(Map.of("action", "mkdir"))
                .post("/api/v1/files/user/trip/zdir")
                .then()
                .statusCode(201);
        HttpResponse<String> up = put(owner, "user/trip/a.txt", "hello world".getBytes(StandardCharsets.UTF_8));
        assertThat(up.statusCode()).as(up.body()).isEqualTo(201);
        assertThat(up.body()).contains("\"path\":\"/trip/a.txt\"", "\"size\":11");
        HttpResponse<String> again = put(owner, "user/trip/a.txt", new byte[] {1});
        assertThat(again.statusCode()).isEqualTo(409);
        assertThat(again.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(again.body()).contains("AlreadyExists");
        assertThat(Files.readString(spaces().resolve("users/" + ownerSlug + "/trip/a.txt")))
                .isEqualTo("hello world");

        Response list = Api.as(owner).get("/api/v1/files/user/trip");
        list.then().statusCode(200).body("total", equalTo(2));
        assertThat(list.jsonPath().getList("items.name")).containsExactly("zdir", "a.txt");
        assertThat(list.jsonPath().getList("items.type")).containsExactly("folder", "file");
        Api.as(owner).get("/api/v1/files/user/trip/zdir").then().statusCode(200).body("items.size()", equalTo(0));
        Api.as(owner)
                .get("/api/v1/files/user/trip/a.txt?stat=true")
                .then()
                .statusCode(200)
                .body("size", equalTo(11));

        Response part = Api.as(owner).header("Range", "bytes=0-4").get("/api/v1/files/user/trip/a.txt");
        assertThat(part.statusCode()).isEqualTo(206);
        assertThat(part.asString()).isEqualTo("hello");
        assertThat(part.header("Content-Range")).isEqualTo("bytes 0-4/11");
        Response whole = Api.as(owner).get("/api/v1/files/user/trip/a.txt");
        assertThat(whole.statusCode()).isEqualTo(200);
        assertThat(whole.asString()).isEqualTo("hello world");
        assertThat(whole.header("Content-Disposition")).contains("filename=\"a.txt\"");
        Response beyond = Api.as(owner).header("Range", "bytes=50-").get("/api/v1/files/user/trip/a.txt");
        assertThat(beyond.statusCode()).isEqualTo(416);
        assertThat(beyond.jsonPath().getString("code")).isEqualTo("RangeNotSatisfiable");

        assertThat(zipNames(
                        Api.as(owner).get("/api/v1/files/user/trip?format=zip").asByteArray()))
                .containsExactlyInAnyOrder("zdir/", "a.txt");

        Api.as(owner)
                .body(Map.of("action", "move", "to", "/trip/b.txt"))
                .post("/api/v1/files/user/trip/a.txt")
                .then()
                .statusCode(200)
                .body("path", equalTo("/trip/b.txt"));
        Api.as(owner)
                .body(Map.of("action", "copy", "to", "/trip/zdir/c.txt"))
                .post("/api/v1/files/user/trip/b.txt")
                .then()
                .statusCode(201);
        Api.as(owner)
                .body(Map.of("action", "copy", "to", "/trip/zdir/c.txt"))
                .post("/api/v1/files/user/trip/b.txt")
                .then()
                .statusCode(409)
                .body("code", equalTo("AlreadyExists"));
        assertThat(Files.readString(spaces().resolve("users/" + ownerSlug + "/trip/zdir/c.txt")))
                .isEqualTo("hello world");

        int trashed = Api.as(owner)
                .delete("/api/v1/files/user/trip/b.txt")
                .then()
                .statusCode(200)
                .extract()
                .path("id");
        assertThat(Files.exists(spaces().resolve("users/" + ownerSlug + "/trip/b.txt")))
                .isFalse();
        Response trash = Api.as(owner).get("/api/v1/trash/user");
        assertThat(trash.jsonPath().getList("path")).contains("/trip/b.txt");
        Api.as(owner)
                .post("/api/v1/trash/user/" + trashed + "/restore")
                .then()
                .statusCode(200)
                .body("path", equalTo("/trip/b.txt"));
        assertThat(Files.readString(spaces().resolve("users/" + ownerSlug + "/trip/b.txt")))
                .isEqualTo("hello world");
        Api.as(owner).post("/api/v1/trash/user/" + trashed + "/restore").then().statusCode(404);

        Api.as(owner)
                .delete("/api/v1/files/user/trip/zdir")
                .then()
                .statusCode(409)
                .body("code", equalTo("FolderNotEmpty"));
        Api.as(owner)
                .delete("/api/v1/files/user/trip/zdir?recursive=true")
                .then()
                .statusCode(200)
                .body("files", equalTo(2));
        assertThat(Files.exists(spaces().resolve("users/" + ownerSlug + "/trip/zdir")))
                .isFalse();
    }

    /** A plain upload is bounded by the space's quota, not by the REST layer's body limit (10 MiB). */
    @Test
    void aFileLargerThanARestBodyUploadsAndDownloadsWhole() throws Exception {
        byte[] big = new byte[40 << 20];
        new java.util.Random(40).nextBytes(big);
        HttpResponse<String> up = put(owner, "user/big-plain.bin", big);
        assertThat(up.statusCode()).as(up.body()).isEqualTo(201);
        assertThat(Files.readAllBytes(spaces().resolve("users/" + ownerSlug + "/big-plain.bin")))
                .isEqualTo(big);
        HttpResponse<byte[]> down = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(base + "api/v1/files/user/big-plain.bin"))
                                .header("Authorization", "Bearer " + owner)
                                .build(),
                        HttpResponse.BodyHandlers.ofByteArray());
        assertThat(down.statusCode()).isEqualTo(200);
        assertThat(down.body()).isEqualTo(big);
    }

    @Test
    void badPathsAndBodiesAre400sThatChangeNothing() throws Exception {
        Response nul = Api.as(owner).urlEncodingEnabled(false).get("/api/v1/files/user/a%00b");
        assertThat(nul.statusCode()).as(nul.asString()).isEqualTo(400);
        assertThat(nul.jsonPath().getString("errors[0].field")).isEqualTo("path");
        Api.as(owner)
                .urlEncodingEnabled(false)
                .get("/api/v1/files/user/..%2F..%2Fetc")
                .then()
                .statusCode(400)
                .body("errors[0].field", equalTo("path"));
        HttpResponse<String> up = put(owner, "user/x%5C..%5Cy", new byte[] {1});
        assertThat(up.statusCode()).isEqualTo(400);
        assertThat(up.version())
                .as("the h2c upgrade the client offered is declined")
                .isEqualTo(HttpClient.Version.HTTP_1_1);
        assertThat(up.body()).contains("\"field\":\"path\"");
        Api.as(owner)
                .body(Map.of("action", "explode"))
                .post("/api/v1/files/user/x")
                .then()
                .statusCode(400)
                .body("errors[0].field", equalTo("action"));
        Api.as(owner)
                .body(Map.of("action", "move", "to", "../../etc/passwd"))
                .post("/api/v1/files/user/x")
                .then()
                .statusCode(404);
        Api.as(owner)
                .body(Map.of("action", "mkdir"))
                .post("/api/v1/files/user/bad")
                .then()
                .statusCode(201);
        Api.as(owner)
                .body(Map.of("action", "move", "to", "../../etc"))
                .post("/api/v1/files/user/bad")
                .then()
                .statusCode(400)
                .body("errors[0].field", equalTo("to"));
        assertThat(Files.isDirectory(spaces().resolve("users/" + ownerSlug + "/bad")))
                .isTrue();
    }

    @Test
    void anotherAccountsMemberGets404ForEveryPath() throws Exception {
        put(owner, "account:fl-lab/shared.txt", "lab".getBytes(StandardCharsets.UTF_8));
        String before = tree(spaces().resolve("accounts/fl-lab"));
        for (String path : List.of("", "/shared.txt", "/missing", "/a/b/c")) {
            Api.as(outsider).get("/api/v1/files/account:fl-lab" + path).then().statusCode(404);
            Api.as(outsider)
                    .body(Map.of("action", "mkdir"))
                    .post("/api/v1/files/account:fl-lab" + path)
                    .then()
                    .statusCode(404);
            Api.as(outsider)
                    .delete("/api/v1/files/account:fl-lab" + path)
                    .then()
                    .statusCode(404);
            assertThat(put(outsider, "account:fl-lab" + path, new byte[] {1}).statusCode())
                    .isEqualTo(404);
        }
        Api.as(outsider).get("/api/v1/trash/account:fl-lab").then().statusCode(404);
        Api.as(outsider).get("/api/v1/files/account:no-such-account").then().statusCode(404);
        assertThat(tree(spaces().resolve("accounts/fl-lab"))).isEqualTo(before);
        assertThat(Api.as(outsider).get("/api/v1/spaces").jsonPath().getList("name"))
                .doesNotContain("account:fl-lab");
    }

    @Test
    void aReadOnlyMemberReadsButCannotWrite() throws Exception {
        put(owner, "account:fl-lab/ro.txt", "read me".getBytes(StandardCharsets.UTF_8));
        String before = tree(spaces().resolve("accounts/fl-lab"));
        assertThat(Api.as(reader).get("/api/v1/files/account:fl-lab/ro.txt").asString())
                .isEqualTo("read me");
        assertThat(put(reader, "account:fl-lab/new.txt", new byte[] {1}).statusCode())
                .isEqualTo(403);
        Api.as(reader)
                .body(Map.of("action", "mkdir"))
                .post("/api/v1/files/account:fl-lab/d")
                .then()
                .statusCode(403)
                .body("code", equalTo("ReadOnlySpace"));
        Api.as(reader)
                .body(Map.of("action", "move", "to", "/x.txt"))
                .post("/api/v1/files/account:fl-lab/ro.txt")
                .then()
                .statusCode(403);
        Api.as(reader).delete("/api/v1/files/account:fl-lab/ro.txt").then().statusCode(403);
        assertThat(tree(spaces().resolve("accounts/fl-lab"))).isEqualTo(before);
        Response spaces = Api.as(reader).get("/api/v1/spaces");
        assertThat(spaces.jsonPath().getString("find { it.name == 'account:fl-lab' }.access"))
                .isEqualTo("ro");
    }

    @Test
    void publicIsReadOnlyForAllButPlatformAdmins() throws Exception {
        assertThat(put(owner, "public/notice.txt", new byte[] {1}).statusCode()).isEqualTo(403);
        assertThat(Files.exists(spaces().resolve("public/notice.txt"))).isFalse();
        assertThat(put(TestAuth.adminToken(), "public/notice.txt", "all read".getBytes(StandardCharsets.UTF_8))
                        .statusCode())
                .isEqualTo(201);
        assertThat(Api.as(reader).get("/api/v1/files/public/notice.txt").asString())
                .isEqualTo("all read");
        Api.as(reader).delete("/api/v1/files/public/notice.txt").then().statusCode(403);
        assertThat(Files.exists(spaces().resolve("public/notice.txt"))).isTrue();
    }

    @Test
    void anUploadOverQuotaIsRefusedBeforeItLands() throws Exception {
        Api.as(owner)
                .body(Map.of("maxBytes", 1000, "maxFiles", 10))
                .put("/api/v1/spaces/account:fl-quota/quota")
                .then()
                .statusCode(403);
        Api.admin()
                .body(Map.of("maxBytes", -5))
                .put("/api/v1/spaces/account:fl-quota/quota")
                .then()
                .statusCode(400)
                .body("errors.field", org.hamcrest.Matchers.hasItems("maxBytes", "maxFiles"));
        Api.admin()
                .body(Map.of("maxBytes", 1000, "maxFiles", 10))
                .put("/api/v1/spaces/account:fl-quota/quota")
                .then()
                .statusCode(200)
                .body("bytes", equalTo(1000));
        assertThat(put(owner, "account:fl-quota/small.bin", new byte[600]).statusCode())
                .isEqualTo(201);
        HttpResponse<String> big = put(owner, "account:fl-quota/big.bin", new byte[500]);
        assertThat(big.statusCode()).isEqualTo(413);
        assertThat(big.body())
                .contains("FileQuotaExceeded", "\"usedBytes\":600", "\"addBytes\":500", "\"limitBytes\":1000");
        try (Stream<Path> left = Files.list(spaces().resolve("accounts/fl-quota"))) {
            assertThat(left.map(p -> p.getFileName().toString())).containsExactly("small.bin");
        }
        Response mine = Api.as(owner).get("/api/v1/spaces");
        assertThat(mine.jsonPath().getLong("find { it.name == 'account:fl-quota' }.usedBytes"))
                .isEqualTo(600);
        assertThat(mine.jsonPath().getLong("find { it.name == 'account:fl-quota' }.maxBytes"))
                .isEqualTo(1000);
    }

    @Test
    void aLargeFolderStreamsEveryEntryAsEvents() throws Exception {
        Api.as(owner)
                .body(Map.of("action", "mkdir"))
                .post("/api/v1/files/user/many")
                .then()
                .statusCode(201);
        Path dir = spaces().resolve("users/" + ownerSlug + "/many");
        for (int i = 0; i < 2000; i++) {
            Files.writeString(dir.resolve("f" + i + ".txt"), "x");
        }
        HttpRequest req = HttpRequest.newBuilder(URI.create(base + "api/v1/files/user/many"))
                .header("Authorization", "Bearer " + owner)
                .header("Accept", "text/event-stream")
                .build();
        HttpResponse<java.io.InputStream> r =
                HttpClient.newHttpClient().send(req, HttpResponse.BodyHandlers.ofInputStream());
        assertThat(r.statusCode()).isEqualTo(200);
        Set<String> names = new HashSet<>();
        String end = null;
        try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
            String event = null;
            for (String line; (line = in.readLine()) != null; ) {
                if (line.startsWith("event:")) {
                    event = line.substring(6).trim();
                } else if (line.startsWith("data:") && "entry".equals(event)) {
                    names.add(io.restassured.path.json.JsonPath.from(line.substring(5))
                            .getString("name"));
                } else if (line.startsWith("data:") && "end".equals(event)) {
                    end = line.substring(5).trim();
                }
            }
        }
        assertThat(names).hasSize(2000).contains("f0.txt", "f1999.txt");
        assertThat(end).isEqualTo("{\"count\":2000}");
        Response page = Api.as(owner).get("/api/v1/files/user/many?limit=1000");
        assertThat(page.jsonPath().getList("items")).hasSize(1000);
        String cursor = page.jsonPath().getString("nextCursor");
        Response next = Api.as(owner).queryParam("cursor", cursor).get("/api/v1/files/user/many?limit=1000");
        assertThat(next.jsonPath().getList("items")).hasSize(1000);
        assertThat(next.jsonPath().getString("nextCursor")).isNull();
    }

    static List<String> zipNames(byte[] zip) throws Exception {
        List<String> names = new ArrayList<>();
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip))) {
            for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
                names.add(e.getName());
            }
        }
        return names;
    }

    /** Every path under a folder with its size: what a refused call must leave as it was. */
    static String tree(Path root) throws Exception {
        if (!Files.exists(root)) {
            return "";
        }
        try (Stream<Path> all = Files.walk(root)) {
            return all.sorted()
                    .map(p -> root.relativize(p) + ":" + p.toFile().length())
                    .reduce("", (a, b) -> a + "|" + b);
        }
    }
}
