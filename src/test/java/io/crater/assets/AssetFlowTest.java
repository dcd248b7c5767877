package io.crater.assets;

import static io.crater.job.Flows.line;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.crater.job.Flows;
import io.crater.kube.KubeClients;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A dataset end to end: a folder made through the file API, registered and shared with an account, mounted
 * read-only by a member's job whose shell lists its files and cannot write there; hidden from an outsider, who
 * cannot mount it either; kept while the job runs, deleted once it is stopped.
 */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class AssetFlowTest {

    static final String PW = "Assets-pass-2026";
    static final String ACCOUNT = "ds-lab";

    @TestHTTPResource("/")
    URL base;

    static RequestSpecification as(String token) {
        return Api.as(token).header("X-Crater-Account", ACCOUNT);
    }

    int put(String token, String path, String body) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create(base + "api/v1/files/" + path))
                .header("Authorization", "Bearer " + token)
                .PUT(HttpRequest.BodyPublishers.ofString(body))
                .build();
        return HttpClient.newHttpClient()
                .send(req, HttpResponse.BodyHandlers.ofString())
                .statusCode();
    }

    static Map<String, Object> job(String name, Object mounts) {
        return Map.of(
                "name",
                name,
                "kind",
                "custom",
                "image",
                "python:3.12",
                "command",
                List.of("python", "train.py"),
                "env",
                Map.of("SIM_DURATION", "10m"),
                "resources",
                Map.of("cpu", "1", "memory", "2Gi"),
                "mounts",
                mounts);
    }

    @Test
    void aSharedDatasetIsMountedReadOnlyAndKeptWhileAJobUsesIt() throws Exception {
        String owner = Api.user("ds-owner", PW);
        String member = Api.user("ds-member", PW);
        String outsider = Api.user("ds-outsider", PW);
        Flows.account(ACCOUNT, List.of(line("cpu", "8", "8"), line("memory", "32Gi", "32Gi")), "ds-owner", "ds-member");
        Flows.account("ds-elsewhere", List.of(line("cpu", "8", "8"), line("memory", "32Gi", "32Gi")), "ds-outsider");

        as(owner)
                .body(Map.of("action", "mkdir"))
                .post("/api/v1/files/user/imagenet")
                .then()
                .statusCode(201);
        assertThat(put(owner, "user/imagenet/train.csv", "a,b\n1,2\n")).isEqualTo(201);
        assertThat(put(owner, "user/imagenet/labels.txt", "cat\n")).isEqualTo(201);

        badInputChangesNothing(owner);
        String id = as(owner)
                .body(Map.of(
                        "kind", "dataset",
                        "name", "imagenet",
                        "description", "a small sample",
                        "space", "user",
                        "path", "/imagenet",
                        "licence", "CC-BY-4.0",
                        "source", "https://example.org/imagenet",
                        "visibility", "account",
                        "account", ACCOUNT,
                        "tags", List.of("vision", "images")))
                .post("/api/v1/assets")
                .then()
                .statusCode(201)
                .body("sizeBytes", equalTo(12))
                .body("files", equalTo(3))
                .body("targetType", equalTo("folder"))
                .body("owner", equalTo("ds-owner"))
                .body("account", equalTo(ACCOUNT))
                .body("tags", equalTo(List.of("images", "vision")))
                .extract()
                .path("id");
        assertThat(id).startsWith("ds_");
        as(owner)
                .body(Map.of("kind", "dataset", "name", "imagenet", "path", "/imagenet"))
                .post("/api/v1/assets")
                .then()
                .statusCode(409)
                .body("code", equalTo("AssetExists"));

        as(member)
                .get("/api/v1/assets?kind=dataset&tag=vision")
                .then()
                .statusCode(200)
                .body("items.id", hasItem(id));
        as(member).get("/api/v1/assets/" + id).then().statusCode(200).body("mayEdit", equalTo(false));
        as(member)
                .body(Map.of("description", "mine now"))
                .put("/api/v1/assets/" + id)
                .then()
                .statusCode(403);
        theOutsiderSeesNothing(outsider, id);

        String jobId = as(member)
                .body(job("reads-imagenet", List.of(Map.of("dataset", "imagenet", "path", "/data/imagenet"))))
                .post("/api/v1/jobs")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        try (KubernetesClient k8s =
                KubeClients.forUrl(CraterTestResource.simulator().url())) {
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> "Running"
                            .equals(as(member)
                                    .get("/api/v1/jobs/" + jobId)
                                    .then()
                                    .extract()
                                    .path("job.state")));
            as(member)
                    .get("/api/v1/jobs/" + jobId)
                    .then()
                    .statusCode(200)
                    .body("mounts[0].id", equalTo(id))
                    .body("mounts[0].name", equalTo("imagenet"))
                    .body("mounts[0].owner", equalTo("ds-owner"))
                    .body("mounts[0].path", equalTo("/data/imagenet"))
                    .body("spec.mounts[0].dataset", equalTo(id));
            String pod = "c-" + jobId + "-main-0";
            assertThat(shell(k8s, pod, 0, "ls", "/data/imagenet")).contains("labels.txt", "train.csv");
            assertThat(shell(k8s, pod, 0, "cat", "/data/imagenet/train.csv")).isEqualTo("a,b\n1,2\n");
            assertThat(shell(k8s, pod, 1, "touch", "/data/imagenet/new.txt")).isEmpty();
            assertThat(shell(k8s, pod, 1, "rm", "/data/imagenet/labels.txt")).isEmpty();
            assertThat(shell(k8s, pod, 0, "ls", "/data/imagenet"))
                    .contains("labels.txt")
                    .doesNotContain("new.txt");
            as(member)
                    .get("/api/v1/jobs/" + jobId + "/manifests")
                    .then()
                    .statusCode(200)
                    .body("yaml", containsString("mountPath: \"/data/imagenet\""))
                    .body("yaml", containsString("subPath: \"users/"));

            as(owner)
                    .delete("/api/v1/assets/" + id)
                    .then()
                    .statusCode(409)
                    .body("code", equalTo("AssetInUse"))
                    .body("detail", containsString(jobId));
            as(owner).get("/api/v1/assets/" + id).then().statusCode(200);
        } finally {
            as(member).post("/api/v1/jobs/" + jobId + "/stop").then().statusCode(200);
        }
        await().atMost(Duration.ofSeconds(30))
                .until(() -> "Stopped"
                        .equals(as(member)
                                .get("/api/v1/jobs/" + jobId)
                                .then()
                                .extract()
                                .path("job.state")));
        as(owner).delete("/api/v1/assets/" + id).then().statusCode(204);
        as(owner).get("/api/v1/assets/" + id).then().statusCode(404);
        as(member).get("/api/v1/jobs/" + jobId).then().statusCode(200).body("mounts[0].name", equalTo("imagenet"));
        as(owner).get("/api/v1/files/user/imagenet/train.csv").then().statusCode(200);
    }

    private static void badInputChangesNothing(String owner) {
        as(owner)
                .body(Map.of("kind", "dataset", "name", "Bad Name", "path", "/imagenet", "visibility", "everyone"))
                .post("/api/v1/assets")
                .then()
                .statusCode(400)
                .body("errors.field", hasItem("name"))
                .body("errors.field", hasItem("visibility"));
        as(owner)
                .body(Map.of("kind", "dataset", "name", "missing", "path", "/no/such/folder"))
                .post("/api/v1/assets")
                .then()
                .statusCode(400)
                .body("errors[0].field", equalTo("path"));
        as(owner)
                .body(Map.of("kind", "dataset", "name", "climb", "path", "/../imagenet"))
                .post("/api/v1/assets")
                .then()
                .statusCode(400)
                .body("errors[0].field", equalTo("path"));
        as(owner)
                .body(Map.of("kind", "dataset", "name", "theirs", "space", "account:ds-elsewhere", "path", "/"))
                .post("/api/v1/assets")
                .then()
                .statusCode(400)
                .body("errors[0].field", equalTo("space"));
        as(owner)
                .body(Map.of("kind", "dataset", "name", "everyone", "path", "/imagenet", "visibility", "public"))
                .post("/api/v1/assets")
                .then()
                .statusCode(400)
                .body("errors[0].field", equalTo("visibility"));
        as(owner)
                .body(Map.of(
                        "kind",
                        "dataset",
                        "name",
                        "elsewhere",
                        "path",
                        "/imagenet",
                        "visibility",
                        "account",
                        "account",
                        "ds-elsewhere"))
                .post("/api/v1/assets")
                .then()
                .statusCode(400)
                .body("errors[0].field", equalTo("account"));
        as(owner).get("/api/v1/assets?mine=true").then().statusCode(200).body("items", equalTo(List.of()));
    }

    /** A fresh request as the outsider (a specification keeps the body it was given). */
    private static RequestSpecification out(String outsider) {
        return Api.as(outsider).header("X-Crater-Account", "ds-elsewhere");
    }

    private static void theOutsiderSeesNothing(String outsider, String id) {
        out(outsider).get("/api/v1/assets/" + id).then().statusCode(404);
        out(outsider).get("/api/v1/assets?kind=dataset").then().statusCode(200).body("items.id", not(hasItem(id)));
        out(outsider)
                .body(Map.of("description", "x"))
                .put("/api/v1/assets/" + id)
                .then()
                .statusCode(404);
        out(outsider).delete("/api/v1/assets/" + id).then().statusCode(404);
        out(outsider).post("/api/v1/assets/" + id + "/refresh").then().statusCode(404);
        for (String ref : List.of("imagenet", "ds-owner/imagenet", id)) {
            out(outsider)
                    .body(job("steals", List.of(Map.of("dataset", ref, "path", "/data"))))
                    .post("/api/v1/jobs")
                    .then()
                    .statusCode(400)
                    .body("code", equalTo("UnknownAsset"))
                    .body("errors[0].field", equalTo("mounts[0].dataset"));
        }
        out(outsider)
                .body(job("bad-path", List.of(Map.of("dataset", "imagenet", "path", "/crater/user/x"))))
                .post("/api/v1/jobs")
                .then()
                .statusCode(400)
                .body("errors[0].field", equalTo("mounts[0].path"));
        out(outsider).get("/api/v1/jobs?mine=true").then().statusCode(200).body("items", equalTo(List.of()));
    }

    /** Runs a command in the pod's shell; its standard output, after checking its exit code. */
    private static String shell(KubernetesClient k8s, String pod, int wantCode, String... command) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = k8s.pods()
                .inNamespace("crater-jobs")
                .withName(pod)
                .writingOutput(out)
                .writingError(err)
                .exec(command)
                .exitCode()
                .get(10, TimeUnit.SECONDS);
        assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isEqualTo(wantCode);
        if (wantCode != 0) {
            assertThat(err.toString(StandardCharsets.UTF_8)).contains("Read-only file system");
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
