package io.crater.kube;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a pod spec asks of a node, in milli-units per resource name, by Kubernetes' effective-request rule: per
 * resource the larger of the sum of the app containers and the largest init container, plus the pod overhead.
 */
public final class PodRequests {

    private PodRequests() {}

    public static Map<String, Long> of(PodSpec spec) {
        Map<String, Long> sum = Map.of();
        for (Map<String, Long> c : containers(spec.getContainers())) {
            sum = KubeQuantities.plus(sum, c);
        }
        Map<String, Long> largestInit = Map.of();
        for (Map<String, Long> c : containers(spec.getInitContainers())) {
            largestInit = KubeQuantities.max(largestInit, c);
        }
        return KubeQuantities.plus(KubeQuantities.max(sum, largestInit), KubeQuantities.amounts(spec.getOverhead()));
    }

    private static List<Map<String, Long>> containers(List<Container> containers) {
        if (containers == null) {
            return List.of();
        }
        return containers.stream().map(c -> requests(c.getResources())).toList();
    }

    /** A container's requests; a resource with only a limit is requested at its limit, as Kubernetes defaults it. */
    private static Map<String, Long> requests(ResourceRequirements r) {
        if (r == null) {
            return Map.of();
        }
        Map<String, Quantity> merged = new TreeMap<>();
        if (r.getLimits() != null) {
            merged.putAll(r.getLimits());
        }
        if (r.getRequests() != null) {
            merged.putAll(r.getRequests());
        }
        return KubeQuantities.amounts(merged);
    }
}
