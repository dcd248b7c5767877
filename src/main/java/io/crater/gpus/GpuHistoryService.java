package io.crater.gpus;

import io.crater.accounting.AcceleratorHours;
import io.crater.cluster.ClusterService;
import io.crater.cluster.ClusterViews;
import io.crater.platform.ApiException;
import io.crater.platform.Problem;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The cluster's GPUs allocated, measured and used per model and hour against its cards (docs/monitoring.md). */
@ApplicationScoped
public class GpuHistoryService {

    static final int DEFAULT_HOURS = 48;
    static final int MOST_HOURS = 720;

    @Inject
    AcceleratorHours usage;

    @Inject
    ClusterService cluster;

    @Inject
    Clock clock;

    /** The last {@code hours} hours (1 to 720, 48 when absent), the current one included. */
    public Uni<GpuHistoryViews.History> history(String hours) {
        int span = hours(hours);
        Instant now = clock.instant();
        Map<String, GpuHistories.Cards> cards = cards();
        return usage.since(GpuHistories.firstHour(now, span)).map(rows -> GpuHistories.build(span, now, cards, rows));
    }

    /** The cards of each catalogue model on the cluster's nodes now. */
    private Map<String, GpuHistories.Cards> cards() {
        Map<String, GpuHistories.Cards> out = new HashMap<>();
        for (ClusterViews.AcceleratorSummary a : cluster.accelerators()) {
            if (!a.model().startsWith("uncatalogued:")) {
                out.put(a.model(), new GpuHistories.Cards(a.displayName(), a.total()));
            }
        }
        return out;
    }

    /** The span's hours: a whole number from 1 to 720, the default when absent; a 400 naming {@code hours} else. */
    static int hours(String text) {
        if (text == null || text.isBlank()) {
            return DEFAULT_HOURS;
        }
        try {
            int n = Integer.parseInt(text.strip());
            if (n >= 1 && n <= MOST_HOURS) {
                return n;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        String message = "a whole number of hours from 1 to " + MOST_HOURS;
        throw ApiException.badRequest(
                "InvalidRequest", "hours: " + message, List.of(new Problem.FieldError("hours", message)));
    }
}
