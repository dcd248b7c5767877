package io.crater.sim.cluster;

import io.crater.kube.KubeQuantities;
import io.crater.kube.PodRequests;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Volcano's {@code allocate} for one gang: every pod bound to a node {@link NodeFit} accepts, or none. Pods go
 * largest first (accelerators, then CPU) onto the fitting node with the least free share of what the pod asks for,
 * accelerators weighted over CPU and memory (bin packing, which keeps whole nodes free for large requests); the first
 * node in name order wins a tie. When a pod finds no node, the reason counts the nodes by the filter that refused
 * them, as Kubernetes' scheduler reports it.
 */
final class GangFit {

    private GangFit() {}

    /** The pod name to node name of every pod, or no assignment and the reason. */
    record Result(Map<String, String> assignments, String failure) {
        boolean placed() {
            return failure == null;
        }
    }

    /**
     * Places a gang.
     *
     * @param nodes the cluster's nodes
     * @param used what is bound to each node already (effective requests of its non-terminal pods), by node name
     * @param pods the gang's unbound pods
     */
    static Result place(List<Node> nodes, Map<String, Map<String, Long>> used, List<Pod> pods) {
        List<Node> byName = new ArrayList<>(nodes);
        byName.sort(Comparator.comparing(n -> n.getMetadata().getName()));
        Map<String, Map<String, Long>> taken = new LinkedHashMap<>();
        byName.forEach(n -> taken.put(
                n.getMetadata().getName(), used.getOrDefault(n.getMetadata().getName(), Map.of())));
        Map<Pod, Map<String, Long>> requests = new HashMap<>();
        pods.forEach(p -> requests.put(p, PodRequests.of(p.getSpec())));
        List<Pod> order = new ArrayList<>(pods);
        order.sort(Comparator.comparingLong((Pod p) -> -weight(requests.get(p)))
                .thenComparing(p -> p.getMetadata().getName()));
        Map<String, String> assignments = new HashMap<>();
        for (Pod pod : order) {
            Map<String, Long> request = requests.get(pod);
            Node best = null;
            double bestScore = 0;
            for (Node node : byName) {
                Map<String, Long> free = free(node, taken.get(node.getMetadata().getName()));
                if (NodeFit.check(node, free, pod.getSpec(), request) == null) {
                    double score = leftover(allocatable(node), free, request);
                    if (best == null || score < bestScore) {
                        best = node;
                        bestScore = score;
                    }
                }
            }
            if (best == null) {
                return new Result(Map.of(), why(byName, taken, pod, request, assignments.size(), pods.size()));
            }
            taken.merge(best.getMetadata().getName(), request, KubeQuantities::plus);
            assignments.put(pod.getMetadata().getName(), best.getMetadata().getName());
        }
        return new Result(Map.copyOf(assignments), null);
    }

    static Map<String, Long> allocatable(Node node) {
        return KubeQuantities.amounts(
                node.getStatus() == null ? null : node.getStatus().getAllocatable());
    }

    private static Map<String, Long> free(Node node, Map<String, Long> used) {
        Map<String, Long> free = new TreeMap<>(allocatable(node));
        used.forEach((name, milli) -> free.merge(name, -milli, Long::sum));
        return free;
    }

    /** What stays free of the resources the pod asks for, as shares of the node's allocatable. */
    private static double leftover(Map<String, Long> allocatable, Map<String, Long> free, Map<String, Long> request) {
        double score = 0;
        for (Map.Entry<String, Long> e : request.entrySet()) {
            long alloc = Math.max(1, allocatable.getOrDefault(e.getKey(), 0L));
            double share = (double) (free.getOrDefault(e.getKey(), 0L) - e.getValue()) / alloc;
            score += extended(e.getKey()) ? share * 1000 : share;
        }
        return score;
    }

    private static long weight(Map<String, Long> request) {
        long accelerators = request.entrySet().stream()
                .filter(e -> extended(e.getKey()))
                .mapToLong(Map.Entry::getValue)
                .sum();
        return accelerators * 1_000_000L + request.getOrDefault("cpu", 0L);
    }

    /** An extended resource (an accelerator): a domain-qualified name outside the built-in resources. */
    static boolean extended(String resource) {
        return resource.contains("/") && !resource.startsWith("kubernetes.io/") && !resource.startsWith("hugepages-");
    }

    private static String why(
            List<Node> nodes,
            Map<String, Map<String, Long>> taken,
            Pod pod,
            Map<String, Long> request,
            int placed,
            int total) {
        int unschedulable = 0;
        int selector = 0;
        Map<String, Integer> taints = new TreeMap<>();
        Map<String, Integer> insufficient = new TreeMap<>();
        for (Node node : nodes) {
            NodeFit.Misfit m =
                    NodeFit.check(node, free(node, taken.get(node.getMetadata().getName())), pod.getSpec(), request);
            switch (m.kind()) {
                case UNSCHEDULABLE -> unschedulable++;
                case SELECTOR -> selector++;
                case TAINT -> taints.merge(m.taint(), 1, Integer::sum);
                case RESOURCES -> m.insufficient().forEach(r -> insufficient.merge(r, 1, Integer::sum));
            }
        }
        StringBuilder msg = new StringBuilder("0/" + nodes.size() + " nodes are available for pod "
                + pod.getMetadata().getName() + " (" + placed + " of " + total + " pods of the gang placed):");
        insufficient.forEach((r, n) ->
                msg.append(' ').append(n).append(" Insufficient ").append(r).append(','));
        if (selector > 0) {
            msg.append(' ').append(selector).append(" node(s) didn't match Pod's node affinity/selector,");
        }
        taints.forEach((t, n) -> msg.append(' ')
                .append(n)
                .append(" node(s) had untolerated taint ")
                .append(t)
                .append(','));
        if (unschedulable > 0) {
            msg.append(' ').append(unschedulable).append(" node(s) were unschedulable,");
        }
        msg.setLength(msg.length() - 1);
        return msg.append('.').toString();
    }
}
