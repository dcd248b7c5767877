package io.crater.idle;

import io.crater.policy.IdlePolicy;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A job's recent accelerator utilisation for a live chart's first window: the samples idle detection reads (its
 * model's metric, from Prometheus in a cluster or the simulated exporter in the embedded default), the highest of each
 * step, per pod and card ({@code gpu} index on the node).
 */
@ApplicationScoped
public class GpuHistory {

    @Inject
    IdleService idle;

    @Inject
    GpuMetricsSource source;

    /**
     * The samples in [from, to] of the job's current pods, at most one per step; empty when the job holds no
     * accelerators or there is no source. Runs in the caller's session; a source that fails fails the {@link Uni}.
     */
    public Uni<List<IdlePolicy.Series>> recent(long jobId, Instant from, Instant to, Duration step) {
        if (source.get().isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return idle.candidate(jobId)
                .flatMap(c -> c == null
                        ? Uni.createFrom().item(List.<IdlePolicy.Series>of())
                        : source.get().get().utilisation(idle.query(c, from, to, step)));
    }
}
