package io.crater.gpus;

import io.crater.cluster.AcceleratorCatalogue;
import io.crater.cluster.AcceleratorModel;
import io.crater.cluster.ClusterService;
import io.crater.cluster.ClusterViews;
import io.crater.identity.Caller;
import io.crater.platform.ApiException;
import io.crater.platform.Problem;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/** The GPUs of the cluster with their live readings and holders (docs/monitoring.md). */
@ApplicationScoped
public class GpuService {

    private static final Logger LOG = Logger.getLogger(GpuService.class);

    @Inject
    CardSources sources;

    @Inject
    ClusterService cluster;

    @Inject
    AcceleratorCatalogue catalogue;

    @Inject
    GpuHolders holders;

    /** The overview for the caller, nodes filtered by {@code minFree} and {@code model} (both optional). */
    public Uni<GpuViews.Overview> overview(Caller caller, String minFree, String model) {
        GpuOverviews.Filter filter = filter(
                minFree,
                model,
                catalogue.models().stream().map(AcceleratorModel::key).collect(Collectors.toSet()));
        var source = sources.get();
        if (source.isEmpty()) {
            return Uni.createFrom().item(GpuViews.Overview.unavailable(sources.whyNone()));
        }
        // The HTTP client answers on its own threads; the database work after it belongs on the request's context.
        io.vertx.core.Context context = io.vertx.core.Vertx.currentContext();
        Uni<List<CardReading>> cards = source.get().cards();
        if (context != null) {
            cards = cards.emitOn(task -> context.runOnContext(v -> task.run()));
        }
        return cards.map(Read::new)
                .onFailure()
                .recoverWithItem(e -> {
                    LOG.debugf(e, "reading the cards failed");
                    return new Read(e.getMessage() == null ? e.toString() : e.getMessage());
                })
                .flatMap(read -> read.error() != null
                        ? Uni.createFrom().item(GpuViews.Overview.unavailable(read.error()))
                        : holders.of(read.cards(), caller)
                                .map(h -> GpuOverviews.build(read.cards(), nodes(), h, filter)));
    }

    /** The cards, or why they could not be read. */
    private record Read(List<CardReading> cards, String error) {
        Read(List<CardReading> cards) {
            this(cards, null);
        }

        Read(String error) {
            this(List.of(), error);
        }
    }

    /** The nodes Crater knows, by name, with their catalogue model. */
    private Map<String, GpuOverviews.NodeInfo> nodes() {
        Map<String, GpuOverviews.NodeInfo> out = new HashMap<>();
        for (ClusterViews.NodeView n : cluster.nodes()) {
            ClusterViews.NodeAccelerator a = n.accelerator();
            if (a != null) {
                out.put(n.name(), new GpuOverviews.NodeInfo(a.model(), a.displayName(), n.schedulable()));
            }
        }
        return out;
    }

    /**
     * The node filter of the query: {@code minFree} a whole number from 0 to 1024 (0 or absent: no minimum), {@code
     * model} a key of the accelerator catalogue; a 400 naming each bad parameter otherwise.
     */
    static GpuOverviews.Filter filter(String minFree, String model, Set<String> models) {
        List<Problem.FieldError> errors = new ArrayList<>();
        int min = 0;
        if (minFree != null && !minFree.isBlank()) {
            try {
                min = Integer.parseInt(minFree.strip());
                if (min < 0 || min > 1024) {
                    errors.add(new Problem.FieldError("minFree", "a whole number from 0 to 1024"));
                }
            } catch (NumberFormatException e) {
                errors.add(new Problem.FieldError("minFree", "a whole number from 0 to 1024"));
            }
        }
        String m = model == null || model.isBlank() ? null : model.strip();
        if (m != null && !models.contains(m)) {
            errors.add(new Problem.FieldError("model", "not an accelerator model of the catalogue"));
        }
        if (!errors.isEmpty()) {
            throw ApiException.badRequest(
                    "InvalidRequest",
                    errors.stream().map(e -> e.field() + ": " + e.message()).collect(Collectors.joining("; ")),
                    errors);
        }
        return new GpuOverviews.Filter(min, m);
    }
}
