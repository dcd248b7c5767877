package io.crater.platform;

import io.crater.policy.EffectiveRequest;
import io.crater.policy.Resources;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What a pod spec asks of a node, by Kubernetes' effective-request rule. */
public final class PodRequests {

    private PodRequests() {}

    public static Resources of(PodSpec spec) {
        return EffectiveRequest.of(
                containers(spec.getContainers()), containers(spec.getInitContainers()), quantities(spec.getOverhead()));
    }

    private static List<Resources> containers(List<Container> containers) {
        if (containers == null) {
            return List.of();
        }
        return containers.stream().map(c -> requests(c.getResources())).toList();
    }

    /** A container's requests; a resource with only a limit is requested at its limit, as Kubernetes defaults it. */
    private static Resources requests(ResourceRequirements r) {
        if (r == null) {
            return Resources.NONE;
        }
        Map<String, Quantity> merged = new TreeMap<>();
        if (r.getLimits() != null) {
            merged.putAll(r.getLimits());
        }
        if (r.getRequests() != null) {
            merged.putAll(r.getRequests());
        }
        return quantities(merged);
    }

    public static Resources quantities(Map<String, Quantity> quantities) {
        if (quantities == null) {
            return Resources.NONE;
        }
        Map<String, String> strings = new TreeMap<>();
        quantities.forEach((k, v) -> strings.put(k, v.toString()));
        return Resources.ofQuantities(strings);
    }
}
