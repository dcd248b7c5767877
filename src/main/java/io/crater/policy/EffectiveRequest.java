package io.crater.policy;

import java.util.List;

/**
 * Kubernetes' rule for what a pod asks of a node: the larger of the sum of its app containers and its largest
 * init container, per resource, plus the pod overhead.
 */
public final class EffectiveRequest {

    private EffectiveRequest() {}

    public static Resources of(List<Resources> containers, List<Resources> initContainers, Resources overhead) {
        Resources sum = Resources.NONE;
        for (Resources c : containers) {
            sum = sum.plus(c);
        }
        Resources largestInit = Resources.NONE;
        for (Resources c : initContainers) {
            largestInit = largestInit.max(c);
        }
        return sum.max(largestInit).plus(overhead == null ? Resources.NONE : overhead);
    }
}
