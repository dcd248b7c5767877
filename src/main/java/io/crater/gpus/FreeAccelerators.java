package io.crater.gpus;

import io.crater.cluster.AcceleratorModel;
import io.crater.policy.MemberLimits;
import io.crater.policy.QuotaLine;
import io.crater.policy.Resources;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The free accelerators' answer from plain facts (docs/monitoring.md, free accelerators): the catalogue, each node's
 * cards and free cards, and the caller's accounts' quota lines. Pure: counts in, counts out.
 */
final class FreeAccelerators {

    private FreeAccelerators() {}

    /** A node's cards of one catalogue model; {@code free} already 0 on a node that takes no pods. */
    record NodeCards(String name, String model, long total, long free, Long memoryMiB, boolean schedulable) {}

    /** One of the caller's accounts: its quota lines, the caller's member limits there and what the caller holds. */
    record Account(String slug, Map<String, QuotaLine> lines, MemberLimits limits, Resources mine) {}

    static FreeAcceleratorViews.FreeAccelerators build(
            List<AcceleratorModel> catalogue, List<NodeCards> nodes, List<Account> accounts) {
        List<AcceleratorModel> models =
                catalogue.stream().filter(m -> !m.retired()).toList();
        List<FreeAcceleratorViews.FreeModel> out = new ArrayList<>();
        for (AcceleratorModel m : models) {
            List<FreeAcceleratorViews.FreeNode> of = nodes.stream()
                    .filter(n -> n.model().equals(m.key()))
                    .sorted(Comparator.comparingLong(NodeCards::free).reversed().thenComparing(NodeCards::name))
                    .map(n -> new FreeAcceleratorViews.FreeNode(
                            n.name(), n.total(), n.free(), n.memoryMiB(), n.schedulable()))
                    .toList();
            out.add(new FreeAcceleratorViews.FreeModel(
                    m.key(),
                    m.displayName(),
                    m.vendor(),
                    m.memoryMiB(),
                    m.restricted(),
                    of.stream().mapToLong(FreeAcceleratorViews.FreeNode::total).sum(),
                    of.stream().mapToLong(FreeAcceleratorViews.FreeNode::free).sum(),
                    of.stream()
                            .mapToLong(FreeAcceleratorViews.FreeNode::free)
                            .max()
                            .orElse(0),
                    of));
        }
        List<FreeAcceleratorViews.AccountRoom> rooms = accounts.stream()
                .sorted(Comparator.comparing(Account::slug))
                .map(a -> new FreeAcceleratorViews.AccountRoom(
                        a.slug(), models.stream().map(m -> room(m.key(), a)).toList()))
                .toList();
        return new FreeAcceleratorViews.FreeAccelerators(out, rooms);
    }

    /** The account's room for a model, in whole cards (quota is in milli-units). */
    static FreeAcceleratorViews.ModelRoom room(String model, Account a) {
        QuotaLine line = a.lines().getOrDefault(model, new QuotaLine(model, 0, 0, 0, 0));
        long headroom = line.headroom() / 1000;
        Long cap = a.limits().resources().get(model);
        Long memberLeft = cap == null ? null : Math.max(0, cap - a.mine().get(model)) / 1000;
        return new FreeAcceleratorViews.ModelRoom(
                model,
                line.used() / 1000,
                line.effectiveGuaranteed() / 1000,
                line.effectiveMax() / 1000,
                Math.max(0, line.effectiveGuaranteed() - line.used()) / 1000,
                memberLeft,
                memberLeft == null ? headroom : Math.min(headroom, memberLeft));
    }

    /**
     * One card's memory in MiB: the catalogue's for the model, else the node's {@code nvidia.com/gpu.memory} label
     * (GPU feature discovery) for NVIDIA GPUs; null when neither says.
     */
    static Long memoryMiB(String resource, Map<String, String> labels, Long modelMemory) {
        if (modelMemory != null) {
            return modelMemory;
        }
        String value = "nvidia.com/gpu".equals(resource) ? labels.get("nvidia.com/gpu.memory") : null;
        if (value != null) {
            try {
                long mib = Long.parseLong(value.strip());
                if (mib > 0) {
                    return mib;
                }
            } catch (NumberFormatException e) {
                // the catalogue's below
            }
        }
        return null;
    }
}
