package io.crater.gpus;

import io.crater.cluster.ClusterCache;
import io.crater.identity.Caller;
import io.crater.platform.ApiException;
import io.crater.platform.AuditTrail;
import io.crater.platform.Problem;
import io.crater.policy.GpuHealth;
import io.crater.policy.NodeEdits;
import io.crater.policy.Reason;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A node's GPU health for platform admins: its state, reasons and evidence, and clearing a quarantine. */
@ApplicationScoped
public class GpuHealthService {

    @Inject
    GpuHealthQueries queries;

    @Inject
    GpuHealthMarks marks;

    @Inject
    ClusterCache cache;

    @Inject
    AuditTrail audit;

    @Inject
    Clock clock;

    @Inject
    Vertx vertx;

    /** One piece of evidence: {@code kind} XID, ECC_DBE or JOB_FAILED, the card (null for a job) and the job. */
    @Schema(name = "GpuHealthEvidence")
    public record EvidenceView(String kind, Instant at, Integer gpu, long value, String job) {}

    /**
     * A node's health: {@code state} HEALTHY, SUSPECT or QUARANTINED since {@code since}, its reasons with their
     * numbers, who last cleared it and when, and its newest evidence (at most 50, newest first).
     */
    @Schema(name = "GpuHealth")
    public record HealthView(
            String node,
            String state,
            Instant since,
            List<Reason> reasons,
            Instant clearedAt,
            String clearedBy,
            List<EvidenceView> evidence) {}

    /** Why a platform admin clears a quarantine. */
    public record ClearRequest(String reason) {}

    public Uni<HealthView> health(String node, Caller caller) {
        requireAdmin(caller);
        requireNode(node);
        return Panache.withSession(() -> view(node));
    }

    /**
     * Clears a node: healthy again, evidence before now no longer counts, its marks removed and the quarantine's
     * cordon lifted (a cordon someone else set stays). Audited with the reason.
     */
    public Uni<HealthView> clear(String node, ClearRequest req, Caller caller) {
        requireAdmin(caller);
        requireNode(node);
        String problem = NodeEdits.reasonProblem(req == null ? null : req.reason());
        if (problem != null) {
            throw ApiException.badRequest("InvalidClear", problem, List.of(new Problem.FieldError("reason", problem)));
        }
        String reason = req.reason().strip();
        Instant now = clock.instant();
        String by = caller.user().username();
        return Panache.withTransaction(() -> queries.state(node)
                        .flatMap(before -> queries.cleared(node, by, now)
                                .flatMap(x -> audit.record(
                                        caller.actor(null),
                                        "node.health.clear",
                                        "node",
                                        node,
                                        Map.of(
                                                "state",
                                                before.map(s -> s.state().name())
                                                        .orElse("HEALTHY")),
                                        Map.of("reason", reason)))))
                .flatMap(x -> vertx.executeBlocking(Uni.createFrom().item(() -> {
                    marks.cleared(node);
                    return node;
                })))
                .flatMap(x -> Panache.withSession(() -> view(node)));
    }

    private Uni<HealthView> view(String node) {
        return queries.states()
                .flatMap(states -> queries.reasons(node)
                        .flatMap(reasons -> queries.recent(node, 50).map(evidence -> {
                            var st = states.get(node);
                            return new HealthView(
                                    node,
                                    st == null
                                            ? GpuHealth.State.HEALTHY.name()
                                            : st.state().name(),
                                    st == null ? null : st.since(),
                                    reasons,
                                    st == null ? null : st.clearedAt(),
                                    st == null ? null : st.clearedBy(),
                                    evidence.stream()
                                            .map(e -> new EvidenceView(
                                                    e.kind().name(), e.at(), e.gpu(), e.value(), e.job()))
                                            .toList());
                        })));
    }

    private void requireNode(String node) {
        if (cache.node(node) == null) {
            throw ApiException.notFound("no node named " + node);
        }
    }

    private static void requireAdmin(Caller caller) {
        if (!caller.platformAdmin()) {
            throw ApiException.forbidden("NotPlatformAdmin", "only platform administrators administer nodes");
        }
    }
}
