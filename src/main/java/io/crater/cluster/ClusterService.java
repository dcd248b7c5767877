package io.crater.cluster;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The cluster as Crater's users see it: nodes and accelerator totals per catalogue model. */
@ApplicationScoped
public class ClusterService {

    @Inject
    ClusterCache cache;

    @Inject
    NodeViews views;

    @Inject
    AcceleratorCatalogue catalogue;

    public List<ClusterViews.NodeView> nodes() {
        return cache.nodes().stream()
                .map(n -> views.of(
                        n,
                        cache.allocated(n.getMetadata().getName()),
                        cache.podCount(n.getMetadata().getName())))
                .sorted(Comparator.comparing(ClusterViews.NodeView::name))
                .toList();
    }

    /** One entry per catalogue model (zero when no node has it), then one per uncatalogued resource seen. */
    public List<ClusterViews.AcceleratorSummary> accelerators() {
        Map<String, long[]> totals = new LinkedHashMap<>();
        Map<String, ClusterViews.NodeAccelerator> uncatalogued = new LinkedHashMap<>();
        catalogue.models().forEach(m -> totals.put(m.key(), new long[4]));
        for (ClusterViews.NodeView node : nodes()) {
            ClusterViews.NodeAccelerator a = node.accelerator();
            if (a == null) {
                continue;
            }
            String key = "uncatalogued".equals(a.model()) ? "uncatalogued:" + a.resource() : a.model();
            if ("uncatalogued".equals(a.model())) {
                uncatalogued.putIfAbsent(key, a);
            }
            long[] t = totals.computeIfAbsent(key, k -> new long[4]);
            t[0]++;
            t[1] += a.total();
            t[2] += a.allocated();
            if (node.schedulable()) {
                t[3] += Math.max(0, a.total() - a.allocated());
            }
        }
        List<ClusterViews.AcceleratorSummary> out = new ArrayList<>();
        for (AcceleratorModel m : catalogue.models()) {
            long[] t = totals.get(m.key());
            out.add(new ClusterViews.AcceleratorSummary(
                    m.key(), m.displayName(), m.vendor(), m.resource(), (int) t[0], t[1], t[2], t[3]));
        }
        uncatalogued.forEach((key, a) -> {
            long[] t = totals.get(key);
            out.add(new ClusterViews.AcceleratorSummary(
                    key, a.resource(), "unknown", a.resource(), (int) t[0], t[1], t[2], t[3]));
        });
        return out;
    }
}
