package io.crater.tensorboard;

import static io.crater.job.Flows.line;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.crater.Db;
import io.crater.interactive.AppProxy;
import io.crater.job.Flows;
import io.crater.kube.KubeClients;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * TensorBoard panels end to end in the simulated cluster: a panel over a folder holding two runs and a job's working
 * directory is admitted, runs as a job of kind tensorboard with its folders mounted read-only, and is opened on its
 * app origin through the proxy, where the simulator's TensorBoard lists the runs it finds in the real folders. Stop,
 * start, delete (the files stay), the idle stop (20 s in tests) and the use that prevents it, isolation, bad input.
 */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class TensorboardFlowTest {

    static final String PW = "Boards-pass-2026";
    static final String ACCOUNT = "tb-lab";

    @TestHTTPResource("/")
    URL base;

    @Inject
    Vertx vertx;

    @Inject
    AppProxy proxy;

    static String owner;
    static String member;
    static String outsider;

    static RequestSpecification as(String token) {
        return Api.as(token).header("X-Crater-Account", ACCOUNT);
    }

    synchronized void users() throws Exception {
        if (owner != null) {
            return;
        }
        owner = Api.user("tb-owner", PW);
        member = Api.user("tb-member", PW);
        outsider = Api.user("tb-outsider", PW);
        Flows.account(
                ACCOUNT, List.of(line("cpu", "16", "16"), line("memory", "64Gi", "64Gi")), "tb-owner", "tb-member");
        Flows.account("tb-elsewhere", List.of(line("cpu", "8", "8"), line("memory", "32Gi", "32Gi")), "tb-outsider");
        for (String dir : List.of("runs", "runs/exp1", "runs/exp1/run_a", "runs/exp1/run_b", "train", "train/logs")) {
            as(owner).body(Map.of("action", "mkdir")).post("/api/v1/files/user/" + dir);
        }
        assertThat(put(owner, "user/runs/exp1/run_a/events.out.tfevents.1.host", "a"))
                .isEqualTo(201);
        assertThat(put(owner, "user/runs/exp1/run_b/events.out.tfevents.2.host", "b"))
                .isEqualTo(201);
        assertThat(put(owner, "user/runs/exp1/notes.txt", "not a run")).isEqualTo(201);
        assertThat(put(owner, "user/train/logs/events.out.tfevents.3.host", "c"))
                .isEqualTo(201);
    }

    int put(String token, String path, String body) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create(base + "api/v1/files/" + path))
                .header("Authorization", "Bearer " + token)
                .PUT(HttpRequest.BodyPublishers.ofString(body))
                .build();
        return java.net.http.HttpClient.newHttpClient()
                .send(req, HttpResponse.BodyHandlers.ofString())
                .statusCode();
    }

    /** A training job of the owner's that works in {@code /crater/user/train}. */
    String trainingJob() {
        return Flows.submit(
                owner,
                ACCOUNT,
                Map.of(
                        "name", "train",
                        "kind", "custom",
                        "image", "python:3.12",
                        "command", List.of("python", "train.py"),
                        "workingDir", "/crater/user/train",
                        "env", Map.of("SIM_DURATION", "30m"),
                        "resources", Map.of("cpu", "1", "memory", "2Gi")));
    }

    String create(String token, Map<String, Object> body) {
        return as(token)
                .body(body)
                .post("/api/v1/tensorboards")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
    }

    void awaitState(String token, String panel, String state) {
        await().atMost(Duration.ofSeconds(60))
                .until(() -> state.equals(as(token)
                        .get("/api/v1/tensorboards/" + panel)
                        .then()
                        .extract()
                        .path("state")));
    }

    record Answer(int status, MultiMap headers, String body) {}

    Answer call(String job, String uri, Map<String, String> headers) throws Exception {
        HttpClient client = vertx.createHttpClient();
        try {
            RequestOptions o = new RequestOptions()
                    .setServer(SocketAddress.inetSocketAddress(proxy.port(), "127.0.0.1"))
                    .setHost(job + ".apps.localhost")
                    .setPort(proxy.port())
                    .setMethod(HttpMethod.GET)
                    .setURI(uri);
            headers.forEach(o::addHeader);
            return client.request(o)
                    .compose(r -> r.send())
                    .compose(r -> r.body().map(b -> new Answer(r.statusCode(), r.headers(), b.toString())))
                    .toCompletionStage()
                    .toCompletableFuture()
                    .get(20, TimeUnit.SECONDS);
        } finally {
            client.close();
        }
    }

    /** Opens the panel as its owner, as the console does: the one-time URL, then the cookie on the job's origin. */
    String enter(String panel, String job) throws Exception {
        String[] url = new String[1];
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            var r = as(owner)
                    .post("/api/v1/tensorboards/" + panel + "/open")
                    .then()
                    .extract();
            if (r.statusCode() == 409 && "AppNotReady".equals(r.path("code"))) {
                return false;
            }
            assertThat(r.statusCode()).as(r.body().asString()).isEqualTo(200);
            url[0] = r.path("url");
            return true;
        });
        assertThat(url[0]).startsWith("http://" + job + ".apps.localhost:" + proxy.port() + "/_crater/enter?ticket=");
        Answer entered = call(job, url[0].substring(url[0].indexOf("/_crater")), Map.of());
        assertThat(entered.status()).isEqualTo(303);
        assertThat(entered.headers().get("Location")).isEqualTo("/");
        String cookie = entered.headers().get("Set-Cookie");
        return cookie.substring(0, cookie.indexOf(';'));
    }

    @Test
    void aPanelOverFoldersAndAJobShowsTheirRunsOnItsOwnOrigin() throws Exception {
        users();
        String train = trainingJob();
        Flows.awaitRunning(owner, train);
        String panel = create(
                owner,
                Map.of(
                        "name",
                        "runs-june",
                        "sources",
                        List.of(Map.of("space", "user", "path", "/runs/exp1"), Map.of("job", train, "name", "train"))));
        as(owner)
                .body(Map.of("name", "runs-june", "sources", List.of(Map.of("path", "/runs"))))
                .post("/api/v1/tensorboards")
                .then()
                .statusCode(409)
                .body("code", equalTo("TensorboardExists"));
        awaitState(owner, panel, "Running");
        var view = as(owner).get("/api/v1/tensorboards/" + panel).then().statusCode(200);
        view.body("name", equalTo("runs-june"))
                .body("account", equalTo(ACCOUNT))
                .body("sources[0].name", equalTo("exp1"))
                .body("sources[0].space", equalTo("user:tb-owner"))
                .body("sources[0].path", equalTo("/runs/exp1"))
                .body("sources[0].mountPath", equalTo("/logs/0"))
                .body("sources[1].name", equalTo("train"))
                .body("sources[1].job", equalTo(train))
                .body("sources[1].path", equalTo("/train"));
        String job = view.extract().path("job");
        // A job of kind tensorboard like any other, its folders mounted read-only, TensorBoard told where.
        as(owner).get("/api/v1/jobs/" + job).then().statusCode(200).body("job.kind", equalTo("tensorboard"));
        try (KubernetesClient k8s =
                KubeClients.forUrl(CraterTestResource.simulator().url())) {
            Pod pod = k8s.pods()
                    .inNamespace("crater-jobs")
                    .withName("c-" + job + "-main-0")
                    .get();
            Container c = pod.getSpec().getContainers().get(0);
            assertThat(c.getCommand()).containsExactly("tensorboard");
            assertThat(c.getArgs())
                    .containsExactly("--logdir_spec", "exp1:/logs/0,train:/logs/1", "--bind_all", "--port", "6006");
            Map<String, String> mounts = new HashMap<>();
            c.getVolumeMounts().stream()
                    .filter(m -> m.getMountPath().startsWith("/logs/"))
                    .forEach(m -> {
                        assertThat(m.getReadOnly()).isTrue();
                        mounts.put(m.getMountPath(), m.getSubPath());
                    });
            assertThat(mounts)
                    .containsExactlyInAnyOrderEntriesOf(
                            Map.of("/logs/0", "users/tb-owner/runs/exp1", "/logs/1", "users/tb-owner/train"));
        }

        String cookie = enter(panel, job);
        Answer runs = call(job, "/data/runs", Map.of("Cookie", cookie));
        assertThat(runs.status()).isEqualTo(200);
        assertThat(runs.body()).isEqualTo("[\"exp1/run_a\",\"exp1/run_b\",\"train/logs\"]");
        assertThat(call(job, "/", Map.of("Cookie", cookie)).body()).contains("Simulated TensorBoard");
        // An API token is no way in on the app origin, and the app session is no API token.
        assertThat(call(job, "/data/runs", Map.of("Authorization", "Bearer " + owner))
                        .status())
                .isEqualTo(401);
        Api.as(cookie.substring(cookie.indexOf('=') + 1))
                .get("/api/v1/me")
                .then()
                .statusCode(401);

        // Personal: nobody else sees or touches it, a member of the account included.
        for (String other : List.of(member, outsider)) {
            Api.as(other).get("/api/v1/tensorboards").then().statusCode(200).body("items", hasSize(0));
            Api.as(other).get("/api/v1/tensorboards/" + panel).then().statusCode(404);
            Api.as(other).post("/api/v1/tensorboards/" + panel + "/open").then().statusCode(404);
            Api.as(other).post("/api/v1/tensorboards/" + panel + "/stop").then().statusCode(404);
            Api.as(other)
                    .post("/api/v1/tensorboards/" + panel + "/start")
                    .then()
                    .statusCode(404);
            Api.as(other).delete("/api/v1/tensorboards/" + panel).then().statusCode(404);
        }
        as(member).post("/api/v1/jobs/" + job + "/open").then().statusCode(403);
        as(owner).get("/api/v1/tensorboards").then().statusCode(200).body("items.id", hasItem(panel));

        // Stopped, started again as a new job on that job's origin, then deleted: the files stay.
        as(owner).post("/api/v1/tensorboards/" + panel + "/stop").then().statusCode(200);
        awaitState(owner, panel, "Stopped");
        as(owner).get("/api/v1/tensorboards/" + panel).then().body("stoppedReason", equalTo("Stopped"));
        as(owner)
                .post("/api/v1/tensorboards/" + panel + "/open")
                .then()
                .statusCode(409)
                .body("code", equalTo("TensorboardStopped"));
        // Three starts at once: one starts a server job, the others are told it runs.
        long jobsBefore = Db.count("SELECT count(*) FROM jobs WHERE kind = 'tensorboard'");
        List<Integer> starts = at(3, () -> as(owner).post("/api/v1/tensorboards/" + panel + "/start"));
        assertThat(starts).as(starts.toString()).containsOnly(200, 409);
        assertThat(starts).filteredOn(s -> s == 200).hasSize(1);
        assertThat(Db.count("SELECT count(*) FROM jobs WHERE kind = 'tensorboard'"))
                .isEqualTo(jobsBefore + 1);
        awaitState(owner, panel, "Running");
        as(owner)
                .post("/api/v1/tensorboards/" + panel + "/start")
                .then()
                .statusCode(409)
                .body("code", equalTo("TensorboardRunning"));
        String again =
                as(owner).get("/api/v1/tensorboards/" + panel).then().extract().path("job");
        assertThat(again).isNotEqualTo(job);
        assertThat(call(again, "/data/runs", Map.of("Cookie", enter(panel, again)))
                        .body())
                .isEqualTo("[\"exp1/run_a\",\"exp1/run_b\",\"train/logs\"]");
        as(owner).delete("/api/v1/tensorboards/" + panel).then().statusCode(204);
        as(owner).get("/api/v1/tensorboards/" + panel).then().statusCode(404);
        await().atMost(Duration.ofSeconds(30)).until(() -> "Stopped".equals(Flows.state(owner, again)));
        as(owner)
                .get("/api/v1/files/user/runs/exp1/run_a/events.out.tfevents.1.host")
                .then()
                .statusCode(200);
        as(owner).post("/api/v1/jobs/" + train + "/stop").then().statusCode(200);
    }

    @Test
    void anUnusedPanelStopsAndAUsedOneKeepsRunning() throws Exception {
        users();
        String idle = create(owner, Map.of("name", "left-alone", "sources", List.of(Map.of("path", "/runs/exp1"))));
        String used = create(owner, Map.of("name", "looked-at", "sources", List.of(Map.of("path", "/runs"))));
        awaitState(owner, idle, "Running");
        awaitState(owner, used, "Running");
        String usedJob =
                as(owner).get("/api/v1/tensorboards/" + used).then().extract().path("job");
        String cookie = enter(used, usedJob);
        // 20 s without a request stops a panel (crater.tensorboard.idle-timeout in tests); one looked at every 2 s runs
        // on.
        await().atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofSeconds(2))
                .until(() -> {
                    assertThat(call(usedJob, "/data/runs", Map.of("Cookie", cookie))
                                    .status())
                            .isEqualTo(200);
                    return "Stopped"
                            .equals(as(owner)
                                    .get("/api/v1/tensorboards/" + idle)
                                    .then()
                                    .extract()
                                    .path("state"));
                });
        var stopped = as(owner).get("/api/v1/tensorboards/" + idle).then().statusCode(200);
        stopped.body("stoppedReason", equalTo("TensorboardIdle"));
        String idleJob = stopped.extract().path("job");
        as(owner)
                .get("/api/v1/jobs/" + idleJob)
                .then()
                .body("job.state", equalTo("Stopped"))
                .body("history.reason", hasItem("TensorboardIdle"));
        as(owner)
                .get("/api/v1/tensorboards/" + used)
                .then()
                .body("state", equalTo("Running"))
                .body("lastUsedAt", org.hamcrest.Matchers.notNullValue());
        as(owner).delete("/api/v1/tensorboards/" + used).then().statusCode(204);
        as(owner).delete("/api/v1/tensorboards/" + idle).then().statusCode(204);
    }

    @Test
    void sameNameCreatesAtOnceMakeOnePanelAndAnswerTheOthers409() throws Exception {
        users();
        int n = 3;
        ExecutorService pool = Executors.newFixedThreadPool(n);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<ExtractableResponse<Response>>> answers = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                answers.add(pool.submit(() -> {
                    go.await();
                    return as(owner)
                            .body(Map.of("name", "twin-panel", "sources", List.of(Map.of("path", "/runs"))))
                            .post("/api/v1/tensorboards")
                            .then()
                            .extract();
                }));
            }
            go.countDown();
            List<Integer> statuses = new ArrayList<>();
            for (Future<ExtractableResponse<Response>> a : answers) {
                ExtractableResponse<Response> r = a.get(60, TimeUnit.SECONDS);
                statuses.add(r.statusCode());
                if (r.statusCode() == 409) {
                    assertThat(r.contentType()).startsWith("application/problem+json");
                    assertThat(r.<String>path("code")).isEqualTo("TensorboardExists");
                }
            }
            assertThat(statuses).as(statuses.toString()).containsOnly(201, 409);
            assertThat(statuses).filteredOn(s -> s == 201).hasSize(1);
        } finally {
            pool.shutdownNow();
        }
        List<String> panels =
                as(owner).get("/api/v1/tensorboards").then().extract().path("items.name");
        assertThat(panels).filteredOn("twin-panel"::equals).hasSize(1);
        // The refused creates' server jobs were rolled back with their panels.
        assertThat(Db.count("SELECT count(*) FROM jobs j JOIN users u ON u.id = j.user_id"
                        + " WHERE u.username = 'tb-owner' AND j.kind = 'tensorboard' AND j.name = 'twin-panel'"))
                .isEqualTo(1);
        String id = as(owner)
                .get("/api/v1/tensorboards")
                .then()
                .extract()
                .path("items.find { it.name == 'twin-panel' }.id");
        as(owner).delete("/api/v1/tensorboards/" + id).then().statusCode(204);
    }

    @Test
    void lastRequestsOlderThanTheIdleStopNeedsArePruned() throws Exception {
        // Twice the idle timeout (20 s in tests) is kept; an hour-old mark is of no use to the idle stop.
        try (var c = Db.connection();
                var s = c.createStatement()) {
            s.executeUpdate("INSERT INTO app_activity (job_public_id, last_request_at) VALUES"
                    + " ('jprunedold', now() - interval '1 hour'), ('jprunedfresh', now())");
        }
        await().atMost(Duration.ofSeconds(30))
                .until(() -> Db.count("SELECT count(*) FROM app_activity WHERE job_public_id = 'jprunedold'") == 0);
        assertThat(Db.count("SELECT count(*) FROM app_activity WHERE job_public_id = 'jprunedfresh'"))
                .isEqualTo(1);
    }

    @Test
    void badInputIsRefusedWithItsFieldAndStoresNothing() throws Exception {
        users();
        String theirs = Flows.submit(
                outsider,
                "tb-elsewhere",
                Map.of(
                        "name", "theirs",
                        "kind", "custom",
                        "image", "python:3.12",
                        "command", List.of("python", "x.py"),
                        "workingDir", "/crater/user",
                        "resources", Map.of("cpu", "1", "memory", "1Gi")));
        Map<String, Object> folder = Map.of("path", "/runs/exp1");
        List<Object[]> cases = List.of(
                new Object[] {Map.of("name", "x"), "sources"},
                new Object[] {Map.of("name", "x", "sources", List.of()), "sources"},
                new Object[] {Map.of("name", "x", "sources", java.util.Collections.nCopies(9, folder)), "sources"},
                new Object[] {Map.of("name", "Bad Name", "sources", List.of(folder)), "name"},
                new Object[] {
                    Map.of("name", "x", "sources", List.of(Map.of("path", "/nothing-here"))), "sources[0].path"
                },
                new Object[] {
                    Map.of("name", "x", "sources", List.of(Map.of("path", "/runs/exp1/notes.txt"))), "sources[0].path"
                },
                new Object[] {
                    Map.of("name", "x", "sources", List.of(Map.of("space", "account:tb-elsewhere", "path", "/"))),
                    "sources[0].space"
                },
                new Object[] {Map.of("name", "x", "sources", List.of(Map.of("job", theirs))), "sources[0].job"},
                new Object[] {Map.of("name", "x", "sources", List.of(Map.of("job", "jnosuchjob"))), "sources[0].job"},
                new Object[] {
                    Map.of("name", "x", "sources", List.of(Map.of("path", "/runs", "job", theirs))), "sources[0]"
                });
        for (Object[] c : cases) {
            as(owner)
                    .body(c[0])
                    .post("/api/v1/tensorboards")
                    .then()
                    .statusCode(400)
                    .contentType("application/problem+json")
                    .body("code", equalTo("InvalidTensorboard"))
                    .body("errors.field", hasItem(c[1]));
        }
        // A job the member may see but whose folder is its owner's own space: refused for the member.
        String train = trainingJob();
        as(member)
                .body(Map.of("name", "peek", "sources", List.of(Map.of("job", train))))
                .post("/api/v1/tensorboards")
                .then()
                .statusCode(400)
                .body("errors.field", hasItem("sources[0].job"));
        as(owner).post("/api/v1/jobs/" + train + "/stop").then().statusCode(200);
        as(owner).get("/api/v1/tensorboards").then().body("items.name", org.hamcrest.Matchers.not(hasItem("x")));
        as(member).get("/api/v1/tensorboards").then().body("items", hasSize(0));
        // The kind is the panels' own: a job of it cannot be submitted directly.
        as(owner)
                .body(Map.of("name", "tb", "kind", "tensorboard", "image", "tensorflow/tensorflow:2.17.0"))
                .post("/api/v1/jobs")
                .then()
                .statusCode(400)
                .body("errors.field", hasItem("kind"));
        Api.as(outsider).post("/api/v1/jobs/" + theirs + "/stop").then().statusCode(200);
    }

    /** {@code n} calls made at the same instant; their statuses. */
    static List<Integer> at(int n, java.util.concurrent.Callable<Response> call) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(n);
        CountDownLatch go = new CountDownLatch(1);
        try {
            List<Future<Response>> answers = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                answers.add(pool.submit(() -> {
                    go.await();
                    return call.call();
                }));
            }
            go.countDown();
            List<Integer> statuses = new ArrayList<>();
            for (Future<Response> a : answers) {
                Response r = a.get(60, TimeUnit.SECONDS);
                statuses.add(r.statusCode());
                if (r.statusCode() == 409) {
                    assertThat(r.<String>path("code")).isEqualTo("TensorboardRunning");
                }
            }
            return statuses;
        } finally {
            pool.shutdownNow();
        }
    }
}
