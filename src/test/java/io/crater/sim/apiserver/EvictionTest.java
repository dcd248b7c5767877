package io.crater.sim.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.crater.sim.Simulator;
import io.crater.sim.cluster.SimPods;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.EvictionBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The {@code pods/eviction} subresource of the in-process API server, through fabric8's client, with budgets. */
class EvictionTest {

    static InProcessApiServer server;
    static KubernetesClient client;
    static SimPods pods;

    @BeforeAll
    static void start() {
        server = new InProcessApiServer(Clock.systemUTC());
        pods = SimPods.behind(server);
        // As NodeAdminService evicts: a 429 is answered at once, not retried with backoff.
        client = Simulator.clientFor(server.start(0))
                .newClient(new io.fabric8.kubernetes.client.RequestConfigBuilder()
                        .withRequestRetryBackoffLimit(0)
                        .build())
                .adapt(KubernetesClient.class);
        for (String ns : new String[] {"plain", "guarded", "percent", "twice"}) {
            client.namespaces()
                    .resource(new NamespaceBuilder()
                            .withNewMetadata()
                            .withName(ns)
                            .endMetadata()
                            .build())
                    .create();
        }
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
        pods.close();
    }

    static void pod(String ns, String name, String phase) {
        Pod p = new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(ns)
                .withLabels(Map.of("app", "web"))
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("c")
                .withImage("busybox")
                .endContainer()
                .endSpec()
                .build();
        client.pods().inNamespace(ns).resource(p).create();
        p.setStatus(new io.fabric8.kubernetes.api.model.PodStatusBuilder()
                .withPhase(phase)
                .build());
        client.pods().inNamespace(ns).resource(p).updateStatus();
    }

    static void budget(String ns, String name, Object minAvailable, Object maxUnavailable) {
        var b = new PodDisruptionBudgetBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(ns)
                .endMetadata()
                .withNewSpec()
                .withNewSelector()
                .withMatchLabels(Map.of("app", "web"))
                .endSelector()
                .endSpec()
                .build();
        if (minAvailable != null) {
            b.getSpec().setMinAvailable(new io.fabric8.kubernetes.api.model.IntOrString(minAvailable));
        }
        if (maxUnavailable != null) {
            b.getSpec().setMaxUnavailable(new io.fabric8.kubernetes.api.model.IntOrString(maxUnavailable));
        }
        client.policy().v1().podDisruptionBudget().inNamespace(ns).resource(b).create();
    }

    static boolean evict(String ns, String name) {
        return client.pods()
                .inNamespace(ns)
                .withName(name)
                .evict(new EvictionBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace(ns)
                        .endMetadata()
                        .build());
    }

    static boolean exists(String ns, String name) {
        return client.pods().inNamespace(ns).withName(name).get() != null;
    }

    @Test
    void withoutABudgetThePodIsDeleted() {
        pod("plain", "a", "Running");
        assertThat(evict("plain", "a")).isTrue();
        assertThat(exists("plain", "a")).isFalse();
    }

    @Test
    void aBudgetRefusesTheEvictionThatWouldBreakItAndAllowsTheOthers() {
        pod("guarded", "g-0", "Running");
        pod("guarded", "g-1", "Running");
        pod("guarded", "g-pending", "Pending");
        budget("guarded", "keep-one", 1, null);
        assertThat(evict("guarded", "g-0")).isTrue();
        assertThat(exists("guarded", "g-0")).isFalse();
        // One healthy pod left, the budget keeps it: 429, and the pod stays.
        assertThat(evict("guarded", "g-1")).isFalse();
        assertThat(exists("guarded", "g-1")).isTrue();
        // A pod that is not running is evicted whatever the budget says.
        assertThat(evict("guarded", "g-pending")).isTrue();
        assertThat(exists("guarded", "g-pending")).isFalse();
    }

    @Test
    void aPercentageIsRoundedUpOfTheExpectedPods() {
        for (int i = 0; i < 4; i++) {
            pod("percent", "p-" + i, "Running");
        }
        // 4 expected, 75 % must stay: 3. One may go; then 3 expected, 75 % rounded up is 3 and none may go.
        budget("percent", "most", "75%", null);
        assertThat(evict("percent", "p-0")).isTrue();
        assertThat(evict("percent", "p-1")).isFalse();
        assertThat(exists("percent", "p-1")).isTrue();
        var spec = new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode();
        assertThat(Evictions.needed(spec.put("maxUnavailable", "50%"), 3)).isEqualTo(1);
        assertThat(Evictions.needed(spec.removeAll().put("maxUnavailable", 1), 3))
                .isEqualTo(2);
        assertThat(Evictions.needed(spec.removeAll().put("minAvailable", "34%"), 3))
                .isEqualTo(2);
        assertThat(Evictions.needed(spec.removeAll(), 3)).isZero();
    }

    @Test
    void aPodUnderTwoBudgetsIsAServerErrorAndAMissingPodIsNotFound() {
        pod("twice", "t-0", "Running");
        budget("twice", "one", 0, null);
        budget("twice", "two", 0, null);
        assertThatThrownBy(() -> evict("twice", "t-0"))
                .isInstanceOf(KubernetesClientException.class)
                .satisfies(e ->
                        assertThat(((KubernetesClientException) e).getCode()).isEqualTo(500))
                .hasMessageContaining("more than one PodDisruptionBudget");
        assertThat(exists("twice", "t-0")).isTrue();
        assertThatThrownBy(() -> evict("twice", "nobody"))
                .isInstanceOf(KubernetesClientException.class)
                .satisfies(e ->
                        assertThat(((KubernetesClientException) e).getCode()).isEqualTo(404));
    }
}
