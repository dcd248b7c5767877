package io.crater.gpus;

import io.crater.policy.IdlePolicy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A feed's first window from utilisation history: one sample per time any of the job's cards has a point, each card
 * named by the live reading of the same pod and index (node, UUID, model) when there is one. History has utilisation
 * alone: memory, power and temperature stay null, never guessed.
 */
final class GpuStreamHistory {

    private GpuStreamHistory() {}

    static List<GpuStreamViews.Sample> samples(List<IdlePolicy.Series> series, List<CardReading> live, Instant before) {
        Map<Instant, List<GpuStreamViews.CardPoint>> byTime = new TreeMap<>();
        for (IdlePolicy.Series s : series) {
            Integer index = index(s.accelerator());
            CardReading known = live == null
                    ? null
                    : live.stream()
                            .filter(c -> s.pod().equals(c.pod()) && index != null && c.index() == index)
                            .findFirst()
                            .orElse(null);
            for (IdlePolicy.Sample p : s.samples()) {
                if (!p.at().isBefore(before)) {
                    continue;
                }
                byTime.computeIfAbsent(p.at(), t -> new ArrayList<>())
                        .add(new GpuStreamViews.CardPoint(
                                known == null ? null : known.node(),
                                index,
                                known == null ? null : known.uuid(),
                                known == null ? null : known.modelName(),
                                s.pod(),
                                p.percent(),
                                null,
                                null,
                                null,
                                null));
            }
        }
        List<GpuStreamViews.Sample> out = new ArrayList<>();
        byTime.forEach((at, cards) -> out.add(new GpuStreamViews.Sample(at, cards)));
        return out;
    }

    /** A card's index from a series' accelerator ({@code 3}, or {@code 3/1} for a MIG instance); null when unreadable. */
    private static Integer index(String accelerator) {
        String head = accelerator == null ? "" : accelerator.split("/", 2)[0].strip();
        try {
            return Integer.parseInt(head);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
