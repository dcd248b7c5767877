package io.crater.sim.cluster;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Nodes and pods as the simulated scheduler reads them, for its tests. */
final class SimObjects {

    private SimObjects() {}

    /** A ready node with these labels, allocatable (milli-units) and taints. */
    static Node node(String name, Map<String, String> labels, Map<String, Long> allocatable, List<Taint> taints) {
        return new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .withLabels(labels)
                .endMetadata()
                .withNewSpec()
                .withTaints(taints)
                .endSpec()
                .withNewStatus()
                .withAllocatable(quantities(allocatable))
                .addNewCondition()
                .withType("Ready")
                .withStatus("True")
                .endCondition()
                .endStatus()
                .build();
    }

    /** A pod of one container requesting these amounts (milli-units), with a node selector and tolerations. */
    static Pod pod(
            String name, Map<String, Long> requests, Map<String, String> selector, List<Toleration> tolerations) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("crater-jobs")
                .endMetadata()
                .withNewSpec()
                .withNodeSelector(selector)
                .withTolerations(tolerations)
                .addNewContainer()
                .withName("main")
                .withNewResources()
                .withRequests(quantities(requests))
                .endResources()
                .endContainer()
                .endSpec()
                .build();
    }

    static Map<String, Quantity> quantities(Map<String, Long> milli) {
        Map<String, Quantity> out = new TreeMap<>();
        milli.forEach((k, v) -> out.put(k, new Quantity(v % 1000 == 0 ? Long.toString(v / 1000) : v + "m")));
        return out;
    }
}
