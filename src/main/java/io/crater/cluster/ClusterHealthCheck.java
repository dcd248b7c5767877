package io.crater.cluster;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready once the informers have listed the cluster. A later loss of the watch is reported as
 * {@code degraded} but stays UP: a Kubernetes outage must not take every replica out of its Service at once.
 */
@Readiness
@ApplicationScoped
public class ClusterHealthCheck implements HealthCheck {

    @Inject
    ClusterCache cache;

    @Inject
    ClusterConfig config;

    @Override
    public HealthCheckResponse call() {
        boolean synced = cache.synced();
        return HealthCheckResponse.named("cluster")
                .status(synced)
                .withData("mode", config.mode())
                .withData("state", !synced ? "syncing" : cache.watching() ? "connected" : "degraded")
                .build();
    }
}
