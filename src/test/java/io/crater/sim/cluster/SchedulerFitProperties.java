package io.crater.sim.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.crater.kube.KubeQuantities;
import io.crater.kube.PodRequests;
import io.crater.policy.NodeCapacity;
import io.crater.policy.Placement;
import io.crater.policy.PodDemand;
import io.crater.policy.Resources;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The simulated scheduler's fit check ({@link GangFit} with {@link NodeFit}) is written apart from the placement
 * admission predicts with ({@code policy.Placement}), so a placement bug shows up in tests that run on the simulated
 * cluster. On what both model they must agree whether a gang fits: random fleets of up to six nodes of two
 * accelerator models or none, with random allocatable CPU, memory and whole GPUs, some of each already taken by bound
 * pods, some nodes cordoned; random gangs of up to five pods asking for CPU, memory and whole GPUs, selecting an
 * accelerator model by its {@code nvidia.com/gpu.product} label or not.
 *
 * <p>The generator leaves out what only the simulator models, where the two rightly differ (the examples below name
 * them): taints and tolerations, required node affinity, nodes that are not ready, and a cordoned node taking a pod
 * that tolerates {@code node.kubernetes.io/unschedulable} (admission treats a cordoned node as taking nothing). Pods
 * have one container: both read a pod's effective request through {@code kube.PodRequests}, so init containers and
 * overhead would compare that helper with itself ({@code NodeFitTest} checks them against Kubernetes' rule).
 */
class SchedulerFitProperties {

    private static final List<String> PRODUCTS = List.of("A100", "H100", "");

    record NodeSpec(
            String product,
            long cpu,
            long gpus,
            long usedCpu,
            long usedGpus,
            boolean cordoned,
            long memoryGi,
            long usedMemoryGi) {
        NodeSpec(String product, long cpu, long gpus, long usedCpu, long usedGpus, boolean cordoned) {
            this(product, cpu, gpus, usedCpu, usedGpus, cordoned, 256, 0);
        }
    }

    record PodSpec(long cpu, long gpus, String product, long memoryGi) {}

    @Provide
    Arbitrary<List<NodeSpec>> fleets() {
        Arbitrary<NodeSpec> node = Combinators.combine(
                        Arbitraries.of(PRODUCTS),
                        Arbitraries.longs().between(2, 64),
                        Arbitraries.of(0L, 2L, 4L, 8L),
                        Arbitraries.longs().between(0, 100),
                        Arbitraries.longs().between(0, 100),
                        Arbitraries.integers().between(0, 9),
                        Arbitraries.longs().between(16, 512),
                        Arbitraries.longs().between(0, 100))
                .as((product, cpu, gpus, cpuShare, gpuShare, c, memory, memoryShare) -> new NodeSpec(
                        gpus == 0 ? "" : product,
                        cpu,
                        gpus,
                        cpu * cpuShare / 100,
                        gpus * gpuShare / 100,
                        c == 0,
                        memory,
                        memory * memoryShare / 100));
        return node.list().ofMinSize(1).ofMaxSize(6);
    }

    @Provide
    Arbitrary<List<PodSpec>> gangs() {
        Arbitrary<PodSpec> pod = Combinators.combine(
                        Arbitraries.longs().between(1, 48),
                        Arbitraries.of(0L, 1L, 2L, 4L, 8L),
                        Arbitraries.of(PRODUCTS),
                        Arbitraries.longs().between(0, 256))
                .as(PodSpec::new);
        return pod.list().ofMinSize(1).ofMaxSize(5);
    }

    @Property(tries = 1000)
    void onWhatBothModelTheSimulatorAndAdmissionAgreeWhetherAGangFits(
            @ForAll("fleets") List<NodeSpec> fleet, @ForAll("gangs") List<PodSpec> gang) {
        List<Node> nodes = new ArrayList<>();
        Map<String, Map<String, Long>> used = new HashMap<>();
        List<NodeCapacity> capacities = new ArrayList<>();
        for (int i = 0; i < fleet.size(); i++) {
            NodeSpec n = fleet.get(i);
            String name = "node-" + i;
            Node node = node(name, n);
            nodes.add(node);
            used.put(name, amounts(n.usedCpu(), n.usedGpus(), n.usedMemoryGi()));
            capacities.add(new NodeCapacity(
                    name,
                    node.getMetadata().getLabels(),
                    new Resources(GangFit.allocatable(node)),
                    new Resources(used.get(name)),
                    !n.cordoned()));
        }
        List<Pod> pods = new ArrayList<>();
        List<PodDemand> demands = new ArrayList<>();
        for (int i = 0; i < gang.size(); i++) {
            PodSpec p = gang.get(i);
            Map<String, String> selector =
                    p.product().isEmpty() ? Map.of() : Map.of("nvidia.com/gpu.product", p.product());
            Pod pod = SimObjects.pod("pod-" + i, amounts(p.cpu(), p.gpus(), p.memoryGi()), selector, List.of());
            pods.add(pod);
            demands.add(new PodDemand("pod-" + i, new Resources(PodRequests.of(pod.getSpec())), selector));
        }

        GangFit.Result simulated = GangFit.place(nodes, used, pods);
        boolean predicted = Placement.placeGang(capacities, demands).placed();

        assertThat(simulated.placed()).as("simulator: %s", simulated.failure()).isEqualTo(predicted);
        if (simulated.placed()) {
            assertThat(simulated.assignments()).hasSize(pods.size());
            Map<String, Map<String, Long>> after = new HashMap<>(used);
            for (Pod pod : pods) {
                after.merge(
                        simulated.assignments().get(pod.getMetadata().getName()),
                        PodRequests.of(pod.getSpec()),
                        KubeQuantities::plus);
            }
            for (Node node : nodes) {
                Map<String, Long> alloc = GangFit.allocatable(node);
                assertThat(after.get(node.getMetadata().getName()))
                        .allSatisfy((r, v) -> assertThat(v).isLessThanOrEqualTo(alloc.getOrDefault(r, 0L)));
            }
        }
    }

    @Example
    void anUntoleratedTaintKeepsAPodOffANodeAdmissionWouldPlaceItOn() {
        Node tainted = gpuNode("a100-0", false, taint("dedicated", "training", "NoSchedule"));
        Pod pod = gpuPod(List.of());

        GangFit.Result r = GangFit.place(List.of(tainted), Map.of(), List.of(pod));

        assertThat(r.placed()).isFalse();
        assertThat(r.failure())
                .isEqualTo("0/1 nodes are available for pod pod-0 (0 of 1 pods of the gang placed):"
                        + " 1 node(s) had untolerated taint {dedicated: training}.");
        assertThat(predicted(tainted, pod)).isTrue();
    }

    @Example
    void aMatchingTolerationLetsThePodOn() {
        Node tainted = gpuNode("a100-0", false, taint("dedicated", "training", "NoExecute"));
        Pod equal = gpuPod(List.of(toleration("dedicated", "Equal", "training", "NoExecute")));
        Pod exists = gpuPod(List.of(toleration("dedicated", "Exists", null, null)));
        Pod everything = gpuPod(List.of(toleration(null, "Exists", null, null)));
        Pod otherValue = gpuPod(List.of(toleration("dedicated", "Equal", "inference", null)));

        assertThat(GangFit.place(List.of(tainted), Map.of(), List.of(equal)).assignments())
                .containsEntry("pod-0", "a100-0");
        assertThat(GangFit.place(List.of(tainted), Map.of(), List.of(exists)).placed())
                .isTrue();
        assertThat(GangFit.place(List.of(tainted), Map.of(), List.of(everything))
                        .placed())
                .isTrue();
        assertThat(GangFit.place(List.of(tainted), Map.of(), List.of(otherValue))
                        .placed())
                .isFalse();
    }

    @Example
    void aPreferNoScheduleTaintDoesNotRepel() {
        Node soft = gpuNode("a100-0", false, taint("dedicated", "training", "PreferNoSchedule"));

        assertThat(GangFit.place(List.of(soft), Map.of(), List.of(gpuPod(List.of())))
                        .placed())
                .isTrue();
    }

    @Example
    void aCordonedNodeTakesOnlyPodsToleratingItsUnschedulableTaint() {
        Node cordoned = gpuNode("a100-0", true);
        Pod plain = gpuPod(List.of());
        Pod tolerating = gpuPod(List.of(toleration(NodeFit.UNSCHEDULABLE_TAINT, "Exists", null, "NoSchedule")));

        GangFit.Result refused = GangFit.place(List.of(cordoned), Map.of(), List.of(plain));
        assertThat(refused.failure())
                .isEqualTo("0/1 nodes are available for pod pod-0 (0 of 1 pods of the gang placed):"
                        + " 1 node(s) were unschedulable.");
        assertThat(GangFit.place(List.of(cordoned), Map.of(), List.of(tolerating))
                        .placed())
                .isTrue();
        assertThat(predicted(cordoned, tolerating)).isFalse();
    }

    @Example
    void requiredNodeAffinityIsMatchedByLabels() {
        Node a100 = gpuNode("a100-0", false);
        Pod notOnA100 = gpuPod(List.of());
        notOnA100
                .getSpec()
                .setAffinity(new io.fabric8.kubernetes.api.model.AffinityBuilder()
                        .withNewNodeAffinity()
                        .withNewRequiredDuringSchedulingIgnoredDuringExecution()
                        .addNewNodeSelectorTerm()
                        .withMatchExpressions(new NodeSelectorRequirementBuilder()
                                .withKey("nvidia.com/gpu.product")
                                .withOperator("NotIn")
                                .withValues("A100")
                                .build())
                        .endNodeSelectorTerm()
                        .endRequiredDuringSchedulingIgnoredDuringExecution()
                        .endNodeAffinity()
                        .build());

        GangFit.Result r = GangFit.place(List.of(a100), Map.of(), List.of(notOnA100));

        assertThat(r.failure()).endsWith(": 1 node(s) didn't match Pod's node affinity/selector.");
        assertThat(predicted(a100, notOnA100)).isTrue();
    }

    @Example
    void theReasonCountsNodesByWhatRefusedThem() {
        Node full = gpuNode("a100-0", false);
        Node other = node("h100-0", new NodeSpec("H100", 64, 8, 0, 0, false));
        Node tainted = gpuNode("a100-1", false, taint("dedicated", "x", "NoSchedule"));
        Pod pod = gpuPod(List.of());

        GangFit.Result r = GangFit.place(List.of(full, other, tainted), Map.of("a100-0", amounts(0, 6)), List.of(pod));

        assertThat(r.failure())
                .isEqualTo("0/3 nodes are available for pod pod-0 (0 of 1 pods of the gang placed):"
                        + " 1 Insufficient nvidia.com/gpu, 1 node(s) didn't match Pod's node affinity/selector,"
                        + " 1 node(s) had untolerated taint {dedicated: x}.");
    }

    private static boolean predicted(Node node, Pod pod) {
        NodeCapacity capacity = new NodeCapacity(
                node.getMetadata().getName(),
                node.getMetadata().getLabels(),
                new Resources(GangFit.allocatable(node)),
                Resources.NONE,
                !NodeFit.cordoned(node));
        PodDemand demand = new PodDemand(
                pod.getMetadata().getName(),
                new Resources(PodRequests.of(pod.getSpec())),
                pod.getSpec().getNodeSelector());
        return Placement.placeGang(List.of(capacity), List.of(demand)).placed();
    }

    private static Node node(String name, NodeSpec n) {
        Map<String, String> labels = new HashMap<>(Map.of("kubernetes.io/hostname", name));
        if (!n.product().isEmpty()) {
            labels.put("nvidia.com/gpu.product", n.product());
        }
        Map<String, Long> alloc = new HashMap<>(amounts(n.cpu(), n.gpus(), n.memoryGi()));
        Node node = SimObjects.node(name, labels, alloc, List.of());
        node.getSpec().setUnschedulable(n.cordoned() ? Boolean.TRUE : null);
        return node;
    }

    private static Node gpuNode(String name, boolean cordoned, Taint... taints) {
        Node node = node(name, new NodeSpec("A100", 64, 8, 0, 0, cordoned));
        node.getSpec().setTaints(List.of(taints));
        return node;
    }

    private static Pod gpuPod(List<Toleration> tolerations) {
        return SimObjects.pod("pod-0", amounts(8, 4), Map.of("nvidia.com/gpu.product", "A100"), tolerations);
    }

    private static Map<String, Long> amounts(long cpu, long gpus) {
        return amounts(cpu, gpus, 0);
    }

    /** CPU and GPUs in whole units, memory in GiB, as milli-units. */
    private static Map<String, Long> amounts(long cpu, long gpus, long memoryGi) {
        Map<String, Long> out = new HashMap<>();
        if (memoryGi > 0) {
            out.put("memory", (memoryGi << 30) * 1000);
        }
        if (cpu > 0) {
            out.put("cpu", cpu * 1000);
        }
        if (gpus > 0) {
            out.put("nvidia.com/gpu", gpus * 1000);
        }
        return out;
    }

    private static Taint taint(String key, String value, String effect) {
        return new Taint(effect, key, null, value);
    }

    private static Toleration toleration(String key, String operator, String value, String effect) {
        return new Toleration(effect, key, operator, null, value);
    }
}
