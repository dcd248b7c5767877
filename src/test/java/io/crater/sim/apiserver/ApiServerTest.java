package io.crater.sim.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.crater.sim.Simulator;
import io.crater.sim.cluster.SimPods;
import io.crater.volcano.PodGroup;
import io.crater.volcano.VolcanoCrds;
import io.crater.volcano.VolcanoJob;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The in-process API server's Kubernetes semantics, through fabric8's client and plain HTTP. */
class ApiServerTest {

    static final String NS = "work";
    static InProcessApiServer server;
    static SimPods pods;
    static String url;
    static KubernetesClient client;
    static final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void start() {
        server = new InProcessApiServer(Clock.systemUTC());
        pods = SimPods.behind(server);
        url = server.start(0);
        client = Simulator.clientFor(url);
        VolcanoCrds.all()
                .forEach(crd -> client.apiextensions()
                        .v1()
                        .customResourceDefinitions()
                        .resource(crd)
                        .create());
        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(NS)
                        .endMetadata()
                        .build())
                .create();
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
        pods.close();
    }

    static Pod pod(String name, Map<String, String> labels) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withLabels(labels)
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("main")
                .withImage("busybox")
                .endContainer()
                .endSpec()
                .build();
    }

    static HttpResponse<String> call(String method, String path, String contentType, String body) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(url + path))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            r.header("Content-Type", contentType);
        }
        return http.send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void createGetUpdateWithOptimisticConcurrency() {
        Pod created = client.pods()
                .inNamespace(NS)
                .resource(pod("cr-1", Map.of("app", "a")))
                .create();
        assertThat(created.getMetadata().getUid()).isNotBlank();
        assertThat(created.getMetadata().getCreationTimestamp()).isNotBlank();
        assertThat(created.getMetadata().getNamespace()).isEqualTo(NS);
        assertThat(created.getStatus().getPhase()).isEqualTo("Pending");

        assertThatThrownBy(() -> client.pods()
                        .inNamespace(NS)
                        .resource(pod("cr-1", Map.of()))
                        .create())
                .isInstanceOf(KubernetesClientException.class)
                .satisfies(e ->
                        assertThat(((KubernetesClientException) e).getCode()).isEqualTo(409));

        Pod stale = client.pods().inNamespace(NS).withName("cr-1").get();
        Pod changed = client.pods().inNamespace(NS).withName("cr-1").get();
        changed.getMetadata().setLabels(Map.of("app", "b"));
        Pod updated = client.pods().inNamespace(NS).resource(changed).update();
        assertThat(Long.parseLong(updated.getMetadata().getResourceVersion()))
                .isGreaterThan(Long.parseLong(stale.getMetadata().getResourceVersion()));
        stale.getMetadata().setLabels(Map.of("app", "c"));
        assertThatThrownBy(() -> client.pods().inNamespace(NS).resource(stale).update())
                .isInstanceOf(KubernetesClientException.class)
                .satisfies(e ->
                        assertThat(((KubernetesClientException) e).getCode()).isEqualTo(409));

        // A write that changes nothing keeps the resource version, as etcd-backed servers do.
        Pod same = client.pods().inNamespace(NS).resource(updated).update();
        assertThat(same.getMetadata().getResourceVersion())
                .isEqualTo(updated.getMetadata().getResourceVersion());
        assertThat(client.pods().inNamespace(NS).withName("nope").get()).isNull();
    }

    @Test
    void statusIsASubresource() {
        client.pods().inNamespace(NS).resource(pod("st-1", Map.of())).create();
        Pod p = client.pods().inNamespace(NS).withName("st-1").get();
        p.getStatus().setPhase("Running");
        p.getSpec().setNodeName("node-a");
        Pod afterUpdate = client.pods().inNamespace(NS).resource(p).update();
        assertThat(afterUpdate.getStatus().getPhase())
                .as("a plain update keeps the status")
                .isEqualTo("Pending");
        assertThat(afterUpdate.getSpec().getNodeName()).isEqualTo("node-a");

        afterUpdate.getStatus().setPhase("Running");
        afterUpdate.getSpec().setNodeName("node-b");
        Pod afterStatus = client.pods().inNamespace(NS).resource(afterUpdate).updateStatus();
        assertThat(afterStatus.getStatus().getPhase()).isEqualTo("Running");
        assertThat(afterStatus.getSpec().getNodeName())
                .as("a status update keeps the spec")
                .isEqualTo("node-a");

        // Custom resources: generation follows the spec, not the status; an update needs a resource version.
        VolcanoJob job = new VolcanoJob();
        job.getMetadata().setName("vj-1");
        job.getSpec().queue = "default";
        VolcanoJob created =
                client.resources(VolcanoJob.class).inNamespace(NS).resource(job).create();
        assertThat(created.getMetadata().getGeneration()).isEqualTo(1L);
        created.getSpec().queue = "other";
        VolcanoJob respec = client.resources(VolcanoJob.class)
                .inNamespace(NS)
                .resource(created)
                .update();
        assertThat(respec.getMetadata().getGeneration()).isEqualTo(2L);
        respec.getStatus().state = new io.crater.volcano.VolcanoJobStatus.JobState();
        respec.getStatus().state.phase = "Running";
        VolcanoJob restatus = client.resources(VolcanoJob.class)
                .inNamespace(NS)
                .resource(respec)
                .updateStatus();
        assertThat(restatus.getMetadata().getGeneration()).isEqualTo(2L);
        assertThat(restatus.getStatus().state.phase).isEqualTo("Running");
    }

    @Test
    void selectorsAndFieldSelectors() throws Exception {
        client.pods()
                .inNamespace(NS)
                .resource(pod("sel-a", Map.of("tier", "web", "team", "x")))
                .create();
        client.pods()
                .inNamespace(NS)
                .resource(pod("sel-b", Map.of("tier", "db", "team", "x")))
                .create();
        client.pods()
                .inNamespace(NS)
                .resource(pod("sel-c", Map.of("tier", "cache")))
                .create();
        assertThat(names(client.pods()
                        .inNamespace(NS)
                        .withLabel("team", "x")
                        .list()
                        .getItems()))
                .containsExactly("sel-a", "sel-b");
        assertThat(names(client.pods()
                        .inNamespace(NS)
                        .withLabelIn("tier", "web", "cache")
                        .list()
                        .getItems()))
                .containsExactly("sel-a", "sel-c");
        assertThat(names(client.pods()
                        .inNamespace(NS)
                        .withLabelIn("tier", "nowhere", "db")
                        .list()
                        .getItems()))
                .containsExactly("sel-b");
        assertThat(client.pods()
                        .inNamespace(NS)
                        .withLabelIn("tier", "nowhere", "none")
                        .list()
                        .getItems())
                .isEmpty();
        assertThat(names(client.pods()
                        .inNamespace(NS)
                        .withLabelNotIn("tier", "web", "cache")
                        .withLabel("tier")
                        .list()
                        .getItems()))
                .contains("sel-b")
                .doesNotContain("sel-a", "sel-c");
        assertThat(names(client.pods()
                        .inNamespace(NS)
                        .withLabel("tier")
                        .withoutLabel("team")
                        .list()
                        .getItems()))
                .containsExactly("sel-c");
        assertThat(names(client.pods()
                        .inNamespace(NS)
                        .withField("metadata.name", "sel-b")
                        .list()
                        .getItems()))
                .containsExactly("sel-b");
        HttpResponse<String> bad =
                call("GET", "/api/v1/namespaces/" + NS + "/pods?fieldSelector=spec.hostname%3Dx", null, null);
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("field label not supported");

        // Pages: limit and continue walk every item once.
        HttpResponse<String> first =
                call("GET", "/api/v1/namespaces/" + NS + "/pods?limit=2&labelSelector=tier", null, null);
        assertThat(first.body()).contains("\"continue\"");
        String token = first.body().replaceAll(".*\"continue\":\"([^\"]+)\".*", "$1");
        HttpResponse<String> second = call(
                "GET", "/api/v1/namespaces/" + NS + "/pods?limit=2&labelSelector=tier&continue=" + token, null, null);
        assertThat(second.body()).contains("sel-c").doesNotContain("sel-a").doesNotContain("\"continue\"");
    }

    @Test
    void patchesAndFinalizersAndNamespaces() throws Exception {
        client.configMaps()
                .inNamespace(NS)
                .resource(new ConfigMapBuilder()
                        .withNewMetadata()
                        .withName("cm-1")
                        .withFinalizers("crater.io/keep")
                        .endMetadata()
                        .withData(Map.of("a", "1", "b", "2"))
                        .build())
                .create();
        ConfigMap merged = client.configMaps()
                .inNamespace(NS)
                .withName("cm-1")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"data\":{\"a\":null,\"c\":\"3\"}}");
        assertThat(merged.getData()).containsOnly(Map.entry("b", "2"), Map.entry("c", "3"));
        ConfigMap jsonPatched = client.configMaps()
                .inNamespace(NS)
                .withName("cm-1")
                .patch(PatchContext.of(PatchType.JSON), "[{\"op\":\"replace\",\"path\":\"/data/b\",\"value\":\"9\"}]");
        assertThat(jsonPatched.getData()).containsEntry("b", "9");
        HttpResponse<String> strategic = call(
                "PATCH",
                "/api/v1/namespaces/" + NS + "/configmaps/cm-1",
                "application/strategic-merge-patch+json",
                "{\"data\":{\"d\":\"4\"}}");
        assertThat(strategic.statusCode()).isEqualTo(200);
        assertThat(strategic.body()).contains("\"b\":\"9\"", "\"d\":\"4\"");
        HttpResponse<String> unknownPatch =
                call("PATCH", "/api/v1/namespaces/" + NS + "/configmaps/cm-1", "application/cbor", "{}");
        assertThat(unknownPatch.statusCode()).isEqualTo(415);
        assertThat(unknownPatch.body()).contains("application/merge-patch+json", "application/apply-patch+yaml");

        client.configMaps().inNamespace(NS).withName("cm-1").delete();
        ConfigMap terminating =
                client.configMaps().inNamespace(NS).withName("cm-1").get();
        assertThat(terminating.getMetadata().getDeletionTimestamp())
                .as("kept while a finalizer remains")
                .isNotNull();
        client.configMaps()
                .inNamespace(NS)
                .withName("cm-1")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"finalizers\":null}}");
        assertThat(client.configMaps().inNamespace(NS).withName("cm-1").get()).isNull();

        assertThatThrownBy(() -> client.pods()
                        .inNamespace("absent")
                        .resource(pod("p", Map.of()))
                        .create())
                .isInstanceOf(KubernetesClientException.class)
                .satisfies(e ->
                        assertThat(((KubernetesClientException) e).getCode()).isEqualTo(404));
        Pod generated = client.pods()
                .inNamespace(NS)
                .resource(new PodBuilder(pod(null, Map.of()))
                        .editMetadata()
                        .withGenerateName("gen-")
                        .endMetadata()
                        .build())
                .create();
        assertThat(generated.getMetadata().getName()).startsWith("gen-").hasSize(9);
        client.bindings()
                .inNamespace(NS)
                .resource(new io.fabric8.kubernetes.api.model.BindingBuilder()
                        .withNewMetadata()
                        .withName(generated.getMetadata().getName())
                        .endMetadata()
                        .withNewTarget()
                        .withKind("Node")
                        .withName("node-1")
                        .endTarget()
                        .build())
                .create();
        Pod bound = client.pods()
                .inNamespace(NS)
                .withName(generated.getMetadata().getName())
                .get();
        assertThat(bound.getSpec().getNodeName()).isEqualTo("node-1");
        assertThat(bound.getStatus().getConditions()).anyMatch(c -> c.getType().equals("PodScheduled"));
        HttpResponse<String> again = call(
                "POST",
                "/api/v1/namespaces/" + NS + "/pods/" + generated.getMetadata().getName() + "/binding",
                "application/json",
                "{\"target\":{\"kind\":\"Node\",\"name\":\"node-2\"}}");
        assertThat(again.statusCode()).as("a pod is bound once").isEqualTo(409);
        assertThat(call("GET", "/api/v1/namespaces/" + NS + "/pods/x/attach", null, null)
                        .statusCode())
                .isEqualTo(405);
        assertThat(call("GET", "/apis/example.com/v1/things", null, null).statusCode())
                .isEqualTo(404);
        assertThat(call("GET", "/apis/batch.volcano.sh/v1alpha1", null, null).body())
                .contains("\"jobs/status\"");
    }

    @Test
    void watchesReplayFromAVersionAndFollowSelectors() throws Exception {
        String from = client.pods().inNamespace(NS).list().getMetadata().getResourceVersion();
        client.pods()
                .inNamespace(NS)
                .resource(pod("w-1", Map.of("watched", "yes")))
                .create();
        List<String> seen = new CopyOnWriteArrayList<>();
        Watch watch = client.pods()
                .inNamespace(NS)
                .withLabel("watched", "yes")
                .withResourceVersion(from)
                .watch(new Watcher<>() {
                    @Override
                    public void eventReceived(Action action, Pod pod) {
                        seen.add(action + " " + pod.getMetadata().getName());
                    }

                    @Override
                    public void onClose(WatcherException cause) {}
                });
        try {
            await().atMost(Duration.ofSeconds(5)).until(() -> seen.contains("ADDED w-1"));
            Pod p = client.pods().inNamespace(NS).withName("w-1").get();
            p.getMetadata().setLabels(Map.of("watched", "no"));
            client.pods().inNamespace(NS).resource(p).update();
            await().atMost(Duration.ofSeconds(5)).until(() -> seen.contains("DELETED w-1"));
            p = client.pods().inNamespace(NS).withName("w-1").get();
            p.getMetadata().setLabels(Map.of("watched", "yes"));
            client.pods().inNamespace(NS).resource(p).update();
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> seen.stream().filter("ADDED w-1"::equals).count() == 2);
            client.pods().inNamespace(NS).withName("w-1").delete();
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> seen.stream().filter("DELETED w-1"::equals).count() == 2);
        } finally {
            watch.close();
        }
        assertThat(seen).doesNotContain("MODIFIED w-1");
    }

    @Test
    void informersSeeEveryChange() {
        SharedIndexInformer<PodGroup> informer = client.resources(PodGroup.class)
                .inNamespace(NS)
                .inform(new ResourceEventHandler<>() {
                    @Override
                    public void onAdd(PodGroup obj) {}

                    @Override
                    public void onUpdate(PodGroup oldObj, PodGroup newObj) {}

                    @Override
                    public void onDelete(PodGroup obj, boolean deletedFinalStateUnknown) {}
                });
        try {
            for (int i = 0; i < 50; i++) {
                PodGroup g = new PodGroup();
                g.getMetadata().setName("pg-" + i);
                g.getSpec().minMember = 1;
                client.resources(PodGroup.class).inNamespace(NS).resource(g).create();
            }
            client.resources(PodGroup.class).inNamespace(NS).withName("pg-7").delete();
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> informer.getStore().list().size() == 49);
            assertThat(informer.getStore().getByKey(NS + "/pg-7")).isNull();
        } finally {
            informer.close();
        }
    }

    @Test
    void aWatchFromACompactedVersionIsToldItExpired() throws Exception {
        KubeStore store = new KubeStore(Clock.systemUTC(), 4);
        ApiResource ns = store.resource("", "v1", "namespaces");
        for (int i = 0; i < 10; i++) {
            store.create(ns, "v1", null, (com.fasterxml.jackson.databind.node.ObjectNode)
                    new com.fasterxml.jackson.databind.ObjectMapper()
                            .readTree("{\"metadata\":{\"name\":\"n" + i + "\"}}"));
        }
        List<String> events = new CopyOnWriteArrayList<>();
        boolean[] closed = {false};
        store.watch(
                ns,
                "v1",
                null,
                Selectors.Selector.EVERYTHING,
                Selectors.Selector.EVERYTHING,
                "2",
                false,
                new Watches.Sink() {
                    @Override
                    public void send(String event) {
                        events.add(event);
                    }

                    @Override
                    public void close() {
                        closed[0] = true;
                    }
                });
        assertThat(events)
                .singleElement()
                .asString()
                .contains("\"ERROR\"")
                .contains("410")
                .contains("Expired");
        assertThat(closed[0]).isTrue();

        events.clear();
        long recent = store.revision() - 2;
        store.watch(
                ns,
                "v1",
                null,
                Selectors.Selector.EVERYTHING,
                Selectors.Selector.EVERYTHING,
                Long.toString(recent),
                false,
                new Watches.Sink() {
                    @Override
                    public void send(String event) {
                        events.add(event);
                    }

                    @Override
                    public void close() {}
                });
        assertThat(events).hasSize(2).allMatch(e -> e.startsWith("{\"type\":\"ADDED\""));
    }

    @Test
    void execRunsTheSimulatedShellWithAndWithoutATerminal() throws Exception {
        client.pods().inNamespace(NS).resource(pod("ex-1", Map.of())).create();
        assertThatThrownBy(() -> client.pods()
                        .inNamespace(NS)
                        .withName("ex-1")
                        .writingOutput(new java.io.ByteArrayOutputStream())
                        .exec("echo", "hi")
                        .exitCode()
                        .get(10, java.util.concurrent.TimeUnit.SECONDS))
                .as("a pending pod cannot be exec'd into")
                .isNotNull();
        Pod p = client.pods().inNamespace(NS).withName("ex-1").get();
        p.getStatus().setPhase("Running");
        client.pods().inNamespace(NS).resource(p).updateStatus();

        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        int code = client.pods()
                .inNamespace(NS)
                .withName("ex-1")
                .writingOutput(out)
                .writingError(err)
                .exec("sh", "-c", "echo hello > note.txt")
                .exitCode()
                .get(10, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(code).isZero();
        out.reset();
        code = client.pods()
                .inNamespace(NS)
                .withName("ex-1")
                .writingOutput(out)
                .writingError(err)
                .exec("cat", "note.txt", "missing.txt")
                .exitCode()
                .get(10, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(code).isEqualTo(1);
        assertThat(out.toString()).isEqualTo("hello\n");
        assertThat(err.toString()).contains("missing.txt: No such file or directory");

        java.io.ByteArrayOutputStream term = new java.io.ByteArrayOutputStream();
        io.fabric8.kubernetes.client.dsl.ExecWatch session = client.pods()
                .inNamespace(NS)
                .withName("ex-1")
                .redirectingInput()
                .writingOutput(term)
                .withTTY()
                .exec("bash");
        try {
            session.getInput().write("ech\u007fho typed\r".getBytes());
            session.getInput().flush();
            await().atMost(Duration.ofSeconds(5)).until(() -> term.toString().contains("typed\r\n"));
            session.resize(120, 40);
            Thread.sleep(200);
            session.getInput().write("stty size\rls\rnosuch\rexit 3\r".getBytes());
            session.getInput().flush();
            assertThat(session.exitCode().get(10, java.util.concurrent.TimeUnit.SECONDS))
                    .isEqualTo(3);
        } finally {
            session.close();
        }
        assertThat(term.toString())
                .contains("root@ex-1:~# ")
                .contains("40 120")
                .contains("note.txt")
                .contains("nosuch: command not found");
    }

    static List<String> names(List<? extends io.fabric8.kubernetes.api.model.HasMetadata> items) {
        return items.stream().map(i -> i.getMetadata().getName()).toList();
    }
}
