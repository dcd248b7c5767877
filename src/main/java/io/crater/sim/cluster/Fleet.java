package io.crater.sim.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.crater.kube.KubeQuantities;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The simulated fleet: groups of identical nodes, read from YAML. Node objects carry capacity, allocatable and
 * the labels real device plugins and feature discovery publish.
 *
 * <pre>
 * nodeGroups:
 *   - name: a100            # nodes a100-0 .. a100-3
 *     count: 4
 *     cpu: "128"
 *     memory: 1Ti
 *     accelerator:
 *       resource: nvidia.com/gpu
 *       count: 8
 *       labels: {nvidia.com/gpu.product: NVIDIA-A100-SXM4-80GB}
 *   - name: mig             # several device resources on one node: MIG's mixed strategy
 *     count: 1
 *     cpu: "64"
 *     memory: 512Gi
 *     labels: {nvidia.com/gpu.product: NVIDIA-A100-SXM4-80GB}
 *     accelerators:
 *       - {resource: nvidia.com/mig-1g.10gb, count: 14}
 *       - {resource: nvidia.com/mig-3g.40gb, count: 2}
 *   - name: hami            # a shared-GPU node: HAMi's vGPU count plus the resources that size shares
 *     count: 1
 *     cpu: "64"
 *     memory: 512Gi
 *     accelerator: {resource: nvidia.com/gpu, count: 40, labels: {nvidia.com/gpu.product: NVIDIA-L40S}}
 *     resources: {nvidia.com/gpumem: "184320", nvidia.com/gpucores: "400"}
 * </pre>
 *
 * {@code accelerator} and the entries of {@code accelerators} are devices (each gets a card of its own, with GPU
 * samples); {@code resources} are further extended resources the nodes publish as they are (counted by the scheduler
 * like any other, no cards).
 */
@JsonIgnoreProperties(ignoreUnknown = false)
public record Fleet(List<NodeGroup> nodeGroups) {

    /** A group of identical nodes named {@code <name>-<index>}. */
    public record NodeGroup(
            String name,
            int count,
            String cpu,
            String memory,
            Accelerator accelerator,
            List<Accelerator> accelerators,
            Map<String, String> resources,
            Map<String, String> labels) {

        /** {@code accelerator} and {@code accelerators} together. */
        public List<Accelerator> devices() {
            List<Accelerator> out = new ArrayList<>();
            if (accelerator != null) {
                out.add(accelerator);
            }
            if (accelerators != null) {
                out.addAll(accelerators);
            }
            return out;
        }
    }

    /** Accelerators of each node of a group. */
    public record Accelerator(String resource, int count, Map<String, String> labels) {}

    /** Reads a fleet from YAML and checks it. */
    public static Fleet parse(InputStream yaml) {
        Fleet fleet = Serialization.unmarshal(yaml, Fleet.class);
        fleet.validate();
        return fleet;
    }

    public static Fleet read(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return parse(in);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read fleet file " + file + ": " + e.getMessage(), e);
        }
    }

    /** The default mixed fleet of the embedded cluster. */
    public static Fleet defaults() {
        try (InputStream in = Fleet.class.getResourceAsStream("/sim/default-fleet.yaml")) {
            return parse(in);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    void validate() {
        if (nodeGroups == null || nodeGroups.isEmpty()) {
            throw new IllegalArgumentException("a fleet needs at least one node group");
        }
        for (NodeGroup g : nodeGroups) {
            if (g.name() == null
                    || !g.name().matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?")
                    || g.name().length() > 50) {
                throw new IllegalArgumentException("node group name must be a DNS label: " + g.name());
            }
            if (g.count() < 0) {
                throw new IllegalArgumentException("node group " + g.name() + ": count must not be negative");
            }
            KubeQuantities.toMilli(g.cpu());
            KubeQuantities.toMilli(g.memory());
            for (Accelerator a : g.devices()) {
                if (a == null || a.resource() == null || !a.resource().contains("/") || a.count() <= 0) {
                    throw new IllegalArgumentException("node group " + g.name()
                            + ": an accelerator needs an extended resource name (domain/name) and a count > 0");
                }
            }
            if (g.resources() != null) {
                g.resources().forEach((resource, amount) -> {
                    if (!resource.contains("/")) {
                        throw new IllegalArgumentException("node group " + g.name() + ": resources names extended"
                                + " resources (domain/name), not " + resource);
                    }
                    KubeQuantities.toMilli(amount);
                });
            }
        }
    }

    /** The Node objects of this fleet. */
    public List<Node> nodes() {
        List<Node> nodes = new ArrayList<>();
        for (NodeGroup g : nodeGroups) {
            for (int i = 0; i < g.count(); i++) {
                nodes.add(node(g, g.name() + "-" + i));
            }
        }
        return nodes;
    }

    private static Node node(NodeGroup g, String name) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("kubernetes.io/hostname", name);
        labels.put("kubernetes.io/os", "linux");
        labels.put("kubernetes.io/arch", "amd64");
        labels.put("node.kubernetes.io/instance-type", g.name());
        labels.put(SimLabels.NODE_GROUP, g.name());
        if (g.labels() != null) {
            labels.putAll(g.labels());
        }
        Map<String, Quantity> capacity = new LinkedHashMap<>();
        Map<String, Quantity> allocatable = new LinkedHashMap<>();
        long cpuMilli = KubeQuantities.toMilli(g.cpu());
        long memMilli = KubeQuantities.toMilli(g.memory());
        capacity.put("cpu", new Quantity(KubeQuantities.format(cpuMilli)));
        capacity.put("memory", new Quantity(KubeQuantities.format(memMilli)));
        capacity.put("pods", new Quantity("110"));
        // The kubelet reserves a little for the system, as on real nodes.
        allocatable.put("cpu", new Quantity(KubeQuantities.format(cpuMilli - Math.min(cpuMilli / 50, 2000))));
        allocatable.put(
                "memory",
                new Quantity(
                        KubeQuantities.format(memMilli - Math.min(memMilli / 50, 4L * 1024 * 1024 * 1024 * 1000))));
        allocatable.put("pods", new Quantity("110"));
        for (Accelerator a : g.devices()) {
            String count = Integer.toString(a.count());
            capacity.put(a.resource(), new Quantity(count));
            allocatable.put(a.resource(), new Quantity(count));
            if (a.labels() != null) {
                labels.putAll(a.labels());
            }
        }
        if (g.resources() != null) {
            g.resources().forEach((resource, amount) -> {
                capacity.put(resource, new Quantity(amount));
                allocatable.put(resource, new Quantity(amount));
            });
        }
        return new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .withLabels(labels)
                .endMetadata()
                .withNewSpec()
                .endSpec()
                .withNewStatus()
                .withCapacity(capacity)
                .withAllocatable(allocatable)
                .addNewCondition()
                .withType("Ready")
                .withStatus("True")
                .withReason("KubeletReady")
                .withMessage("kubelet is posting ready status (simulated)")
                .endCondition()
                .withNewNodeInfo()
                .withKubeletVersion("v1.33.0-crater-sim")
                .withOperatingSystem("linux")
                .withArchitecture("amd64")
                .withContainerRuntimeVersion("containerd://2.0.0-sim")
                .withOsImage("Simulated Linux")
                .withKernelVersion("6.1.0-sim")
                .withMachineID(name)
                .withSystemUUID(name)
                .withBootID(name)
                .withKubeProxyVersion("")
                .endNodeInfo()
                .addNewAddress()
                .withType("InternalIP")
                .withAddress("10.0.0." + (Math.abs(name.hashCode()) % 250 + 1))
                .endAddress()
                .endStatus()
                .build();
    }
}
