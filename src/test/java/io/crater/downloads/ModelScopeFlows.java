package io.crater.downloads;

import static io.crater.job.Flows.line;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import io.crater.Api;
import io.crater.job.Flows;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** The ModelScope cases of {@link DownloadFlowTest}, against the ModelScope calls {@link HubServer} answers. */
final class ModelScopeFlows {

    static final String TOKEN = "ms-test-token-8c1d5e";
    static final String SHA = "3333333333333333333333333333333333333333";
    static final String LATER = "4444444444444444444444444444444444444444";

    private ModelScopeFlows() {}

    static RequestSpecification as(String token) {
        return Api.as(token).header("X-Crater-Account", "ms-lab");
    }

    static Map<String, Object> body(String repo, String name, String path, Object... more) {
        Map<String, Object> b = DownloadFlowTest.body(repo, name, path, more);
        b.put("hub", "modelscope");
        b.remove("revision");
        for (int i = 0; i < more.length; i += 2) {
            b.put((String) more[i], more[i + 1]);
        }
        return b;
    }

    /** A model resolved to its commit, its token sent only as the client's cookie, run, verified, catalogued. */
    static void aModelIsResolvedRunVerifiedAndCatalogued() {
        String owner = Api.user("ms-owner", DownloadFlowTest.PW);
        Flows.account("ms-lab", List.of(line("cpu", "16", "16"), line("memory", "64Gi", "64Gi")), "ms-owner");
        as(owner)
                .body(Map.of("name", "ms", "kind", "modelscope", "value", TOKEN))
                .post("/api/v1/me/credentials")
                .then()
                .statusCode(201);
        as(owner)
                .body(Map.of("name", "hf-kind", "kind", "huggingface", "value", "hf_x"))
                .post("/api/v1/me/credentials")
                .then()
                .statusCode(201);
        byte[] weights = HubServer.bytes(150_000, 5);
        HubServer.Repo repo = HubServer.get()
                .add(new HubServer.Repo("model", "qwen/tiny-ms", SHA)
                        .file("configuration.json", "{\"task\":\"x\"}".getBytes(StandardCharsets.UTF_8), false)
                        .file("weights/model.safetensors", weights, true)
                        .file("README.md", "# tiny".getBytes(StandardCharsets.UTF_8), false)
                        .gate("weights/model.safetensors"));
        repo.branches.clear();
        repo.branches.put("master", SHA);
        repo.token = TOKEN;

        badInput(owner);
        JsonPath created = as(owner)
                .body(body(
                        "qwen/tiny-ms",
                        "tiny-ms",
                        "/models/tiny-ms",
                        "include",
                        List.of("*.safetensors", "*.json"),
                        "credential",
                        "ms"))
                .post(DownloadFlowTest.DOWNLOADS)
                .then()
                .statusCode(201)
                .extract()
                .jsonPath();
        String id = created.getString("id");
        assertThat(created.getString("hub")).isEqualTo("modelscope");
        assertThat(created.getString("revision")).isEqualTo("master");
        assertThat(created.getString("sha")).isEqualTo(SHA);
        assertThat(created.getInt("files")).isEqualTo(2);
        assertThat(created.getLong("bytesTotal")).isEqualTo(weights.length + 12L);
        String job = created.getString("job");

        // The client stages the weights under ._____temp while the hub holds their second half: progress counts them.
        await().atMost(Duration.ofSeconds(60))
                .until(() -> DownloadFlowTest.get(owner, id).getLong("bytesDone") >= weights.length / 2);
        assertThat(DownloadFlowTest.get(owner, id).getString("state")).isEqualTo("running");
        String manifests = as(owner)
                .get("/api/v1/jobs/" + job + "/manifests")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertThat(manifests)
                .contains("secretKeyRef", "MODELSCOPE_API_TOKEN", "modelscope", "--local_dir", "--endpoint")
                .doesNotContain(TOKEN);
        List<String> seen = HubServer.get().requests.stream()
                .filter(r -> r.contains("/api/v1/models/qwen/tiny-ms"))
                .toList();
        assertThat(seen)
                .anyMatch(r -> r.contains("/commits?Ref=master") && r.contains("cookie=m_session_id=" + TOKEN))
                .anyMatch(r -> r.contains("/repo/files?Revision=master&Recursive=True"))
                .anyMatch(r -> r.contains("/repo?Revision=master&FilePath=configuration.json")
                        && r.contains("cookie=m_session_id=" + TOKEN))
                // Never a header of its own: the cookie, or nothing (the refused request without a credential).
                .allMatch(r -> r.contains("auth=null")
                        && (r.contains("cookie=null") || r.contains("cookie=m_session_id=" + TOKEN + " ")));

        as(owner)
                .body(body(
                        "qwen/tiny-ms",
                        "again",
                        "/models/again",
                        "include",
                        List.of("*.json", "*.safetensors"),
                        "credential",
                        "ms"))
                .post(DownloadFlowTest.DOWNLOADS)
                .then()
                .statusCode(200)
                .body("id", equalTo(id))
                .body("deduplicated", equalTo(true));

        repo.open("weights/model.safetensors");
        JsonPath done = DownloadFlowTest.awaitState(owner, id, "succeeded");
        assertThat(done.getList("warnings")).isEmpty();
        as(owner)
                .get("/api/v1/assets/" + done.getString("asset"))
                .then()
                .statusCode(200)
                .body("revision", equalTo(SHA))
                .body("source", equalTo(HubServer.get().url() + "/models/qwen/tiny-ms"))
                .body("sizeBytes", equalTo(weights.length + 12));
        assertThat(HubServer.get().requests)
                .anyMatch(r -> r.contains("/api/v1/models/qwen/tiny-ms/repo?Revision=master&FilePath=weights%2Fmodel")
                        && r.contains("cookie=m_session_id=" + TOKEN));
    }

    private static void badInput(String owner) {
        as(owner)
                .body(body("qwen/tiny-ms", "x", "/models/x", "hub", "gitlab"))
                .post(DownloadFlowTest.DOWNLOADS)
                .then()
                .statusCode(400)
                .body("code", equalTo("InvalidDownload"))
                .body("errors.field", hasItem("hub"));
        as(owner)
                .body(body("tiny-ms", "x", "/models/x", "revision", SHA))
                .post(DownloadFlowTest.DOWNLOADS)
                .then()
                .statusCode(400)
                .body("errors.field", hasItem("repository"))
                .body("errors.field", hasItem("revision"));
        as(owner)
                .body(body("qwen/tiny-ms", "x", "/models/x", "credential", "hf-kind"))
                .post(DownloadFlowTest.DOWNLOADS)
                .then()
                .statusCode(400)
                .body("code", equalTo("UnknownCredential"));
        as(owner)
                .body(body("qwen/tiny-ms", "x", "/models/x"))
                .post(DownloadFlowTest.DOWNLOADS)
                .then()
                .statusCode(400)
                .body("code", equalTo("HubRefused"));
        as(owner)
                .body(body("qwen/tiny-ms", "x", "/models/x", "credential", "ms", "revision", "v9"))
                .post(DownloadFlowTest.DOWNLOADS)
                .then()
                .statusCode(400)
                .body("code", equalTo("HubRefused"))
                .body("detail", containsString("v9"));
    }

    /**
     * Wrong bytes fail the client's own SHA-256 check (the job fails, its log says why); a retry from the mirror succeeds; a branch that
     * moves after Crater listed it fails Crater's verification with a warning, and a retry is refused.
     */
    static void checksumsFailAndAMovedBranchIsCaught() {
        String owner = Api.user("ms-second", DownloadFlowTest.PW);
        Flows.account("ms-lab2", List.of(line("cpu", "16", "16"), line("memory", "64Gi", "64Gi")), "ms-second");
        RequestSpecification me = Api.as(owner).header("X-Crater-Account", "ms-lab2");
        HubServer.Repo corrupt = HubServer.get().add(new HubServer.Repo("dataset", "acme/ms-corrupt", SHA));
        corrupt.branches.clear();
        corrupt.branches.put("master", SHA);
        for (int i = 0; i < 120; i++) {
            corrupt.file("part/" + i + ".txt", ("row " + i).getBytes(StandardCharsets.UTF_8), false);
        }
        corrupt.file("data.bin", HubServer.bytes(50_000, 6), true);
        corrupt.corrupt.put("data.bin", HubServer.bytes(50_000, 7));
        String id = me.body(body("acme/ms-corrupt", "ms-corrupt", "/data/ms-corrupt", "kind", "dataset"))
                .post(DownloadFlowTest.DOWNLOADS)
                .then()
                .statusCode(201)
                .body("files", equalTo(121))
                .extract()
                .path("id");
        JsonPath failed = DownloadFlowTest.awaitState(owner, id, "failed");
        assertThat(failed.getString("reason")).isEqualTo("JobFailed");
        String log = Api.as(owner)
                .get("/api/v1/jobs/" + failed.getString("job") + "/logs")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertThat(log).contains("File data.bin hash validation failed after 3 attempts");
        Api.as(owner)
                .body(Map.of("endpoint", HubServer.get().url() + "/mirror"))
                .post(DownloadFlowTest.DOWNLOADS + "/" + id + "/retry")
                .then()
                .statusCode(200)
                .body("state", equalTo("running"));
        JsonPath retried = DownloadFlowTest.awaitState(owner, id, "succeeded");
        Api.as(owner)
                .get("/api/v1/assets/" + retried.getString("asset"))
                .then()
                .statusCode(200)
                .body("source", equalTo(HubServer.get().url() + "/mirror/datasets/acme/ms-corrupt"))
                .body("sizeBytes", equalTo(730 + 50_000)); // "row 0" .. "row 119" and data.bin

        HubServer.Repo moving = HubServer.get()
                .add(new HubServer.Repo("model", "acme/ms-moving", SHA)
                        .file("w.bin", HubServer.bytes(40_000, 8), true));
        moving.branches.clear();
        moving.branches.put("master", SHA);
        moving.later.put("w.bin", HubServer.bytes(40_000, 9));
        moving.laterSha = LATER;
        String movingId = me.body(body("acme/ms-moving", "ms-moving", "/models/ms-moving"))
                .post(DownloadFlowTest.DOWNLOADS)
                .then()
                .statusCode(201)
                .body("sha", equalTo(SHA))
                .extract()
                .path("id");
        JsonPath caught = DownloadFlowTest.awaitState(owner, movingId, "failed");
        assertThat(caught.getString("reason")).isEqualTo("ChecksumMismatch");
        assertThat(caught.getString("message")).contains("w.bin").contains("removed");
        Api.as(owner)
                .post(DownloadFlowTest.DOWNLOADS + "/" + movingId + "/retry")
                .then()
                .statusCode(409)
                .body("code", equalTo("HubRevisionMoved"));
    }
}
