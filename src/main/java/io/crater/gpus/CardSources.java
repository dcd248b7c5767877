package io.crater.gpus;

import io.crater.cluster.ClusterConfig;
import io.crater.idle.IdleConfig;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.Optional;

/**
 * Which {@link CardSource} this replica reads: in cluster mode Prometheus at {@code crater.idle.prometheus-url} (the
 * one idle detection reads), in the embedded default the simulated cluster's DCGM endpoint, scraped directly; else
 * none, and {@link #whyNone()} says why.
 */
@ApplicationScoped
class CardSources {

    @Inject
    ClusterConfig cluster;

    @Inject
    IdleConfig idle;

    @Inject
    Instance<InProcessDcgm> inProcess;

    private Optional<CardSource> chosen = Optional.empty();

    /** Chooses once: the simulated cluster is running before Quarkus starts, and the settings do not change. */
    @PostConstruct
    void choose() {
        if (kubernetes()) {
            chosen = idle.prometheusUrl()
                    .filter(u -> !u.isBlank())
                    .map(u -> new PrometheusCards(u.trim(), idle.prometheusTimeout()));
        } else if (inProcess.isResolvable()) {
            chosen = cluster.apiUrl()
                    .flatMap(inProcess.get()::metricsUrl)
                    .map(u -> new ScrapedCards(u, idle.prometheusTimeout()));
        }
    }

    Optional<CardSource> get() {
        return chosen;
    }

    String whyNone() {
        return kubernetes()
                ? "crater.idle.prometheus-url is not set, so the cards' metrics cannot be read"
                : "the simulated cluster at " + cluster.apiUrl().orElse("(none)")
                        + " does not run in this process, so its DCGM endpoint is not known";
    }

    private boolean kubernetes() {
        return "kubernetes".equals(cluster.mode());
    }
}
