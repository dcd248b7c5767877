package io.crater.sim.cluster;

import io.crater.kube.KubeQuantities;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The simulated scheduler's own book of what it has bound and enqueued, like Volcano's scheduler cache with
 * its assumed pods: informer caches lag behind the scheduler's writes, so capacity is counted here, never
 * re-derived from a possibly stale cache.
 */
final class SimLedger {

    /** A bound pod's node and effective request (milli-units per resource). */
    private record Binding(String node, Map<String, Long> request) {}

    private final Map<String, Binding> bindings = new HashMap<>();
    private final Map<String, Map<String, Map<String, Long>>> queued = new HashMap<>();
    private final Map<String, String> groupQueue = new HashMap<>();

    /** Records a pod bound to a node. Rebinding the same pod replaces the earlier record. */
    void bind(String podKey, String node, Map<String, Long> request) {
        bindings.put(podKey, new Binding(node, request));
    }

    /** Forgets a pod that ended or was deleted; returns whether it was bound. */
    boolean release(String podKey) {
        return bindings.remove(podKey) != null;
    }

    boolean isBound(String podKey) {
        return bindings.containsKey(podKey);
    }

    Map<String, Long> usedOn(String node) {
        return usedByNode().getOrDefault(node, Map.of());
    }

    /** What the bound pods request of each node they are bound to. */
    Map<String, Map<String, Long>> usedByNode() {
        Map<String, Map<String, Long>> used = new TreeMap<>();
        bindings.values().forEach(b -> used.merge(b.node(), b.request(), KubeQuantities::plus));
        return used;
    }

    /** Records a PodGroup admitted into its Volcano Queue with its minimum resources. */
    void enqueue(String queue, String groupKey, Map<String, Long> minResources) {
        queued.computeIfAbsent(queue, q -> new HashMap<>()).put(groupKey, minResources);
        groupQueue.put(groupKey, queue);
    }

    boolean isEnqueued(String groupKey) {
        return groupQueue.containsKey(groupKey);
    }

    /** Forgets a PodGroup that completed or was deleted. */
    void dequeue(String groupKey) {
        String queue = groupQueue.remove(groupKey);
        if (queue != null) {
            queued.getOrDefault(queue, Map.of()).remove(groupKey);
        }
    }

    Map<String, Long> queueUsage(String queue) {
        Map<String, Long> sum = Map.of();
        for (Map<String, Long> r : queued.getOrDefault(queue, Map.of()).values()) {
            sum = KubeQuantities.plus(sum, r);
        }
        return sum;
    }
}
