package io.crater.gpus;

import io.crater.accounting.AcceleratorHours;
import io.crater.policy.GpuUse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The GPU history from the hourly rollup's sums and the cards now: pure, so tables test it. */
final class GpuHistories {

    private GpuHistories() {}

    /** A model's cards now: its catalogue name and how many its nodes have. */
    record Cards(String displayName, long total) {}

    /** The first hour of a span of {@code hours} hours that ends with the hour {@code now} is in. */
    static Instant firstHour(Instant now, int hours) {
        return now.truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(hours - 1L));
    }

    /**
     * One entry per model that has cards now or held any in the span, by key; each with every hour of the span, zero
     * where nothing was held, the current one partial.
     */
    static GpuHistoryViews.History build(
            int hours, Instant now, Map<String, Cards> cards, List<AcceleratorHours.Hour> rows) {
        Instant first = firstHour(now, hours);
        Map<String, Map<Instant, AcceleratorHours.Hour>> byModel = new TreeMap<>();
        cards.forEach((model, c) -> {
            if (c.total() > 0) {
                byModel.put(model, new HashMap<>());
            }
        });
        for (AcceleratorHours.Hour r : rows) {
            if (!r.hour().isBefore(first) && !r.hour().isAfter(now)) {
                byModel.computeIfAbsent(r.model(), m -> new HashMap<>()).put(r.hour(), r);
            }
        }
        List<GpuHistoryViews.ModelHistory> models = new ArrayList<>();
        byModel.forEach((model, held) -> {
            Cards c = cards.getOrDefault(model, new Cards(model, 0));
            List<GpuHistoryViews.Point> points = new ArrayList<>(hours);
            for (int i = 0; i < hours; i++) {
                Instant hour = first.plus(Duration.ofHours(i));
                points.add(point(hour, now, held.get(hour)));
            }
            models.add(new GpuHistoryViews.ModelHistory(model, c.displayName(), c.total(), points));
        });
        return new GpuHistoryViews.History(hours, first, now, models);
    }

    /**
     * An hour's means: device-milliseconds over the hour's milliseconds, or for the current hour over its part so far
     * (at least a second). Measured is capped at held and used at measured, as in the usage reports.
     */
    static GpuHistoryViews.Point point(Instant hour, Instant now, AcceleratorHours.Hour row) {
        Instant end = hour.plus(Duration.ofHours(1));
        boolean partial = now.isBefore(end);
        long span = partial
                ? Math.max(1000, Duration.between(hour, now).toMillis())
                : Duration.ofHours(1).toMillis();
        if (row == null) {
            return new GpuHistoryViews.Point(hour, 0, 0, 0, null, partial);
        }
        long held = Math.max(0, row.heldMs());
        long measured = Math.min(Math.max(0, row.measuredMs()), held);
        long used = Math.min(Math.max(0, row.usedMs()), measured);
        Double efficiency = GpuUse.efficiency(used, measured);
        return new GpuHistoryViews.Point(
                hour,
                mean(held, span),
                mean(measured, span),
                mean(used, span),
                efficiency == null ? null : Math.round(efficiency * 10_000) / 10_000.0,
                partial);
    }

    /** Mean devices of device-milliseconds over a span of milliseconds, to a thousandth. */
    static double mean(long deviceMs, long spanMs) {
        return Math.round(deviceMs * 1000.0 / spanMs) / 1000.0;
    }
}
