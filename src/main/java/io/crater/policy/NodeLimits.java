package io.crater.policy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Why a waiting job does not get room that nodes have: the taints it does not tolerate and the target nodes it named
 * (docs/nodes.md, docs/jobs.md). Placement never puts a pod on a node whose {@code NoSchedule}/{@code NoExecute}
 * taint it does not tolerate, nor on a node its target nodes leave out; this says so with the numbers:
 *
 * <ul>
 *   <li>{@code NodeTainted}, one per taint: that many nodes with room for a pod (ready, uncordoned, its selector and
 *       target nodes match, the pod's request fits what is free) carry the taint, with what they have free;
 *   <li>{@code NodeExclusive}: the same for nodes exclusive to another account (which is not named);
 *   <li>{@code TargetNodesBusy}: the job may use only the nodes it named and none of them has room now;
 *   <li>{@code NodesAvoided}: nodes the job avoids would have room for it.
 * </ul>
 */
public final class NodeLimits {

    /** How many node names a reason quotes at most; its numbers say how many there are. */
    static final int MAX_NAMED = 5;

    private NodeLimits() {}

    public static List<Reason> explain(List<NodeCapacity> nodes, List<PodDemand> pods) {
        if (pods.isEmpty()) {
            return List.of();
        }
        PodDemand pod = pods.get(0);
        String res = Placement.primary(pod.request());
        List<Reason> out = new ArrayList<>(tainted(nodes, pod, res));
        TargetNodes target = pod.target();
        if (!target.allow().isEmpty()) {
            Reason busy = busy(nodes, pod, res);
            if (busy != null) {
                out.add(busy);
            }
        }
        if (!target.deny().isEmpty()) {
            List<NodeCapacity> avoided = nodes.stream()
                    .filter(n -> target.deny().contains(n.name()) && roomy(n, pod))
                    .filter(n ->
                            n.matches(pod.nodeSelector()) && Taints.untolerated(n.taints(), pod.tolerations()) == null)
                    .toList();
            if (!avoided.isEmpty()) {
                out.add(ReasonCode.NodesAvoided.reason(
                        "node(s) " + names(avoided) + " have room for its pods ("
                                + Quantities.format(free(avoided, res)) + " " + res + " free) but the job avoids them",
                        Map.of("nodes", (long) avoided.size(), "free", free(avoided, res)),
                        Map.of("nodes", names(avoided), "resource", res)));
            }
        }
        return out;
    }

    /** One reason per untolerated taint on nodes that would otherwise have room. */
    private static List<Reason> tainted(List<NodeCapacity> nodes, PodDemand pod, String res) {
        Map<String, List<NodeCapacity>> byTaint = new TreeMap<>();
        Map<String, Taints.Taint> taints = new TreeMap<>();
        for (NodeCapacity n : nodes) {
            if (!n.matches(pod.nodeSelector()) || !pod.target().admits(n.name()) || !roomy(n, pod)) {
                continue;
            }
            Taints.Taint t = Taints.untolerated(n.taints(), pod.tolerations());
            if (t != null) {
                String key = t.exclusive() ? Taints.EXCLUSIVE : t.describe();
                byTaint.computeIfAbsent(key, k -> new ArrayList<>()).add(n);
                taints.putIfAbsent(key, t);
            }
        }
        List<Reason> out = new ArrayList<>();
        byTaint.forEach((key, on) -> {
            long free = free(on, res);
            Map<String, Long> numbers = Map.of("nodes", (long) on.size(), "free", free);
            String head = on.size() + " node(s) with " + Quantities.format(free) + " free " + res;
            out.add(
                    key.equals(Taints.EXCLUSIVE)
                            ? ReasonCode.NodeExclusive.reason(
                                    head + " are exclusive to another account", numbers, Map.of("resource", res))
                            : ReasonCode.NodeTainted.reason(
                                    head + " are tainted " + key + ", which the job does not tolerate",
                                    numbers,
                                    Map.of("taint", key, "resource", res, "nodes", names(on))));
        });
        return out;
    }

    /** {@code TargetNodesBusy} when none of the nodes the job may use has room for a pod now; else null. */
    private static Reason busy(List<NodeCapacity> nodes, PodDemand pod, String res) {
        List<NodeCapacity> allowed = nodes.stream()
                .filter(n -> pod.target().allow().contains(n.name()))
                .toList();
        if (allowed.stream()
                .anyMatch(n ->
                        n.schedulable() && pod.allowedOn(n) && pod.request().fitsIn(n.free()))) {
            return null;
        }
        long missing = pod.target().allow().size() - allowed.size();
        String named = String.join(
                ", ", pod.target().allow().stream().sorted().limit(MAX_NAMED).toList());
        return ReasonCode.TargetNodesBusy.reason(
                "the job may use only node(s) " + named + ": none has room for its pods now ("
                        + Quantities.format(free(allowed, res)) + " " + res + " free on them"
                        + (missing > 0 ? ", " + missing + " not in the cluster" : "") + ")",
                Map.of(
                        "targetNodes",
                        (long) pod.target().allow().size(),
                        "free",
                        free(allowed, res),
                        "missing",
                        missing),
                Map.of("nodes", named, "resource", res));
    }

    /** Ready, uncordoned, and what is free holds the pod's request. */
    private static boolean roomy(NodeCapacity n, PodDemand pod) {
        return n.schedulable() && pod.request().fitsIn(n.free());
    }

    private static long free(List<NodeCapacity> nodes, String res) {
        return nodes.stream().mapToLong(n -> Math.max(0, n.free().get(res))).sum();
    }

    private static String names(List<NodeCapacity> nodes) {
        return String.join(
                ", ",
                nodes.stream().map(NodeCapacity::name).sorted().limit(MAX_NAMED).toList());
    }
}
