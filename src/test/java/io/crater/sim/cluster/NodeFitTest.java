package io.crater.sim.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The simulated scheduler's fit check, rule by rule as Kubernetes' scheduler filters: one pod, one node (8 CPU,
 * 64 GiB, 8 A100s unless a row says otherwise), and whether it binds or which filter refuses it.
 */
class NodeFitTest {

    static final String GPU = "nvidia.com/gpu";
    static final String PRODUCT = "nvidia.com/gpu.product";
    static final String FITS = "fits";

    static Stream<Arguments> cases() {
        return Stream.of(
                row(
                        "requests within allocatable",
                        aNode(),
                        aPod().container(app().cpu("8").gpu(8)),
                        FITS),
                row("one CPU too many", aNode(), aPod().container(app().cpu("8500m")), "1 Insufficient cpu"),
                row("too much memory", aNode(), aPod().container(app().memory("65Gi")), "1 Insufficient memory"),
                row(
                        "a resource the node lacks",
                        aNode(),
                        aPod().container(app().extra("example.com/fpga", "1")),
                        "1 Insufficient example.com/fpga"),
                row(
                        "app containers add up",
                        aNode(),
                        aPod().container(app().cpu("5")).container(app().cpu("4")),
                        "1 Insufficient cpu"),
                row(
                        "a large init container counts alone",
                        aNode(),
                        aPod().init(app().cpu("8")).container(app().cpu("4")),
                        FITS),
                row(
                        "an init container above allocatable",
                        aNode(),
                        aPod().init(app().cpu("9")).container(app().cpu("1")),
                        "1 Insufficient cpu"),
                row(
                        "init containers are not summed",
                        aNode(),
                        aPod().init(app().cpu("6")).init(app().cpu("6")).container(app().cpu("1")),
                        FITS),
                row(
                        "pod overhead is added",
                        aNode(),
                        aPod().container(app().cpu("7500m")).overhead("1"),
                        "1 Insufficient cpu"),
                row(
                        "a limit stands for a missing request",
                        aNode(),
                        aPod().container(app().cpuLimit("9")),
                        "1 Insufficient cpu"),
                row(
                        "a request wins over its limit",
                        aNode(),
                        aPod().container(app().cpu("2").cpuLimit("16")),
                        FITS),
                row(
                        "what bound pods use is taken",
                        aNode().used(Map.of("cpu", 6000L)),
                        aPod().container(app().cpu("3")),
                        "1 Insufficient cpu"),
                row("what is left still fits", aNode().used(Map.of(GPU, 4000L)), aPod().container(app().gpu(4)), FITS),
                row("nodeSelector matches", aNode(), aPod().selector(PRODUCT, "A100"), FITS),
                row("nodeSelector differs", aNode(), aPod().selector(PRODUCT, "H100"), SELECTOR),
                row("nodeSelector names a label the node lacks", aNode(), aPod().selector("zone", "a"), SELECTOR),
                row("affinity In matches", aNode(), aPod().affinity(PRODUCT, "In", "H100", "A100"), FITS),
                row("affinity In misses", aNode(), aPod().affinity(PRODUCT, "In", "H100"), SELECTOR),
                row("affinity NotIn", aNode(), aPod().affinity(PRODUCT, "NotIn", "A100"), SELECTOR),
                row("affinity NotIn without the label", aNode(), aPod().affinity("zone", "NotIn", "a"), FITS),
                row("affinity Exists", aNode(), aPod().affinity(PRODUCT, "Exists"), FITS),
                row("affinity Exists without the label", aNode(), aPod().affinity("zone", "Exists"), SELECTOR),
                row("affinity DoesNotExist", aNode(), aPod().affinity(PRODUCT, "DoesNotExist"), SELECTOR),
                row("affinity DoesNotExist without the label", aNode(), aPod().affinity("zone", "DoesNotExist"), FITS),
                row("the node's name In", aNode(), aPod().field("In", "node-1", "node-0"), FITS),
                row("another node's name In", aNode(), aPod().field("In", "node-1"), SELECTOR),
                row("the node's name NotIn", aNode(), aPod().field("NotIn", "node-0"), SELECTOR),
                row("another node's name NotIn", aNode(), aPod().field("NotIn", "node-5"), FITS),
                row(
                        "a name field and a label expression both hold",
                        aNode(),
                        aPod().field("In", "node-0").affinity(PRODUCT, "In", "A100"),
                        FITS),
                row(
                        "a name field holds but the label expression does not",
                        aNode(),
                        aPod().field("In", "node-0").affinity(PRODUCT, "In", "H100"),
                        SELECTOR),
                row(
                        "a NoSchedule taint repels",
                        aNode().taint("dedicated", "x", "NoSchedule"),
                        aPod(),
                        "1 node(s) had untolerated taint {dedicated: x}"),
                row(
                        "a NoExecute taint repels",
                        aNode().taint("dedicated", "x", "NoExecute"),
                        aPod(),
                        "1 node(s) had untolerated taint {dedicated: x}"),
                row(
                        "a PreferNoSchedule taint does not",
                        aNode().taint("dedicated", "x", "PreferNoSchedule"),
                        aPod(),
                        FITS),
                row(
                        "Equal with the value tolerates",
                        aNode().taint("dedicated", "x", "NoSchedule"),
                        aPod().tolerate("dedicated", "Equal", "x", "NoSchedule"),
                        FITS),
                row(
                        "Equal with another value does not",
                        aNode().taint("dedicated", "x", "NoSchedule"),
                        aPod().tolerate("dedicated", "Equal", "y", "NoSchedule"),
                        "1 node(s) had untolerated taint {dedicated: x}"),
                row(
                        "Exists tolerates any value",
                        aNode().taint("dedicated", "x", "NoSchedule"),
                        aPod().tolerate("dedicated", "Exists", null, null),
                        FITS),
                row(
                        "an empty key with Exists tolerates all",
                        aNode().taint("dedicated", "x", "NoExecute"),
                        aPod().tolerate(null, "Exists", null, null),
                        FITS),
                row(
                        "another effect does not tolerate",
                        aNode().taint("dedicated", "x", "NoExecute"),
                        aPod().tolerate("dedicated", "Exists", null, "NoSchedule"),
                        "1 node(s) had untolerated taint {dedicated: x}"),
                row("a cordoned node takes nothing", aNode().cordoned(), aPod(), UNSCHEDULABLE),
                row("a node that is not ready takes nothing", aNode().notReady(), aPod(), UNSCHEDULABLE));
    }

    static final String SELECTOR = "1 node(s) didn't match Pod's node affinity/selector";
    static final String UNSCHEDULABLE = "1 node(s) were unschedulable";

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void aPodBindsWhereKubernetesWouldBindIt(String name, NodeFixture node, PodFixture pod, String want) {
        GangFit.Result r =
                GangFit.place(List.of(node.build()), Map.of("node-0", node.used), List.of(pod.build("pod-0")));

        if (want.equals(FITS)) {
            assertThat(r.failure()).isNull();
            assertThat(r.assignments()).containsExactly(Map.entry("pod-0", "node-0"));
        } else {
            assertThat(r.assignments()).isEmpty();
            assertThat(r.failure())
                    .isEqualTo("0/1 nodes are available for pod pod-0 (0 of 1 pods of the gang placed): " + want + ".");
        }
    }

    @Test
    void aGangBindsAllOfItsPodsOrNone() {
        List<Node> nodes =
                List.of(aNode().named("node-0").build(), aNode().named("node-1").build());
        List<Pod> two = List.of(gpuPod("w-0", 6), gpuPod("w-1", 6));
        List<Pod> three = List.of(gpuPod("w-0", 6), gpuPod("w-1", 6), gpuPod("w-2", 6));

        GangFit.Result placed = GangFit.place(nodes, Map.of(), two);
        GangFit.Result refused = GangFit.place(nodes, Map.of(), three);

        assertThat(placed.assignments()).containsOnlyKeys("w-0", "w-1");
        assertThat(placed.assignments().values()).containsExactlyInAnyOrder("node-0", "node-1");
        assertThat(refused.assignments()).isEmpty();
        assertThat(refused.failure())
                .isEqualTo("0/2 nodes are available for pod w-2 (2 of 3 pods of the gang placed):"
                        + " 2 Insufficient nvidia.com/gpu.");
    }

    private static Pod gpuPod(String name, int gpus) {
        return aPod().container(app().gpu(gpus)).build(name);
    }

    private static Arguments row(String name, NodeFixture node, PodFixture pod, String want) {
        return Arguments.of(name, node, pod, want);
    }

    static NodeFixture aNode() {
        return new NodeFixture();
    }

    static PodFixture aPod() {
        return new PodFixture();
    }

    static ContainerFixture app() {
        return new ContainerFixture();
    }

    /** A node of the table: ready, schedulable, 8 CPU, 64 GiB, 8 A100s, nothing bound, unless told otherwise. */
    static final class NodeFixture {
        String name = "node-0";
        Map<String, Long> used = Map.of();
        final List<Taint> taints = new ArrayList<>();
        boolean cordoned;
        boolean ready = true;

        NodeFixture named(String name) {
            this.name = name;
            return this;
        }

        NodeFixture used(Map<String, Long> used) {
            this.used = used;
            return this;
        }

        NodeFixture taint(String key, String value, String effect) {
            taints.add(new Taint(effect, key, null, value));
            return this;
        }

        NodeFixture cordoned() {
            cordoned = true;
            return this;
        }

        NodeFixture notReady() {
            ready = false;
            return this;
        }

        Node build() {
            Node node = SimObjects.node(
                    name,
                    Map.of(PRODUCT, "A100", "kubernetes.io/hostname", name),
                    Map.of("cpu", 8000L, "memory", (64L << 30) * 1000, GPU, 8000L),
                    taints);
            node.getSpec().setUnschedulable(cordoned ? Boolean.TRUE : null);
            node.getStatus().getConditions().get(0).setStatus(ready ? "True" : "False");
            return node;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** A pod of the table: one container asking for one CPU unless told otherwise. */
    static final class PodFixture {
        final List<Container> containers = new ArrayList<>();
        final List<Container> inits = new ArrayList<>();
        final Map<String, String> selector = new java.util.TreeMap<>();
        final List<NodeSelectorRequirement> affinity = new ArrayList<>();
        final List<NodeSelectorRequirement> fields = new ArrayList<>();
        final List<Toleration> tolerations = new ArrayList<>();
        String overhead;

        PodFixture container(ContainerFixture c) {
            containers.add(c.build("c" + containers.size()));
            return this;
        }

        PodFixture init(ContainerFixture c) {
            inits.add(c.build("init" + inits.size()));
            return this;
        }

        PodFixture overhead(String cpu) {
            overhead = cpu;
            return this;
        }

        PodFixture selector(String key, String value) {
            selector.put(key, value);
            return this;
        }

        PodFixture affinity(String key, String operator, String... values) {
            affinity.add(new NodeSelectorRequirement(key, operator, List.of(values)));
            return this;
        }

        /** A required match of the node's name ({@code matchFields metadata.name}). */
        PodFixture field(String operator, String... names) {
            fields.add(new NodeSelectorRequirement("metadata.name", operator, List.of(names)));
            return this;
        }

        PodFixture tolerate(String key, String operator, String value, String effect) {
            tolerations.add(new Toleration(effect, key, operator, null, value));
            return this;
        }

        Pod build(String name) {
            PodBuilder b = new PodBuilder()
                    .withNewMetadata()
                    .withName(name)
                    .withNamespace("crater-jobs")
                    .endMetadata()
                    .withNewSpec()
                    .withNodeSelector(selector)
                    .withTolerations(tolerations)
                    .withInitContainers(inits)
                    .withContainers(
                            containers.isEmpty() ? List.of(app().cpu("1").build("c0")) : containers)
                    .endSpec();
            if (overhead != null) {
                b.editSpec()
                        .withOverhead(SimObjects.quantities(Map.of("cpu", Long.parseLong(overhead) * 1000)))
                        .endSpec();
            }
            if (!affinity.isEmpty() || !fields.isEmpty()) {
                b.editSpec()
                        .withNewAffinity()
                        .withNewNodeAffinity()
                        .withNewRequiredDuringSchedulingIgnoredDuringExecution()
                        .addNewNodeSelectorTerm()
                        .withMatchExpressions(affinity)
                        .withMatchFields(fields)
                        .endNodeSelectorTerm()
                        .endRequiredDuringSchedulingIgnoredDuringExecution()
                        .endNodeAffinity()
                        .endAffinity()
                        .endSpec();
            }
            return b.build();
        }

        @Override
        public String toString() {
            return "pod";
        }
    }

    /** A container's requests and limits, as Kubernetes quantity strings. */
    static final class ContainerFixture {
        final Map<String, String> requests = new java.util.TreeMap<>();
        final Map<String, String> limits = new java.util.TreeMap<>();

        ContainerFixture cpu(String q) {
            requests.put("cpu", q);
            return this;
        }

        ContainerFixture cpuLimit(String q) {
            limits.put("cpu", q);
            return this;
        }

        ContainerFixture memory(String q) {
            requests.put("memory", q);
            return this;
        }

        ContainerFixture gpu(int n) {
            limits.put(GPU, Integer.toString(n));
            return this;
        }

        ContainerFixture extra(String resource, String q) {
            requests.put(resource, q);
            return this;
        }

        Container build(String name) {
            ContainerBuilder b =
                    new ContainerBuilder().withName(name).withNewResources().endResources();
            requests.forEach((k, v) -> b.editResources()
                    .addToRequests(k, new io.fabric8.kubernetes.api.model.Quantity(v))
                    .endResources());
            limits.forEach((k, v) -> b.editResources()
                    .addToLimits(k, new io.fabric8.kubernetes.api.model.Quantity(v))
                    .endResources());
            return b.build();
        }
    }
}
