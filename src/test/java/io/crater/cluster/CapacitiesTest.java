package io.crater.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.crater.CraterTestResource;
import io.crater.kube.KubeClients;
import io.crater.policy.NodeCapacity;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The capacities placement reads are made once per change: asked again with nothing changed, they are the same; a pod
 * bound to a node, its deletion, a cordon, a new node and a deleted one each show at the next ask.
 */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class CapacitiesTest {

    /** A node of this test's own, tainted so that no other test's pod goes there. */
    static final String NODE = "capacity-test-0";

    static final String NS = "capacity-test";

    @Inject
    ClusterCache cache;

    static NodeCapacity of(List<NodeCapacity> all) {
        return all.stream().filter(n -> n.name().equals(NODE)).findFirst().orElseThrow();
    }

    static long usedCpu(ClusterCache cache) {
        return of(cache.capacities()).used().amounts().getOrDefault("cpu", 0L);
    }

    @Test
    void aNodeABoundPodItsDeletionAndACordonEachShowAtTheNextAsk() {
        await().atMost(Duration.ofSeconds(30)).until(cache::synced);
        try (KubernetesClient k =
                KubeClients.forUrl(CraterTestResource.simulator().url())) {
            k.namespaces()
                    .resource(new NamespaceBuilder()
                            .withNewMetadata()
                            .withName(NS)
                            .endMetadata()
                            .build())
                    .createOr(c -> c.update());
            try {
                exercise(k);
            } finally {
                // Whatever failed, no other test meets this node or its pod (deleting what is gone deletes nothing).
                k.pods()
                        .inNamespace(NS)
                        .withName("holds-three")
                        .withGracePeriod(0)
                        .delete();
                k.nodes().withName(NODE).delete();
            }
        }
    }

    /** The node made, a pod bound to it and deleted, the node cordoned, uncordoned and deleted: each seen next. */
    private void exercise(KubernetesClient k) {
        k.nodes()
                .resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName(NODE)
                        .endMetadata()
                        .withNewSpec()
                        .addNewTaint()
                        .withKey("capacity-test")
                        .withValue("only")
                        .withEffect("NoSchedule")
                        .endTaint()
                        .endSpec()
                        .withNewStatus()
                        .withAllocatable(Map.of("cpu", new Quantity("8"), "memory", new Quantity("16Gi")))
                        .withCapacity(Map.of("cpu", new Quantity("8"), "memory", new Quantity("16Gi")))
                        .addNewCondition()
                        .withType("Ready")
                        .withStatus("True")
                        .endCondition()
                        .endStatus()
                        .build())
                .create();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> cache.capacities().stream().anyMatch(n -> n.name().equals(NODE)));
        assertThat(of(cache.capacities()).schedulable()).isTrue();
        List<NodeCapacity> first = cache.capacities();
        assertThat(cache.capacities())
                .as("nothing changed: the same capacities")
                .isSameAs(first);
        long before = usedCpu(cache);

        k.pods()
                .inNamespace(NS)
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName("holds-three")
                        .endMetadata()
                        .withNewSpec()
                        .withNodeName(NODE)
                        .addNewContainer()
                        .withName("main")
                        .withImage("python:3.12")
                        .withNewResources()
                        .withRequests(Map.of("cpu", new Quantity("3")))
                        .endResources()
                        .endContainer()
                        .endSpec()
                        .build())
                .create();
        await().atMost(Duration.ofSeconds(10)).until(() -> usedCpu(cache) == before + 3000);

        k.pods().inNamespace(NS).withName("holds-three").withGracePeriod(0).delete();
        await().atMost(Duration.ofSeconds(10)).until(() -> usedCpu(cache) == before);

        Node node = k.nodes().withName(NODE).get();
        node.getSpec().setUnschedulable(true);
        k.nodes().resource(node).update();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> !of(cache.capacities()).schedulable());
        Node again = k.nodes().withName(NODE).get();
        again.getSpec().setUnschedulable(null);
        k.nodes().resource(again).update();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> of(cache.capacities()).schedulable());
        k.nodes().withName(NODE).delete();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> cache.capacities().stream().noneMatch(n -> n.name().equals(NODE)));
    }
}
