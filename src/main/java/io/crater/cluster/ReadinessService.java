package io.crater.cluster;

import io.crater.identity.Caller;
import io.crater.platform.ApiException;
import io.crater.policy.ClusterReadiness;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The readiness report of the cluster ({@link ClusterReadiness} over what {@link ReadinessProbe} sees): taken at start
 * in kubernetes mode and whenever a platform admin asks; the last one is what {@code /q/health} and the console show.
 */
@ApplicationScoped
public class ReadinessService {

    private static final Logger LOG = Logger.getLogger(ReadinessService.class);

    @Inject
    KubernetesClient client;

    @Inject
    ClusterConfig config;

    @ConfigProperty(name = "crater.jobs.shared-claim", defaultValue = "crater-shared")
    String sharedClaim;

    @ConfigProperty(name = "crater.idle.prometheus-url")
    Optional<String> prometheusUrl;

    @ConfigProperty(name = "crater.idle.prometheus-timeout", defaultValue = "10s")
    Duration prometheusTimeout;

    @Inject
    Clock clock;

    private final AtomicReference<ClusterReadiness.Report> last = new AtomicReference<>();

    void onStart(@Observes StartupEvent event) {
        if ("kubernetes".equals(config.mode())) {
            Infrastructure.getDefaultWorkerPool().execute(this::take);
        }
    }

    /** The last report, null before the first. */
    public ClusterReadiness.Report last() {
        return last.get();
    }

    /** The last report, for platform admins (null before the first). */
    public ClusterReadiness.Report last(Caller caller) {
        requireAdmin(caller);
        return last.get();
    }

    /** Takes a report now (on a worker thread), for platform admins. */
    public Uni<ClusterReadiness.Report> check(Caller caller) {
        requireAdmin(caller);
        return Uni.createFrom().item(this::take).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }

    ClusterReadiness.Report take() {
        ReadinessProbe probe = new ReadinessProbe(
                client,
                config.namespace(),
                sharedClaim,
                config.schedulerConfigMap(),
                prometheusUrl,
                !"kubernetes".equals(config.mode()),
                prometheusTimeout);
        ClusterReadiness.Report report = ClusterReadiness.report(probe.observe(), clock.instant());
        last.set(report);
        if (report.state() == ClusterReadiness.State.degraded) {
            LOG.warnf("the cluster lacks what Crater needs: %s", report.reasons());
        } else {
            LOG.infof("cluster readiness: %s", report.state());
        }
        return report;
    }

    private static void requireAdmin(Caller caller) {
        if (!caller.platformAdmin()) {
            throw ApiException.forbidden("NotPlatformAdmin", "only platform administrators read the readiness report");
        }
    }
}
