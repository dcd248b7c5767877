package io.crater.cluster;

import io.crater.kube.KubeQuantities;
import io.crater.policy.CatalogueSync;
import io.crater.policy.Resources;
import io.crater.policy.Taints;
import io.fabric8.kubernetes.api.model.Node;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** Builds the API's views of nodes from Node objects, the catalogue and the allocation. */
@ApplicationScoped
public class NodeViews {

    @Inject
    AcceleratorCatalogue catalogue;

    public ClusterViews.NodeView of(Node node, Resources allocated, int pods) {
        Map<String, String> labels =
                Objects.requireNonNullElse(node.getMetadata().getLabels(), Map.of());
        Resources allocatable = new Resources(KubeQuantities.amounts(
                node.getStatus() == null ? null : node.getStatus().getAllocatable()));
        ClusterViews.NodeAccelerator accelerator = accelerator(allocatable, allocated, labels);
        return new ClusterViews.NodeView(
                node.getMetadata().getName(),
                ready(node),
                ready(node)
                        && !Boolean.TRUE.equals(
                                node.getSpec() == null ? null : node.getSpec().getUnschedulable()),
                accelerator,
                new ClusterViews.Cpu(allocatable.get("cpu"), allocated.get("cpu")),
                new ClusterViews.Memory(allocatable.get("memory") / 1000, allocated.get("memory") / 1000),
                pods,
                labels,
                uncovered(node),
                NodeTaints.views(node.getSpec() == null ? null : node.getSpec().getTaints()),
                cordon(node),
                exclusive(node),
                health(node));
    }

    private static ClusterViews.NodeExclusiveView exclusive(Node node) {
        if (node.getSpec() == null || node.getSpec().getTaints() == null) {
            return null;
        }
        Map<String, String> ann = Objects.requireNonNullElse(node.getMetadata().getAnnotations(), Map.of());
        return node.getSpec().getTaints().stream()
                .filter(t -> Taints.EXCLUSIVE.equals(t.getKey()) && "NoSchedule".equals(t.getEffect()))
                .filter(t -> t.getValue() != null && t.getValue().matches("[0-9]{1,18}"))
                .findFirst()
                .map(t -> new ClusterViews.NodeExclusiveView(
                        Long.parseLong(t.getValue()), ann.getOrDefault(NodeMarks.EXCLUSIVE_ACCOUNT, "")))
                .orElse(null);
    }

    private static ClusterViews.NodeHealthView health(Node node) {
        Map<String, String> ann = Objects.requireNonNullElse(node.getMetadata().getAnnotations(), Map.of());
        String state = ann.get(NodeMarks.HEALTH);
        if (state == null) {
            return null;
        }
        return new ClusterViews.NodeHealthView(
                state, ann.getOrDefault(NodeMarks.HEALTH_REASON, ""), ann.getOrDefault(NodeMarks.HEALTH_SINCE, ""));
    }

    private static ClusterViews.NodeCordonView cordon(Node node) {
        if (node.getSpec() == null || !Boolean.TRUE.equals(node.getSpec().getUnschedulable())) {
            return null;
        }
        Map<String, String> ann = Objects.requireNonNullElse(node.getMetadata().getAnnotations(), Map.of());
        return new ClusterViews.NodeCordonView(
                ann.getOrDefault(NodeCordon.REASON, ""),
                ann.getOrDefault(NodeCordon.BY, ""),
                ann.getOrDefault(NodeCordon.AT, ""));
    }

    private ClusterViews.NodeAccelerator accelerator(
            Resources allocatable, Resources allocated, Map<String, String> labels) {
        for (String resource : allocatable.amounts().keySet()) {
            if (!isAcceleratorResource(resource)) {
                continue;
            }
            long total = allocatable.get(resource) / 1000;
            long used = allocated.get(resource) / 1000;
            Optional<AcceleratorModel> model = catalogue.modelOf(resource, labels);
            if (model.isPresent()) {
                AcceleratorModel m = model.get();
                return new ClusterViews.NodeAccelerator(m.key(), m.displayName(), m.vendor(), resource, total, used);
            }
            return new ClusterViews.NodeAccelerator("uncatalogued", resource, "unknown", resource, total, used);
        }
        return null;
    }

    /** The node's extended resources no catalogue model covers (device plugins' resources to catalogue). */
    private List<ClusterViews.UncoveredResource> uncovered(Node node) {
        CatalogueSync.NodeFacts facts = CatalogueProposals.facts(node);
        return CatalogueSync.of(List.of(facts), catalogue.syncEntries())
                .uncovered()
                .getOrDefault(facts.name(), List.of())
                .stream()
                .map(u -> new ClusterViews.UncoveredResource(u.resource(), u.count()))
                .toList();
    }

    static boolean isAcceleratorResource(String resource) {
        return CatalogueSync.isExtended(resource) && !CatalogueSync.isSharing(resource);
    }

    static boolean ready(Node node) {
        return node.getStatus() != null
                && node.getStatus().getConditions() != null
                && node.getStatus().getConditions().stream()
                        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }
}
