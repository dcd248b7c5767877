package io.crater.sim.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.crater.kube.KubeClients;
import io.crater.sim.Simulator;
import io.crater.sim.cluster.SimPods;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The record of Crater's uses of the API server that the chart's RBAC is checked against (ChartRbacIT): each use of
 * Crater's own client as the verb RBAC authorises, once; nobody else's.
 */
class ClientUsesTest {

    Path dir;
    Path file;
    InProcessApiServer server;
    SimPods pods;
    String url;
    KubernetesClient crater;
    KubernetesClient other;

    @BeforeEach
    void start() throws Exception {
        dir = Files.createTempDirectory("crater-uses");
        file = dir.resolve("uses.txt");
        server = new InProcessApiServer(Clock.systemUTC());
        server.recordUsesIn(file);
        pods = SimPods.behind(server);
        url = server.start(0);
        crater = KubeClients.forUrl(url, KubeClients.SERVER_AGENT);
        other = Simulator.clientFor(url);
        other.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName("work")
                        .endMetadata()
                        .build())
                .create();
    }

    @AfterEach
    void stop() throws Exception {
        crater.close();
        other.close();
        server.close();
        pods.close();
        Files.deleteIfExists(file);
        Files.deleteIfExists(dir);
    }

    @Test
    void recordsEachUseOfCratersClientOnceAsRbacSeesIt() throws Exception {
        var map = new ConfigMapBuilder()
                .withNewMetadata()
                .withName("m")
                .endMetadata()
                .withData(Map.of("a", "b"))
                .build();
        crater.configMaps().inNamespace("work").resource(map).create();
        crater.configMaps().inNamespace("work").withName("m").get();
        crater.configMaps().inNamespace("work").withName("m").get();
        crater.configMaps().inNamespace("work").withName("m").edit(m -> {
            m.getData().put("c", "d");
            return m;
        });
        crater.configMaps().inNamespace("work").withName("m").delete();
        crater.nodes().list();
        crater.pods().inAnyNamespace().list();
        try (var w = crater.services().inNamespace("work").watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, io.fabric8.kubernetes.api.model.Service resource) {}

            @Override
            public void onClose(WatcherException cause) {}
        })) {
            // opened
        }
        // A WebSocket exec is a GET authorised as get and create; the record is made before the server answers.
        HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(url + "/api/v1/namespaces/work/pods/p/exec?command=true"))
                                .header("User-Agent", KubeClients.SERVER_AGENT)
                                .build(),
                        HttpResponse.BodyHandlers.discarding());
        // The tests' own clients and the simulated controllers are not Crater.
        other.configMaps().inNamespace("work").resource(map).create();
        other.secrets().inNamespace("work").list();

        assertThat(Files.readAllLines(file))
                .containsExactlyInAnyOrder(
                        "create core configmaps namespace:work",
                        "get core configmaps namespace:work",
                        "patch core configmaps namespace:work",
                        "delete core configmaps namespace:work",
                        "list core nodes cluster",
                        "list core pods all-namespaces",
                        "watch core services namespace:work",
                        "get core pods/exec namespace:work",
                        "create core pods/exec namespace:work");
    }

    @Test
    void recordsNothingUnlessAFileIsNamed() throws Exception {
        server.recordUsesIn(null);
        crater.nodes().list();
        assertThat(file).doesNotExist();
    }
}
