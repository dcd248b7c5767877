package io.crater.idle;

import io.crater.accounting.UtilisationSource;
import io.crater.cluster.ClusterConfig;
import io.crater.job.JobNames;
import io.crater.policy.IdlePolicy;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Jobs' accelerator utilisation for usage accounting: the mean of each step of every pod a job ever had, from the
 * same source idle detection reads (Prometheus in a cluster, the simulated exporter in the embedded default), with
 * each accelerator model's metric.
 */
@ApplicationScoped
class JobGpuSamples implements UtilisationSource {

    @Inject
    GpuMetricsSource source;

    @Inject
    IdleConfig config;

    @Inject
    ClusterConfig cluster;

    @Override
    public boolean available() {
        return source.get().isPresent();
    }

    @Override
    public String whyNone() {
        return source.whyNone();
    }

    @Override
    public Uni<List<IdlePolicy.Series>> means(
            List<String> publicIds, String resource, Instant from, Instant to, Duration step) {
        if (source.get().isEmpty()) {
            return Uni.createFrom().failure(new IllegalStateException(source.whyNone()));
        }
        List<String> prefixes =
                publicIds.stream().map(id -> JobNames.volcanoName(id) + "-").toList();
        IdlePolicy.Rule rule = config.rules().of(resource);
        return source.get()
                .get()
                .utilisation(new GpuMetrics.Query(
                        cluster.namespace(),
                        prefixes,
                        rule.metric(),
                        config.ratio(resource),
                        from.plus(step),
                        to,
                        step,
                        true,
                        true));
    }
}
