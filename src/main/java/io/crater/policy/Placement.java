package io.crater.policy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Gang placement: all pods of a group bound to nodes where their effective requests fit, or none.
 *
 * <p>Pods are placed largest first; each goes to the fitting node with the least free capacity of what it
 * asks for (bin packing, which keeps whole nodes free for large requests). The result never over-commits a
 * node: a node's used amounts plus what is assigned to it stay within its allocatable for every resource.
 */
public final class Placement {

    private Placement() {}

    public static GangPlacement placeGang(List<NodeCapacity> nodes, List<PodDemand> pods) {
        Map<String, NodeCapacity> state = new LinkedHashMap<>();
        nodes.forEach(n -> state.put(n.name(), n));
        List<PodDemand> order = new ArrayList<>(pods);
        order.sort(Comparator.comparing((PodDemand p) -> weight(p.request()))
                .reversed()
                .thenComparing(PodDemand::name));
        Map<String, String> assignments = new HashMap<>();
        for (PodDemand pod : order) {
            NodeCapacity best = null;
            for (NodeCapacity node : state.values()) {
                if (fits(node, pod) && (best == null || tighter(node, best, pod.request()))) {
                    best = node;
                }
            }
            if (best == null) {
                return new GangPlacement(
                        Map.of(), List.of(unschedulable(nodes, state.values(), pod, assignments.size(), pods.size())));
            }
            state.put(best.name(), best.withUsed(best.used().plus(pod.request())));
            assignments.put(pod.name(), best.name());
        }
        return new GangPlacement(assignments, List.of());
    }

    /** Whether a single pod fits on a node right now. */
    public static boolean fits(NodeCapacity node, PodDemand pod) {
        if (!node.schedulable() || !pod.allowedOn(node)) {
            return false;
        }
        for (Map.Entry<String, Long> e : pod.request().amounts().entrySet()) {
            String name = e.getKey();
            if (e.getValue() > node.allocatable().get(name) - node.used().get(name)) {
                return false;
            }
        }
        return true;
    }

    private static boolean tighter(NodeCapacity a, NodeCapacity b, Resources request) {
        return leftover(a, request) < leftover(b, request);
    }

    /** Free capacity left on the resources the pod asks for, weighted so accelerators dominate. */
    private static double leftover(NodeCapacity node, Resources request) {
        double score = 0;
        for (String name : request.amounts().keySet()) {
            long alloc = Math.max(1, node.allocatable().get(name));
            long free = node.allocatable().get(name) - node.used().get(name);
            double share = (double) (free - request.get(name)) / alloc;
            score += isAccelerator(name) ? share * 1000 : share;
        }
        return score;
    }

    private static long weight(Resources r) {
        long accelerators = r.amounts().entrySet().stream()
                .filter(e -> isAccelerator(e.getKey()))
                .mapToLong(Map.Entry::getValue)
                .sum();
        return accelerators * 1_000_000L + r.get("cpu");
    }

    public static boolean isAccelerator(String resource) {
        return !resource.equals("cpu")
                && !resource.equals("memory")
                && !resource.equals("pods")
                && !resource.startsWith("ephemeral-storage")
                && !resource.startsWith("hugepages-")
                && resource.contains("/");
    }

    /** How the nodes refused one pod, by the first filter each failed (as Kubernetes' scheduler counts them). */
    private static final class Refusals {
        int notReady;
        int selectorMismatch;
        int notTargeted;
        final Map<String, Integer> tainted = new TreeMap<>();
        final Map<String, Integer> insufficient = new TreeMap<>();
        long largestFree;

        void count(NodeCapacity node, PodDemand pod) {
            Taints.Taint taint = Taints.untolerated(node.taints(), pod.tolerations());
            if (!node.schedulable()) {
                notReady++;
            } else if (!node.matches(pod.nodeSelector())) {
                selectorMismatch++;
            } else if (!pod.target().admits(node.name())) {
                notTargeted++;
            } else if (taint != null) {
                tainted.merge(taint.describe(), 1, Integer::sum);
            } else {
                Resources free = node.free();
                for (var e : pod.request().amounts().entrySet()) {
                    if (e.getValue() > free.get(e.getKey())) {
                        insufficient.merge(e.getKey(), 1, Integer::sum);
                    }
                }
                largestFree = Math.max(largestFree, free.get(primary(pod.request())));
            }
        }

        int taintedNodes() {
            return tainted.values().stream().mapToInt(Integer::intValue).sum();
        }
    }

    private static Reason unschedulable(
            List<NodeCapacity> original, Iterable<NodeCapacity> current, PodDemand pod, int placed, int total) {
        Refusals r = new Refusals();
        current.forEach(node -> r.count(node, pod));
        StringBuilder msg = new StringBuilder("0/" + original.size() + " nodes are available for pod " + pod.name()
                + " (" + placed + " of " + total + " pods of the gang placed):");
        Map<String, Long> numbers = new TreeMap<>();
        r.insufficient.forEach((res, count) -> {
            msg.append(' ').append(count).append(" Insufficient ").append(res).append(',');
            numbers.put("insufficient." + res, (long) count);
        });
        if (r.selectorMismatch > 0) {
            msg.append(' ').append(r.selectorMismatch).append(" node(s) didn't match Pod's node affinity/selector,");
        }
        if (r.notTargeted > 0) {
            msg.append(' ').append(r.notTargeted).append(" node(s) were not among the job's target nodes,");
        }
        r.tainted.forEach((taint, count) -> msg.append(' ')
                .append(count)
                .append(" node(s) had untolerated taint ")
                .append(taint)
                .append(','));
        if (r.notReady > 0) {
            msg.append(' ').append(r.notReady).append(" node(s) were unschedulable,");
        }
        msg.setLength(msg.length() - 1);
        msg.append('.');
        numbers.put("nodes", (long) original.size());
        numbers.put("placed", (long) placed);
        numbers.put("pods", (long) total);
        numbers.put("selectorMismatch", (long) r.selectorMismatch);
        numbers.put("notTargeted", (long) r.notTargeted);
        numbers.put("taintedNodes", (long) r.taintedNodes());
        numbers.put("unschedulableNodes", (long) r.notReady);
        numbers.put("largestFree", r.largestFree);
        numbers.put("requested", pod.request().get(primary(pod.request())));
        return ReasonCode.Unschedulable.reason(msg.toString(), numbers, Map.of("resource", primary(pod.request())));
    }

    /** The resource that dominates a request: its accelerator if any, else cpu. */
    static String primary(Resources request) {
        return request.amounts().keySet().stream()
                .filter(Placement::isAccelerator)
                .findFirst()
                .orElse("cpu");
    }
}
