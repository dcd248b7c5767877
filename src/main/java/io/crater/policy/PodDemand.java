package io.crater.policy;

import java.util.Map;

/**
 * One pod to place.
 *
 * @param name pod name
 * @param request effective request (see {@link EffectiveRequest})
 * @param nodeSelector labels the node must carry
 */
public record PodDemand(String name, Resources request, Map<String, String> nodeSelector) {
    public PodDemand {
        nodeSelector = Map.copyOf(nodeSelector);
    }
}
