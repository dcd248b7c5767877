package io.crater.images;

import static io.crater.job.Flows.line;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.crater.RealRegistry;
import io.crater.job.Flows;
import io.crater.kube.KubeClients;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.VertxContextSupport;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Image builds in the simulated cluster against a real registry (Debian's distribution 2.8.2 behind htpasswd): a build
 * from packages and one from a Dockerfile run as jobs of kind imagebuild, push real images the registry then serves,
 * and land in the owner's catalogue validated; a job then runs the built image. A push with a wrong password fails
 * with the builder's log; a build stops; bad input changes nothing; an outsider gets 404; the registry password is in
 * no answer and no manifest view.
 */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class ImageBuildFlowTest {

    static final String PW = "Builds-pass-2026";
    static final String ACCOUNT = "ib-lab";
    static final String REGISTRY_PASSWORD = "pu5h-Registry-s3cret";

    final List<String> answers = new ArrayList<>();

    @Inject
    ImageBuildWatch watch;

    @Inject
    ImageBuildQueries queries;

    static RequestSpecification as(String token) {
        return Api.as(token).header("X-Crater-Account", ACCOUNT);
    }

    ValidatableResponse kept(ValidatableResponse r) {
        answers.add(r.extract().asString());
        return r;
    }

    @Test
    void buildsPushToTheRegistryAndLandInTheCatalogue() throws Throwable {
        String owner = Api.user("ib-owner", PW);
        String outsider = Api.user("ib-outsider", PW);
        Flows.account(ACCOUNT, List.of(line("cpu", "16", "16"), line("memory", "64Gi", "64Gi")), "ib-owner");
        try (RealRegistry registry = RealRegistry.start("pusher", REGISTRY_PASSWORD);
                KubernetesClient k8s =
                        KubeClients.forUrl(CraterTestResource.simulator().url())) {
            credential(owner, "reg", registry.host(), REGISTRY_PASSWORD);
            Map<String, Object> fromPackages = new HashMap<>(Map.of(
                    "base",
                    "pytorch/pytorch:2.3.0-cuda12.1-cudnn8-runtime",
                    "pip",
                    List.of("transformers==4.44.0", "accelerate>=0.33,<1"),
                    "apt",
                    List.of("git"),
                    "destination",
                    registry.host() + "/alice/trainer:1",
                    "credential",
                    "reg",
                    "description",
                    "trainer with transformers",
                    "cudaVersion",
                    "12.1",
                    "kinds",
                    List.of("pytorch"),
                    "vendors",
                    List.of("nvidia")));
            Map<String, Object> build = start(owner, fromPackages);
            String job = (String) build.get("job");
            assertThat((String) build.get("dockerfile"))
                    .contains("FROM pytorch/pytorch:2.3.0-cuda12.1-cudnn8-runtime\n")
                    .contains("apt-get install -y --no-install-recommends git")
                    .contains("RUN [\"pip\", \"install\", \"--no-cache-dir\", \"transformers==4.44.0\","
                            + " \"accelerate>=0.33,<1\"]");
            kept(as(owner).get("/api/v1/jobs/" + job).then().statusCode(200)).body("job.kind", equalTo("imagebuild"));
            theJobsObjects(k8s, owner, job, registry);

            Map<String, Object> done = awaitEnd(owner, (String) build.get("id"));
            assertThat(done.get("state")).as("%s", done).isEqualTo("succeeded");
            String digest = (String) done.get("digest");
            assertThat(manifestDigest(registry, "alice/trainer", "1")).isEqualTo(digest);
            kept(as(owner).get("/api/v1/images/" + done.get("image")).then().statusCode(200))
                    .body("reference", equalTo(registry.host() + "/alice/trainer"))
                    .body("tags", equalTo(List.of("1")))
                    .body("kinds", equalTo(List.of("pytorch")))
                    .body("checks[0].result", equalTo("ok"))
                    .body("checks[0].digest", equalTo(digest));
            kept(as(owner).get("/api/v1/jobs/" + job + "/logs").then().statusCode(200))
                    .body(containsString("pushing manifest for " + registry.host() + "/alice/trainer:1@" + digest));

            String user = Flows.submit(
                    owner,
                    ACCOUNT,
                    Map.of(
                            "name",
                            "uses the built image",
                            "kind",
                            "custom",
                            "image",
                            registry.host() + "/alice/trainer:1",
                            "command",
                            List.of("python", "train.py")));
            Flows.awaitRunning(owner, user);
            as(owner).post("/api/v1/jobs/" + user + "/stop").then().statusCode(200);

            fromADockerfile(owner, registry, (String) done.get("image"));
            aFailedPush(owner, registry);
            aStoppedBuild(owner, registry);
            badInputChangesNothing(owner, registry);
            outsiders(outsider, (String) build.get("id"));
        }
        assertThat(answers).noneMatch(a -> a.contains(REGISTRY_PASSWORD));
        assertThat(answers)
                .noneMatch(a -> a.contains(Base64.getEncoder()
                        .encodeToString(("pusher:" + REGISTRY_PASSWORD).getBytes(StandardCharsets.UTF_8))));
    }

    /** The job's ConfigMap holds the Dockerfile, its Secret the login; the manifests view withholds the login. */
    void theJobsObjects(KubernetesClient k8s, String owner, String job, RealRegistry registry) {
        await().atMost(Duration.ofSeconds(30))
                .until(() -> k8s.secrets()
                                .inNamespace("crater-jobs")
                                .withName("c-" + job + "-registry")
                                .get()
                        != null);
        Secret login = k8s.secrets()
                .inNamespace("crater-jobs")
                .withName("c-" + job + "-registry")
                .get();
        String config =
                new String(Base64.getDecoder().decode(login.getData().get("config.json")), StandardCharsets.UTF_8);
        assertThat(config).contains("\"" + registry.host() + "\"");
        assertThat(login.getMetadata().getOwnerReferences().get(0).getName()).isEqualTo("c-" + job);
        ConfigMap dockerfile = k8s.configMaps()
                .inNamespace("crater-jobs")
                .withName("c-" + job + "-dockerfile")
                .get();
        assertThat(dockerfile.getData().get("Dockerfile")).contains("transformers==4.44.0");
        String yaml = kept(as(owner)
                        .get("/api/v1/jobs/" + job + "/manifests")
                        .then()
                        .statusCode(200))
                .extract()
                .path("yaml");
        assertThat(yaml)
                .contains("buildctl-daemonless.sh")
                .contains("type=image,name=" + registry.host() + "/alice/trainer:1,push=true,registry.insecure=true")
                .contains("--oci-worker-no-process-sandbox")
                .contains("Unconfined")
                .contains(Base64.getEncoder().encodeToString("<withheld>".getBytes(StandardCharsets.UTF_8)))
                .doesNotContain(login.getData().get("config.json"));
    }

    void fromADockerfile(String owner, RealRegistry registry, String trainerImage) {
        Map<String, Object> build = start(
                owner,
                Map.of(
                        "dockerfile", "FROM debian:12-slim\nRUN echo built > /etc/built\n",
                        "destination", registry.host() + "/alice/trainer:2",
                        "credential", "reg"));
        assertThat(build.get("source")).isEqualTo("dockerfile");
        Map<String, Object> done = awaitEnd(owner, (String) build.get("id"));
        assertThat(done.get("state")).as("%s", done).isEqualTo("succeeded");
        // The same reference: the tag joins the owner's entry.
        assertThat(done.get("image")).isEqualTo(trainerImage);
        kept(as(owner).get("/api/v1/images/" + trainerImage).then().statusCode(200))
                .body("tags", equalTo(List.of("1", "2")))
                .body("checks.find { it.tag == '2' }.digest", equalTo(done.get("digest")));
        kept(as(owner).get("/api/v1/images/builds").then().statusCode(200)).body("items.id", hasItem(build.get("id")));
    }

    void aFailedPush(String owner, RealRegistry registry) {
        credential(owner, "wrong", registry.host(), "not-the-password");
        Map<String, Object> build = start(
                owner,
                Map.of(
                        "base",
                        "debian:12",
                        "apt",
                        List.of("curl"),
                        "destination",
                        registry.host() + "/alice/curl:1",
                        "credential",
                        "wrong"));
        Map<String, Object> done = awaitEnd(owner, (String) build.get("id"));
        assertThat(done.get("state")).as("%s", done).isEqualTo("failed");
        assertThat(done.get("jobState")).isEqualTo("Failed");
        assertThat((String) done.get("detail")).contains("exited with code 1");
        assertThat((String) done.get("logTail"))
                .contains("error: failed to push " + registry.host() + "/alice/curl:1: the registry refused");
        assertThat(done.get("image")).isNull();
    }

    void aStoppedBuild(String owner, RealRegistry registry) throws Throwable {
        Map<String, Object> build = start(
                owner,
                Map.of(
                        "base",
                        "debian:12",
                        "apt",
                        List.of("vim"),
                        "destination",
                        registry.host() + "/alice/vim:1",
                        "credential",
                        "reg"));
        kept(as(owner)
                .post("/api/v1/images/builds/" + build.get("id") + "/stop")
                .then()
                .statusCode(200));
        Map<String, Object> done = awaitEnd(owner, (String) build.get("id"));
        assertThat(done.get("state")).as("%s", done).isEqualTo("stopped");
        aLateRegistryAnswerChangesNothing(owner, (String) build.get("id"));
    }

    /**
     * The registry's answer is written only if the build still waits for it: a build stopped while the registry was
     * asked stays stopped and gets no catalogue entry, though the registry answered ok.
     */
    void aLateRegistryAnswerChangesNothing(String owner, String id) throws Throwable {
        ImageBuildQueries.BuildRow row = VertxContextSupport.subscribeAndAwait(
                        () -> Panache.withSession(() -> queries.byPublicId(id)))
                .orElseThrow();
        RegistryClient.Outcome ok = new RegistryClient.Outcome(
                "ok", "found", "sha256:" + "ab".repeat(32), "application/vnd.oci.image.manifest.v1+json");
        assertThat(watch.record(row, ok)).isFalse();
        kept(as(owner).get("/api/v1/images/builds/" + id).then().statusCode(200))
                .body("state", equalTo("stopped"))
                .body("image", org.hamcrest.Matchers.nullValue());
        kept(as(owner).get("/api/v1/images?limit=200").then().statusCode(200))
                .body("items.reference", not(hasItem(containsString("/alice/vim"))));
    }

    void badInputChangesNothing(String owner, RealRegistry registry) {
        int builds = as(owner).get("/api/v1/images/builds").then().extract().path("items.size()");
        int jobs = as(owner).get("/api/v1/jobs?limit=200").then().extract().path("items.size()");
        String dest = registry.host() + "/alice/x:1";
        refused(
                owner,
                Map.of(
                        "base",
                        "debian:12",
                        "pip",
                        List.of("ok-name", "evil; rm -rf /", "$(reboot)", "a b"),
                        "apt",
                        List.of("Git", "git && curl x"),
                        "destination",
                        dest,
                        "credential",
                        "reg"),
                "pip[1]",
                "pip[2]",
                "pip[3]",
                "apt[0]",
                "apt[1]");
        refused(
                owner,
                Map.of(
                        "base",
                        "debian:12\nRUN curl evil",
                        "pip",
                        List.of("x"),
                        "destination",
                        dest,
                        "credential",
                        "reg"),
                "base");
        refused(
                owner,
                Map.of("base", "debian:12", "pip", List.of("x"), "destination", "ghcr.io/alice/x:1"),
                "destination");
        refused(
                owner,
                Map.of(
                        "base",
                        "debian:12",
                        "pip",
                        List.of("x"),
                        "destination",
                        "ghcr.io/alice/x:1",
                        "credential",
                        "reg"),
                "destination");
        refused(
                owner,
                Map.of("base", "debian:12", "pip", List.of("x"), "destination", dest, "credential", "nope"),
                "credential");
        refused(
                owner,
                Map.of("dockerfile", "RUN echo no base", "destination", dest, "credential", "reg"),
                "dockerfile");
        refused(
                owner,
                Map.of("base", "debian:12", "pip", List.of("x"), "destination", registry.host() + "/alice/x"),
                "destination");
        as(owner).get("/api/v1/images/builds").then().body("items.size()", equalTo(builds));
        as(owner).get("/api/v1/jobs?limit=200").then().body("items.size()", equalTo(jobs));
        // An image build is never submitted as a job of its own.
        Api.as(owner)
                .header("X-Crater-Account", ACCOUNT)
                .body(Map.of("name", "sneaky", "kind", "imagebuild", "image", "moby/buildkit:rootless"))
                .post("/api/v1/jobs")
                .then()
                .statusCode(400)
                .body("errors.field", hasItem("kind"));
    }

    void outsiders(String outsider, String buildId) {
        Api.as(outsider).get("/api/v1/images/builds/" + buildId).then().statusCode(404);
        Api.as(outsider)
                .post("/api/v1/images/builds/" + buildId + "/stop")
                .then()
                .statusCode(404);
        Api.as(outsider).get("/api/v1/images/builds").then().statusCode(200).body("items.id", not(hasItem(buildId)));
    }

    void refused(String owner, Map<String, Object> body, String... fields) {
        ValidatableResponse r = kept(as(owner)
                        .body(body)
                        .post("/api/v1/images/builds")
                        .then())
                .statusCode(400)
                .body("code", equalTo("InvalidImageBuild"));
        for (String f : fields) {
            r.body("errors.field", hasItem(f));
        }
    }

    Map<String, Object> start(String owner, Map<String, Object> body) {
        return kept(as(owner).body(body).post("/api/v1/images/builds").then().statusCode(201))
                .body("state", equalTo("building"))
                .extract()
                .path("");
    }

    Map<String, Object> awaitEnd(String owner, String id) {
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(300))
                .until(() -> {
                    String state = as(owner)
                            .get("/api/v1/images/builds/" + id)
                            .then()
                            .extract()
                            .path("state");
                    return !"building".equals(state) && !"pushed".equals(state);
                });
        return kept(as(owner).get("/api/v1/images/builds/" + id).then().statusCode(200))
                .extract()
                .path("");
    }

    void credential(String owner, String name, String host, String value) {
        kept(as(owner)
                .body(Map.of("name", name, "kind", "registry", "host", host, "username", "pusher", "value", value))
                .post("/api/v1/me/credentials")
                .then()
                .statusCode(201));
    }

    /** What the registry answers for the tag: the manifest's digest (a GET, with the login). */
    static String manifestDigest(RealRegistry registry, String repository, String tag) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(registry.url() + "/v2/" + repository + "/manifests/" + tag))
                                .header("Accept", "application/vnd.oci.image.manifest.v1+json")
                                .header(
                                        "Authorization",
                                        "Basic "
                                                + Base64.getEncoder()
                                                        .encodeToString(("pusher:" + REGISTRY_PASSWORD)
                                                                .getBytes(StandardCharsets.UTF_8)))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return r.headers().firstValue("Docker-Content-Digest").orElseThrow();
    }
}
