package io.crater.sim;

import io.crater.policy.NodeCapacity;
import io.crater.policy.Resources;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The simulated scheduler's own book of what it has bound and enqueued, like Volcano's scheduler cache with
 * its assumed pods: informer caches lag behind the scheduler's writes, so capacity is counted here, never
 * re-derived from a possibly stale cache.
 */
final class SimLedger {

    private record Binding(String node, Resources request) {}

    private final Map<String, Binding> bindings = new HashMap<>();
    private final Map<String, Map<String, Resources>> queued = new HashMap<>();
    private final Map<String, String> groupQueue = new HashMap<>();

    /** Records a pod bound to a node. Rebinding the same pod replaces the earlier record. */
    void bind(String podKey, String node, Resources request) {
        bindings.put(podKey, new Binding(node, request));
    }

    /** Forgets a pod that ended or was deleted; returns whether it was bound. */
    boolean release(String podKey) {
        return bindings.remove(podKey) != null;
    }

    boolean isBound(String podKey) {
        return bindings.containsKey(podKey);
    }

    Resources usedOn(String node) {
        Resources used = Resources.NONE;
        for (Binding b : bindings.values()) {
            if (b.node().equals(node)) {
                used = used.plus(b.request());
            }
        }
        return used;
    }

    /** Node capacities with this ledger's usage applied. */
    List<NodeCapacity> capacities(List<NodeCapacity> nodes) {
        Map<String, Resources> used = new LinkedHashMap<>();
        bindings.values().forEach(b -> used.merge(b.node(), b.request(), Resources::plus));
        List<NodeCapacity> out = new ArrayList<>();
        for (NodeCapacity n : nodes) {
            out.add(n.withUsed(used.getOrDefault(n.name(), Resources.NONE)));
        }
        return out;
    }

    /** Records a PodGroup admitted into its Volcano Queue with its minimum resources. */
    void enqueue(String queue, String groupKey, Resources minResources) {
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

    Resources queueUsage(String queue) {
        Resources sum = Resources.NONE;
        for (Resources r : queued.getOrDefault(queue, Map.of()).values()) {
            sum = sum.plus(r);
        }
        return sum;
    }
}
