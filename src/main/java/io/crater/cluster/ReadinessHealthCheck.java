package io.crater.cluster;

import io.crater.policy.ClusterReadiness;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.stream.Collectors;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * The last readiness report of the cluster: always UP (a cluster that lacks something still serves what it can, and
 * every replica leaving its Service would serve nothing), with {@code state} {@code ok}, {@code degraded} or
 * {@code unchecked} and, when degraded, each reason by name.
 */
@Readiness
@ApplicationScoped
public class ReadinessHealthCheck implements HealthCheck {

    @Inject
    ReadinessService readiness;

    @Override
    public HealthCheckResponse call() {
        ClusterReadiness.Report report = readiness.last();
        HealthCheckResponseBuilder out =
                HealthCheckResponse.named("cluster-readiness").up();
        if (report == null) {
            return out.withData("state", "unchecked").build();
        }
        out.withData("state", report.state().name())
                .withData("checkedAt", report.checkedAt().toString());
        for (ClusterReadiness.Check check : report.checks()) {
            if (check.state() != ClusterReadiness.State.ok) {
                out.withData(
                        check.name(),
                        check.state().name() + ": "
                                + check.reasons().stream().map(Object::toString).collect(Collectors.joining("; ")));
            }
        }
        return out.build();
    }
}
