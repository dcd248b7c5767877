package io.crater.sim.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.crater.sim.Simulator;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.LocalPortForward;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The setting {@code crater.sim.port-backends}: what it accepts, what it refuses, and which pods' ports it serves. */
class PortBackendsTest {

    static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "kind/jupyter:8888=127.0.0.1:41234 | KIND | jupyter | 8888 | 127.0.0.1 | 41234",
                "pod/c-j7k3f9-main-0:8080=[::1]:9000 | POD | c-j7k3f9-main-0 | 8080 | 0:0:0:0:0:0:0:1 | 9000",
                "' kind/webide:8080=127.0.0.1:1 ' | KIND | webide | 8080 | 127.0.0.1 | 1",
            })
    void aRuleNamesItsPodsPortAndALoopbackServer(
            String setting, String selector, String value, int port, String host, int targetPort) {
        PortBackends parsed = PortBackends.parse(setting);
        assertThat(parsed.rules()).hasSize(1);
        PortBackends.Rule rule = parsed.rules().get(0);
        assertThat(rule.selector()).isEqualTo(PortBackends.Selector.valueOf(selector));
        assertThat(rule.value()).isEqualTo(value);
        assertThat(rule.port()).isEqualTo(port);
        assertThat(rule.target().getAddress().getHostAddress()).isEqualTo(host);
        assertThat(rule.target().getPort()).isEqualTo(targetPort);
    }

    @Test
    void noSettingServesNothing() {
        assertThat(PortBackends.parse(null).rules()).isEmpty();
        assertThat(PortBackends.parse("  ").rules()).isEmpty();
        assertThat(PortBackends.parse(null).target(pod("c-a-main-0", "jupyter"), 8888))
                .isNull();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '"',
            value = {
                "kind/jupyter:8888=10.0.0.5:8888 | forwards to 10.0.0.5: a simulated pod's port can only be served from"
                        + " this host's loopback, 127.0.0.1 or [::1]",
                "kind/jupyter:8888=localhost:8888 | forwards to localhost: a simulated pod's port can only be served",
                "pod/x:8888=[::2]:8888 | forwards to [::2]:",
                "pod/x:8888=127.0.0.2:8888 | forwards to 127.0.0.2:",
                "jupyter:8888=127.0.0.1:1 | is not of the form <selector>:<port>=127.0.0.1:<port>",
                "node/a100-0:22=127.0.0.1:22 | is not of the form",
                "kind/Jupyter:8888=127.0.0.1:1 | is not of the form",
                "kind/jupyter=127.0.0.1:1 | is not of the form",
                "kind/jupyter:8888=127.0.0.1:70000 | names port 70000, not one in 1-65535",
                "kind/jupyter:0=127.0.0.1:80 | names port 0, not one in 1-65535",
                "\"kind/jupyter:8888=127.0.0.1:1,\" | \"'' is not of the form\"",
            })
    void aRuleThatIsMalformedOrLeavesTheHostIsRefusedByName(String setting, String message) {
        assertThatThrownBy(() -> PortBackends.parse(setting))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("crater.sim.port-backends: '")
                .hasMessageContaining(message);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                // pod name, kind, port: the target port served, or 0 for none
                "c-aaa-main-0 | jupyter | 8888 | 2001",
                "c-bbb-main-0 | jupyter | 8888 | 2000",
                "c-bbb-main-0 | jupyter | 6006 | 0",
                "c-ccc-main-0 | webide  | 8080 | 3000",
                "c-ddd-main-0 | custom  | 8888 | 0",
                "c-eee-main-0 | ''      | 8888 | 0",
            })
    void aPodRuleWinsOverAKindRuleAndOnlyItsPortIsServed(String name, String kind, int port, int served) {
        PortBackends backends = PortBackends.parse("kind/jupyter:8888=127.0.0.1:2000,"
                + "pod/c-aaa-main-0:8888=127.0.0.1:2001,kind/jupyter:8888=127.0.0.1:2002,"
                + "kind/webide:8080=127.0.0.1:3000");
        InetSocketAddress target = backends.target(pod(name, kind), port);
        assertThat(target == null ? 0 : target.getPort()).isEqualTo(served);
    }

    /** The bytes of a configured port flow through {@code pods/portforward}; other kinds keep the stand-in app. */
    @Test
    void aConfiguredPortIsServedByTheRealServerThroughPortForward() throws Exception {
        com.sun.net.httpserver.HttpServer server =
                com.sun.net.httpserver.HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            byte[] body = ("real server saw " + exchange.getRequestURI()).getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.setExecutor(Executors.newSingleThreadExecutor());
        server.start();
        String setting = "kind/jupyter:8888=127.0.0.1:" + server.getAddress().getPort();
        Simulator sim = new Simulator(
                Simulator.Settings.defaults(Fleet.defaults(), "crater-jobs").withPortBackends(setting),
                Clock.systemUTC());
        try (KubernetesClient client = Simulator.clientFor(sim.start(0))) {
            running(client, "c-nb-main-0", "jupyter");
            running(client, "c-ide-main-0", "webide");
            assertThat(through(client, "c-nb-main-0", 8888, "/api/kernels")).isEqualTo("real server saw /api/kernels");
            assertThat(through(client, "c-ide-main-0", 8080, "/"))
                    .contains("Simulated VS Code (code-server)")
                    .contains("c-ide-main-0");
        } finally {
            sim.close();
            server.stop(0);
        }
    }

    private static String through(KubernetesClient client, String pod, int port, String path) throws Exception {
        try (LocalPortForward forward =
                client.pods().inNamespace("crater-jobs").withName(pod).portForward(port)) {
            HttpResponse<String> r = HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .build()
                    .send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + forward.getLocalPort() + path))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            return r.body();
        }
    }

    private static void running(KubernetesClient client, String name, String kind) {
        Pod pod = new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withLabels(Map.of(SimLabels.KIND, kind))
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("main")
                .withImage("busybox")
                .endContainer()
                .endSpec()
                .build();
        client.pods().inNamespace("crater-jobs").resource(pod).create();
        Pod created = client.pods().inNamespace("crater-jobs").withName(name).get();
        created.getStatus().setPhase("Running");
        client.pods().inNamespace("crater-jobs").resource(created).updateStatus();
    }

    private static JsonNode pod(String name, String kind) {
        var pod = JSON.createObjectNode();
        var metadata = pod.putObject("metadata");
        metadata.put("name", name).put("namespace", "crater-jobs");
        if (!kind.isEmpty()) {
            metadata.putObject("labels").put(SimLabels.KIND, kind);
        }
        return pod;
    }
}
