package io.crater.policy;

import java.util.List;
import java.util.Map;

/**
 * A node as placement sees it.
 *
 * @param name node name
 * @param labels node labels (selectors are matched against them)
 * @param allocatable what the node offers to pods
 * @param used effective requests of the non-terminal pods bound to it
 * @param schedulable ready and not cordoned
 * @param taints its taints (the cordon's {@code node.kubernetes.io/unschedulable} aside: {@code schedulable} says it)
 */
public record NodeCapacity(
        String name,
        Map<String, String> labels,
        Resources allocatable,
        Resources used,
        boolean schedulable,
        List<Taints.Taint> taints) {

    public NodeCapacity {
        labels = Map.copyOf(labels);
        taints = taints == null ? List.of() : List.copyOf(taints);
    }

    /** An untainted node. */
    public NodeCapacity(
            String name, Map<String, String> labels, Resources allocatable, Resources used, boolean schedulable) {
        this(name, labels, allocatable, used, schedulable, List.of());
    }

    public Resources free() {
        return allocatable.minus(used);
    }

    public boolean matches(Map<String, String> selector) {
        for (Map.Entry<String, String> e : selector.entrySet()) {
            if (!e.getValue().equals(labels.get(e.getKey()))) {
                return false;
            }
        }
        return true;
    }

    public NodeCapacity withUsed(Resources newUsed) {
        return new NodeCapacity(name, labels, allocatable, newUsed, schedulable, taints);
    }
}
