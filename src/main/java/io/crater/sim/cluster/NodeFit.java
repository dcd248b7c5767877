package io.crater.sim.cluster;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Whether a pod fits a node, by the filters of Kubernetes' scheduler that matter here, in this order: the node is
 * ready and not cordoned ({@code NodeUnschedulable}: a cordoned node takes only pods tolerating its
 * {@code node.kubernetes.io/unschedulable} taint), the pod's {@code nodeSelector} and required node affinity match the
 * node's labels ({@code NodeAffinity}), every {@code NoSchedule}/{@code NoExecute} taint of the node is tolerated
 * ({@code TaintToleration}), and the node's free allocatable holds the pod's effective request
 * ({@code NodeResourcesFit}).
 */
final class NodeFit {

    static final String UNSCHEDULABLE_TAINT = "node.kubernetes.io/unschedulable";

    private NodeFit() {}

    /** Why a pod does not fit a node; {@link #insufficient} names the resources short when the kind is RESOURCES. */
    record Misfit(Kind kind, List<String> insufficient, String taint) {
        enum Kind {
            UNSCHEDULABLE,
            SELECTOR,
            TAINT,
            RESOURCES
        }
    }

    /** Null when the pod fits the node, else the first filter that refuses it. */
    static Misfit check(Node node, Map<String, Long> free, PodSpec pod, Map<String, Long> request) {
        if (!ready(node)
                || cordoned(node) && !tolerates(pod, new Taint("NoSchedule", UNSCHEDULABLE_TAINT, null, null))) {
            return new Misfit(Misfit.Kind.UNSCHEDULABLE, List.of(), null);
        }
        Map<String, String> labels =
                Objects.requireNonNullElse(node.getMetadata().getLabels(), Map.of());
        if (!selectorMatches(pod, labels)
                || !affinityMatches(pod, labels, node.getMetadata().getName())) {
            return new Misfit(Misfit.Kind.SELECTOR, List.of(), null);
        }
        for (Taint t : node.getSpec() == null || node.getSpec().getTaints() == null
                ? List.<Taint>of()
                : node.getSpec().getTaints()) {
            boolean repels = "NoSchedule".equals(t.getEffect()) || "NoExecute".equals(t.getEffect());
            if (repels && !tolerates(pod, t)) {
                return new Misfit(
                        Misfit.Kind.TAINT,
                        List.of(),
                        "{" + t.getKey() + ": " + Objects.requireNonNullElse(t.getValue(), "") + "}");
            }
        }
        List<String> short_ = new ArrayList<>();
        request.forEach((name, milli) -> {
            if (milli > free.getOrDefault(name, 0L)) {
                short_.add(name);
            }
        });
        return short_.isEmpty() ? null : new Misfit(Misfit.Kind.RESOURCES, List.copyOf(short_), null);
    }

    static boolean ready(Node n) {
        return n.getStatus() != null
                && n.getStatus().getConditions() != null
                && n.getStatus().getConditions().stream()
                        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    static boolean cordoned(Node n) {
        return n.getSpec() != null && Boolean.TRUE.equals(n.getSpec().getUnschedulable());
    }

    private static boolean selectorMatches(PodSpec pod, Map<String, String> labels) {
        Map<String, String> selector = Objects.requireNonNullElse(pod.getNodeSelector(), Map.of());
        return selector.entrySet().stream().allMatch(e -> e.getValue().equals(labels.get(e.getKey())));
    }

    /**
     * {@code requiredDuringSchedulingIgnoredDuringExecution}: any term matches, all expressions and fields of a term
     * match; a term's fields can name only {@code metadata.name}, the node's name.
     */
    private static boolean affinityMatches(PodSpec pod, Map<String, String> labels, String nodeName) {
        if (pod.getAffinity() == null
                || pod.getAffinity().getNodeAffinity() == null
                || pod.getAffinity().getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution() == null) {
            return true;
        }
        List<NodeSelectorTerm> terms = pod.getAffinity()
                .getNodeAffinity()
                .getRequiredDuringSchedulingIgnoredDuringExecution()
                .getNodeSelectorTerms();
        if (terms == null || terms.isEmpty()) {
            return false;
        }
        return terms.stream().anyMatch(t -> termMatches(t, labels, nodeName));
    }

    private static boolean termMatches(NodeSelectorTerm term, Map<String, String> labels, String nodeName) {
        List<NodeSelectorRequirement> expressions = Objects.requireNonNullElse(term.getMatchExpressions(), List.of());
        List<NodeSelectorRequirement> fields = Objects.requireNonNullElse(term.getMatchFields(), List.of());
        if (expressions.isEmpty() && fields.isEmpty()) {
            return false; // an empty term matches no node
        }
        Map<String, String> nodeFields = Map.of("metadata.name", nodeName);
        return expressions.stream().allMatch(r -> requirementMatches(r, labels))
                && fields.stream()
                        .allMatch(r -> "metadata.name".equals(r.getKey())
                                && ("In".equals(r.getOperator()) || "NotIn".equals(r.getOperator()))
                                && requirementMatches(r, nodeFields));
    }

    private static boolean requirementMatches(NodeSelectorRequirement r, Map<String, String> labels) {
        String value = labels.get(r.getKey());
        List<String> values = Objects.requireNonNullElse(r.getValues(), List.of());
        return switch (Objects.requireNonNullElse(r.getOperator(), "")) {
            case "In" -> value != null && values.contains(value);
            case "NotIn" -> value == null || !values.contains(value);
            case "Exists" -> value != null;
            case "DoesNotExist" -> value == null;
            case "Gt", "Lt" -> compares(value, values, r.getOperator());
            default -> false;
        };
    }

    private static boolean compares(String value, List<String> values, String operator) {
        if (value == null || values.size() != 1) {
            return false;
        }
        try {
            long have = Long.parseLong(value);
            long bound = Long.parseLong(values.get(0));
            return operator.equals("Gt") ? have > bound : have < bound;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** Kubernetes' toleration match: same key (or an empty key with Exists), same effect (or none), and the value. */
    static boolean tolerates(PodSpec pod, Taint taint) {
        for (Toleration t : Objects.requireNonNullElse(pod.getTolerations(), List.<Toleration>of())) {
            boolean exists = "Exists".equals(t.getOperator());
            boolean keyMatches = t.getKey() == null || t.getKey().isEmpty()
                    ? exists
                    : t.getKey().equals(taint.getKey());
            boolean effectMatches = t.getEffect() == null
                    || t.getEffect().isEmpty()
                    || t.getEffect().equals(taint.getEffect());
            boolean valueMatches = exists
                    || Objects.requireNonNullElse(t.getValue(), "")
                            .equals(Objects.requireNonNullElse(taint.getValue(), ""));
            if (keyMatches && effectMatches && valueMatches) {
                return true;
            }
        }
        return false;
    }
}
