package io.crater.idle;

import io.crater.cluster.ClusterConfig;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.Optional;

/**
 * Which {@link GpuMetrics} this replica reads: the simulated cluster's exporter when the cluster is the simulated one
 * (it runs in this process, and the start-up wiring offers its samples as {@link InProcessGpuSamples}), Prometheus in
 * cluster mode when {@code crater.idle.prometheus-url} is set, else none
 * (idle detection is off, and {@link #whyNone()} says why).
 */
@ApplicationScoped
class GpuMetricsSource {

    @Inject
    ClusterConfig cluster;

    @Inject
    IdleConfig config;

    @Inject
    Instance<InProcessGpuSamples> inProcess;

    private Optional<GpuMetrics> chosen = Optional.empty();

    /** Chooses once: the simulated cluster registers itself before Quarkus starts, the settings do not change. */
    @PostConstruct
    void choose() {
        if ("kubernetes".equals(cluster.mode())) {
            chosen = config.prometheusUrl()
                    .filter(u -> !u.isBlank())
                    .map(u -> new PrometheusGpuMetrics(u.trim(), config.prometheusTimeout()));
        } else {
            chosen = inProcess.isResolvable()
                    ? cluster.apiUrl().flatMap(inProcess.get()::at).map(SimulatedGpuMetrics::new)
                    : Optional.empty();
        }
    }

    /** The source, if this replica has one. */
    Optional<GpuMetrics> get() {
        return chosen;
    }

    /** Why there is no source. */
    String whyNone() {
        return "kubernetes".equals(cluster.mode())
                ? "crater.idle.prometheus-url is not set, so GPU utilisation cannot be read"
                : "the simulated cluster at " + cluster.apiUrl().orElse("(none)")
                        + " does not run in this process, so its GPU samples cannot be read";
    }
}
