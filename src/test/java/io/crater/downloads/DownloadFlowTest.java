package io.crater.downloads;

import static io.crater.job.Flows.line;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.crater.Db;
import io.crater.job.Flows;
import io.crater.kube.KubeClients;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Downloads end to end against a small hub the test serves ({@link HubServer}): resolved to the commit, run as a
 * simulated job whose bytes show as progress, verified and catalogued, then mounted read-only into a job; the same
 * thing asked again answers the first download; a bad checksum fails and a retry from the mirror succeeds; pause and
 * resume continue the partial file; the per-user limit; another account sees nothing; the token only in a Secret; the
 * same for ModelScope ({@link ModelScopeFlows}).
 */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
@QuarkusTestResource(value = HubServerResource.class, restrictToAnnotatedClass = false)
class DownloadFlowTest {

    static final String PW = "Downloads-pass-2026";
    static final String ACCOUNT = "dl-lab";
    static final String TOKEN = "hf_test_token_4f7e2a9c";
    static final String SHA = "1111111111111111111111111111111111111111";
    static final String DOWNLOADS = "/api/v1/assets/downloads";

    static RequestSpecification as(String token) {
        return Api.as(token).header("X-Crater-Account", ACCOUNT);
    }

    static Map<String, Object> body(String repo, String name, String path, Object... more) {
        Map<String, Object> b = new HashMap<>(Map.of(
                "kind",
                "model",
                "hub",
                "huggingface",
                "repository",
                repo,
                "revision",
                "main",
                "name",
                name,
                "path",
                path));
        for (int i = 0; i < more.length; i += 2) {
            b.put((String) more[i], more[i + 1]);
        }
        return b;
    }

    static JsonPath get(String token, String id) {
        return Api.as(token)
                .get(DOWNLOADS + "/" + id)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }

    static JsonPath awaitState(String token, String id, String state) {
        await().atMost(Duration.ofSeconds(60))
                .until(() -> state.equals(get(token, id).getString("state")));
        return get(token, id);
    }

    @Test
    void aModelIsDownloadedVerifiedCataloguedAndMounted() throws Exception {
        String owner = Api.user("dl-owner", PW);
        String outsider = Api.user("dl-outsider", PW);
        Flows.account(ACCOUNT, List.of(line("cpu", "16", "16"), line("memory", "64Gi", "64Gi")), "dl-owner");
        Flows.account("dl-elsewhere", List.of(line("cpu", "8", "8"), line("memory", "32Gi", "32Gi")), "dl-outsider");
        as(owner)
                .body(Map.of("name", "hf", "kind", "huggingface", "value", TOKEN))
                .post("/api/v1/me/credentials")
                .then()
                .statusCode(201);
        byte[] weights = HubServer.bytes(200_000, 1);
        HubServer.Repo repo = HubServer.get()
                .add(new HubServer.Repo("model", "acme/tiny-llm", SHA)
                        .file("config.json", "{\"layers\":2}".getBytes(StandardCharsets.UTF_8), false)
                        .file("model.safetensors", weights, true)
                        .file("README.md", "# tiny".getBytes(StandardCharsets.UTF_8), false)
                        .gate("model.safetensors"));
        repo.token = TOKEN;

        badInputStoresNothing(owner);
        JsonPath created = as(owner)
                .body(body(
                        "acme/tiny-llm",
                        "tiny-llm",
                        "/models/tiny",
                        "include",
                        List.of("*.safetensors", "*.json"),
                        "credential",
                        "hf"))
                .post(DOWNLOADS)
                .then()
                .statusCode(201)
                .extract()
                .jsonPath();
        String id = created.getString("id");
        assertThat(created.getString("sha")).isEqualTo(SHA);
        assertThat(created.getLong("bytesTotal")).isEqualTo(weights.length + 12L);
        assertThat(created.getInt("files")).isEqualTo(2);
        assertThat(created.prettify()).doesNotContain(TOKEN);
        String job = created.getString("job");

        // Progress moves while the hub holds the weights after their first half.
        await().atMost(Duration.ofSeconds(60)).until(() -> get(owner, id).getLong("bytesDone") >= weights.length / 2);
        JsonPath running = get(owner, id);
        assertThat(running.getString("state")).isEqualTo("running");
        assertThat(running.getLong("bytesDone")).isLessThan(running.getLong("bytesTotal"));
        as(owner).get("/api/v1/jobs/" + job).then().statusCode(200).body("job.kind", equalTo("download"));
        String manifests = as(owner)
                .get("/api/v1/jobs/" + job + "/manifests")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertThat(manifests).contains("secretKeyRef").contains("HF_TOKEN").doesNotContain(TOKEN);
        assertThat(HubServer.get().requests)
                .anyMatch(r ->
                        r.contains("/api/models/acme/tiny-llm/revision/main") && r.contains("auth=Bearer " + TOKEN));

        // The same thing asked again, under another name, is the same download.
        as(owner)
                .body(body(
                        "acme/tiny-llm",
                        "again",
                        "/models/again",
                        "include",
                        List.of("*.json", "*.safetensors"),
                        "credential",
                        "hf"))
                .post(DOWNLOADS)
                .then()
                .statusCode(200)
                .body("id", equalTo(id))
                .body("deduplicated", equalTo(true));
        theOutsiderSeesNothing(outsider, id);

        repo.open("model.safetensors");
        JsonPath done = awaitState(owner, id, "succeeded");
        assertThat(done.getLong("bytesDone")).isEqualTo(done.getLong("bytesTotal"));
        assertThat(done.getList("warnings")).isEmpty();
        String asset = done.getString("asset");
        as(owner)
                .get("/api/v1/assets/" + asset)
                .then()
                .statusCode(200)
                .body("revision", equalTo(SHA))
                .body("source", equalTo(HubServer.get().url() + "/acme/tiny-llm"))
                .body("sizeBytes", equalTo(weights.length + 12));
        mountedReadOnly(owner);
    }

    @Test
    void aBadChecksumFailsARetryFromTheMirrorSucceedsPauseResumesAndTheLimitHolds() throws Exception {
        String owner = Api.user("dl-second", PW);
        Flows.account("dl-lab2", List.of(line("cpu", "16", "16"), line("memory", "64Gi", "64Gi")), "dl-second");
        byte[] good = HubServer.bytes(100_000, 2);
        byte[] bad = HubServer.bytes(100_000, 3);
        HubServer.Repo corrupt =
                HubServer.get().add(new HubServer.Repo("dataset", "acme/corrupt", SHA).file("data.bin", good, true));
        corrupt.corrupt.put("data.bin", bad);
        String id = Api.as(owner)
                .header("X-Crater-Account", "dl-lab2")
                .body(body("acme/corrupt", "corrupt", "/data/corrupt", "kind", "dataset"))
                .post(DOWNLOADS)
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        JsonPath failed = awaitState(owner, id, "failed");
        assertThat(failed.getString("reason")).isEqualTo("ChecksumMismatch");
        assertThat(failed.getString("message"))
                .contains("data.bin")
                .contains(HubServer.sha256(good))
                .contains("removed");
        assertThat(failed.getString("asset")).isNull();
        Api.as(owner)
                .body(Map.of("endpoint", "https://elsewhere.example.org"))
                .post(DOWNLOADS + "/" + id + "/retry")
                .then()
                .statusCode(400)
                .body("errors[0].field", equalTo("endpoint"));
        Api.as(owner)
                .body(Map.of("endpoint", HubServer.get().url() + "/mirror"))
                .post(DOWNLOADS + "/" + id + "/retry")
                .then()
                .statusCode(200)
                .body("state", equalTo("running"))
                .body("endpoint", equalTo(HubServer.get().url() + "/mirror"));
        JsonPath retried = awaitState(owner, id, "succeeded");
        Api.as(owner)
                .get("/api/v1/assets/" + retried.getString("asset"))
                .then()
                .statusCode(200)
                .body("kind", equalTo("dataset"))
                .body("source", equalTo(HubServer.get().url() + "/mirror/datasets/acme/corrupt"));

        pauseAndResume(owner);
    }

    @Test
    void identicalRequestsAtTheSameInstantStartOneDownload() throws Exception {
        String owner = Api.user("dl-twins", PW);
        Flows.account("dl-lab3", List.of(line("cpu", "16", "16"), line("memory", "64Gi", "64Gi")), "dl-twins");
        HubServer.get()
                .add(new HubServer.Repo("model", "acme/twins", SHA).file("w.bin", HubServer.bytes(50_000, 5), true));
        int n = 4;
        ExecutorService pool = Executors.newFixedThreadPool(n);
        CountDownLatch go = new CountDownLatch(1);
        try {
            List<Future<ExtractableResponse<Response>>> answers = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                answers.add(pool.submit(() -> {
                    go.await();
                    return Api.as(owner)
                            .header("X-Crater-Account", "dl-lab3")
                            .body(body("acme/twins", "twins", "/models/twins"))
                            .post(DOWNLOADS)
                            .then()
                            .extract();
                }));
            }
            go.countDown();
            List<Integer> statuses = new ArrayList<>();
            Set<String> ids = new HashSet<>();
            for (Future<ExtractableResponse<Response>> a : answers) {
                ExtractableResponse<Response> r = a.get(60, TimeUnit.SECONDS);
                statuses.add(r.statusCode());
                ids.add(r.path("id"));
            }
            assertThat(statuses)
                    .containsOnly(201, 200)
                    .filteredOn(s -> s == 201)
                    .hasSize(1);
            assertThat(ids).hasSize(1);
        } finally {
            pool.shutdownNow();
        }
        Api.as(owner).get(DOWNLOADS + "?mine=true").then().statusCode(200).body("items", hasSize(1));
        assertThat(Db.count("SELECT count(*) FROM jobs j JOIN users u ON u.id = j.user_id"
                        + " WHERE u.username = 'dl-twins' AND j.kind = 'download'"))
                .isEqualTo(1);
    }

    @Test
    void modelScopeDownloadsAreResolvedRunVerifiedAndCatalogued() {
        ModelScopeFlows.aModelIsResolvedRunVerifiedAndCatalogued();
        ModelScopeFlows.checksumsFailAndAMovedBranchIsCaught();
    }

    private static void pauseAndResume(String owner) throws Exception {
        byte[] big = HubServer.bytes(300_000, 4);
        HubServer.Repo slow = HubServer.get()
                .add(new HubServer.Repo("model", "acme/slow", SHA)
                        .file("w.bin", big, true)
                        .gate("w.bin"));
        HubServer.Repo other = HubServer.get()
                .add(new HubServer.Repo("model", "acme/other", SHA)
                        .file("o.bin", big, true)
                        .gate("o.bin"));
        RequestSpecification me = Api.as(owner).header("X-Crater-Account", "dl-lab2");
        String id = me.body(body("acme/slow", "slow", "/models/slow"))
                .post(DOWNLOADS)
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        String firstJob = get(owner, id).getString("job");
        await().atMost(Duration.ofSeconds(60)).until(() -> get(owner, id).getLong("bytesDone") >= big.length / 2);
        String second = Api.as(owner)
                .header("X-Crater-Account", "dl-lab2")
                .body(body("acme/other", "other", "/models/other"))
                .post(DOWNLOADS)
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        Api.as(owner)
                .header("X-Crater-Account", "dl-lab2")
                .body(body("acme/corrupt", "third", "/data/third", "kind", "dataset", "include", List.of("*.bin")))
                .post(DOWNLOADS)
                .then()
                .statusCode(429)
                .body("code", equalTo("DownloadLimitReached"))
                .body("reasons[0].numbers.active", equalTo(2))
                .body("reasons[0].numbers.maxConcurrent", equalTo(2));

        Api.as(owner)
                .post(DOWNLOADS + "/" + id + "/pause")
                .then()
                .statusCode(200)
                .body("state", equalTo("paused"));
        await().atMost(Duration.ofSeconds(30)).until(() -> "Stopped".equals(Flows.state(owner, firstJob)));
        assertThat(get(owner, id).getLong("bytesDone")).isGreaterThanOrEqualTo(big.length / 2);
        slow.open("w.bin");
        // Three resumes at once: one starts a job, the others find the download running.
        CountDownLatch go = new CountDownLatch(1);
        List<java.util.concurrent.CompletableFuture<Response>> resumes = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            resumes.add(java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                return Api.as(owner).post(DOWNLOADS + "/" + id + "/resume");
            }));
        }
        go.countDown();
        List<Integer> statuses = new ArrayList<>();
        for (var r : resumes) {
            Response answer = r.get(60, TimeUnit.SECONDS);
            statuses.add(answer.statusCode());
            if (answer.statusCode() == 200) {
                assertThat(answer.<String>path("state")).isEqualTo("running");
            } else {
                assertThat(answer.<String>path("code")).isEqualTo("DownloadNotPaused");
            }
        }
        assertThat(statuses).as(statuses.toString()).containsOnly(200, 409);
        assertThat(statuses).filteredOn(st -> st == 200).hasSize(1);
        assertThat(Db.count("SELECT count(*) FROM jobs WHERE kind = 'download' AND name = (SELECT name FROM jobs"
                        + " WHERE public_id = '" + firstJob + "')"))
                .as("the first job and one resumed")
                .isEqualTo(2);
        JsonPath resumed = awaitState(owner, id, "succeeded");
        assertThat(resumed.getString("job")).isNotEqualTo(firstJob);
        assertThat(HubServer.get().requests)
                .anyMatch(r -> r.contains("/acme/slow/resolve/" + SHA + "/w.bin")
                        && r.contains("range=bytes=" + big.length / 2 + "-"));
        other.open("o.bin");
        awaitState(owner, second, "succeeded");
    }

    private static void badInputStoresNothing(String owner) {
        as(owner)
                .body(body("not a repo!", "Bad Name", "/models/x", "include", List.of("a b")))
                .post(DOWNLOADS)
                .then()
                .statusCode(400)
                .body("code", equalTo("InvalidDownload"))
                .body("errors.field", hasItem("repository"))
                .body("errors.field", hasItem("name"))
                .body("errors.field", hasItem("include"));
        as(owner)
                .body(body("acme/tiny-llm", "tiny-llm", "/models/tiny", "credential", "nope"))
                .post(DOWNLOADS)
                .then()
                .statusCode(400)
                .body("code", equalTo("UnknownCredential"))
                .body("errors[0].field", equalTo("credential"));
        as(owner)
                .body(body("acme/tiny-llm", "tiny-llm", "/models/tiny"))
                .post(DOWNLOADS)
                .then()
                .statusCode(400)
                .body("code", equalTo("HubRefused"))
                .body("errors[0].field", equalTo("repository"));
        as(owner)
                .body(Map.of("action", "mkdir"))
                .post("/api/v1/files/user/full")
                .then()
                .statusCode(201);
        as(owner)
                .body(Map.of("action", "mkdir"))
                .post("/api/v1/files/user/full/inside")
                .then()
                .statusCode(201);
        as(owner)
                .body(body("acme/tiny-llm", "tiny-llm", "/full", "credential", "hf"))
                .post(DOWNLOADS)
                .then()
                .statusCode(400)
                .body("errors[0].field", equalTo("path"));
        as(owner)
                .body(Map.of("name", "direct", "kind", "download", "image", "x", "command", List.of("true")))
                .post("/api/v1/jobs")
                .then()
                .statusCode(400)
                .body("errors[0].field", equalTo("kind"));
        as(owner).get(DOWNLOADS + "?mine=true").then().statusCode(200).body("items", equalTo(List.of()));
    }

    private static void theOutsiderSeesNothing(String outsider, String id) {
        RequestSpecification out = Api.as(outsider).header("X-Crater-Account", "dl-elsewhere");
        out.get(DOWNLOADS + "/" + id).then().statusCode(404);
        Api.as(outsider).get(DOWNLOADS).then().statusCode(200).body("items.id", not(hasItem(id)));
        Api.as(outsider).post(DOWNLOADS + "/" + id + "/pause").then().statusCode(404);
        Api.as(outsider).post(DOWNLOADS + "/" + id + "/resume").then().statusCode(404);
    }

    private static void mountedReadOnly(String owner) throws Exception {
        Map<String, Object> spec = Map.of(
                "name",
                "reads-tiny",
                "kind",
                "custom",
                "image",
                "python:3.12",
                "command",
                List.of("python", "x.py"),
                "env",
                Map.of("SIM_DURATION", "10m"),
                "resources",
                Map.of("cpu", "1", "memory", "2Gi"),
                "mounts",
                List.of(Map.of("model", "tiny-llm", "path", "/models/tiny")));
        String jobId = as(owner)
                .body(spec)
                .post("/api/v1/jobs")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        try (KubernetesClient k8s =
                KubeClients.forUrl(CraterTestResource.simulator().url())) {
            Flows.awaitRunning(owner, jobId);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int code = k8s.pods()
                    .inNamespace("crater-jobs")
                    .withName("c-" + jobId + "-main-0")
                    .writingOutput(out)
                    .exec("ls", "/models/tiny")
                    .exitCode()
                    .get(10, TimeUnit.SECONDS);
            assertThat(code).isZero();
            assertThat(out.toString(StandardCharsets.UTF_8))
                    .contains("config.json", "model.safetensors")
                    .doesNotContain("README.md");
        } finally {
            as(owner).post("/api/v1/jobs/" + jobId + "/stop").then().statusCode(200);
        }
    }
}
