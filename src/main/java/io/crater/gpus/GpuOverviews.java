package io.crater.gpus;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The GPUs view from cards, what Crater knows of their nodes and who holds them: pure, so tables test it. */
final class GpuOverviews {

    private GpuOverviews() {}

    /** What the cluster cache says of a node: its model's catalogue key and name, and whether it takes pods. */
    record NodeInfo(String model, String displayName, boolean schedulable) {}

    /** The node filter: nodes of {@code model} (any when null) with at least {@code minFree} free cards. */
    record Filter(int minFree, String model) {
        static final Filter NONE = new Filter(0, null);

        boolean keeps(GpuViews.NodeGpus node) {
            return node.free() >= minFree && (model == null || model.equals(node.model()));
        }
    }

    /**
     * @param holders the holder of each held card's pod, by {@code namespace/pod}; a held card whose pod is missing
     *     shows as held by another account
     */
    static GpuViews.Overview build(
            List<CardReading> cards, Map<String, NodeInfo> nodes, Map<String, GpuViews.Holder> holders, Filter filter) {
        Map<String, List<CardReading>> byNode = new TreeMap<>();
        cards.forEach(
                c -> byNode.computeIfAbsent(c.node(), n -> new ArrayList<>()).add(c));
        List<GpuViews.NodeGpus> all = new ArrayList<>();
        byNode.forEach((name, onNode) -> all.add(node(name, onNode, nodes.get(name), holders)));
        return new GpuViews.Overview(
                null, summaries(all), all.stream().filter(filter::keeps).toList());
    }

    private static GpuViews.NodeGpus node(
            String name, List<CardReading> cards, NodeInfo info, Map<String, GpuViews.Holder> holders) {
        String modelName =
                cards.get(0).modelName() == null ? "unknown" : cards.get(0).modelName();
        NodeInfo known = info != null ? info : new NodeInfo(modelName, modelName, true);
        List<GpuViews.Card> views = new ArrayList<>();
        int unheld = 0;
        for (CardReading c : cards) {
            GpuViews.Holder holder = null;
            if (c.held()) {
                holder = holders.getOrDefault(c.namespace() + "/" + c.pod(), GpuViews.Holder.hidden());
            } else {
                unheld++;
            }
            views.add(new GpuViews.Card(
                    c.index(),
                    c.uuid(),
                    c.modelName(),
                    c.utilisation(),
                    c.memoryUsedMiB(),
                    c.memoryTotalMiB(),
                    c.powerWatts(),
                    c.temperatureC(),
                    holder));
        }
        return new GpuViews.NodeGpus(
                name, known.model(), known.displayName(), known.schedulable(), known.schedulable() ? unheld : 0, views);
    }

    private static List<GpuViews.ModelSummary> summaries(List<GpuViews.NodeGpus> nodes) {
        Map<String, List<GpuViews.NodeGpus>> byModel = new LinkedHashMap<>();
        nodes.stream()
                .sorted(Comparator.comparing(GpuViews.NodeGpus::model))
                .forEach(n -> byModel.computeIfAbsent(n.model(), m -> new ArrayList<>())
                        .add(n));
        List<GpuViews.ModelSummary> out = new ArrayList<>();
        byModel.forEach((model, onModel) -> {
            int cards = 0;
            int allocated = 0;
            int free = 0;
            double sum = 0;
            int measured = 0;
            List<GpuViews.NodeFree> withFree = new ArrayList<>();
            for (GpuViews.NodeGpus n : onModel) {
                cards += n.cards().size();
                free += n.free();
                for (GpuViews.Card c : n.cards()) {
                    if (c.holder() != null) {
                        allocated++;
                        if (c.utilisation() != null) {
                            sum += c.utilisation();
                            measured++;
                        }
                    }
                }
                if (n.free() > 0) {
                    withFree.add(new GpuViews.NodeFree(n.name(), n.free()));
                }
            }
            withFree.sort(
                    Comparator.comparingInt(GpuViews.NodeFree::free).reversed().thenComparing(GpuViews.NodeFree::node));
            out.add(new GpuViews.ModelSummary(
                    model,
                    onModel.get(0).displayName(),
                    cards,
                    allocated,
                    free,
                    measured == 0 ? null : sum / measured,
                    withFree));
        });
        return out;
    }
}
