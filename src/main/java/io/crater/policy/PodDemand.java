package io.crater.policy;

import java.util.List;
import java.util.Map;

/**
 * One pod to place.
 *
 * @param name pod name
 * @param request effective request (see {@link EffectiveRequest})
 * @param nodeSelector labels the node must carry
 * @param tolerations the taints it tolerates (see {@link Taints})
 * @param target the nodes it may use by name
 */
public record PodDemand(
        String name,
        Resources request,
        Map<String, String> nodeSelector,
        List<Taints.Toleration> tolerations,
        TargetNodes target) {

    public PodDemand {
        nodeSelector = Map.copyOf(nodeSelector);
        tolerations = tolerations == null ? List.of() : List.copyOf(tolerations);
        target = target == null ? TargetNodes.ANY : target;
    }

    /** A pod that tolerates no taint and may use any node its selector matches. */
    public PodDemand(String name, Resources request, Map<String, String> nodeSelector) {
        this(name, request, nodeSelector, List.of(), TargetNodes.ANY);
    }

    /** The same pod tolerating one more taint. */
    public PodDemand tolerating(Taints.Toleration toleration) {
        List<Taints.Toleration> more = new java.util.ArrayList<>(tolerations);
        more.add(toleration);
        return new PodDemand(name, request, nodeSelector, more, target);
    }

    /** Whether its selector, its target nodes and its tolerations allow the node (its resources aside). */
    public boolean allowedOn(NodeCapacity node) {
        return node.matches(nodeSelector)
                && target.admits(node.name())
                && Taints.untolerated(node.taints(), tolerations) == null;
    }
}
