package io.crater.gpus;

import io.crater.cluster.ClusterCache;
import io.crater.cluster.NodeCordon;
import io.crater.cluster.NodeMarks;
import io.crater.identity.UserService;
import io.crater.notify.NotificationService;
import io.crater.platform.Actor;
import io.crater.platform.AuditTrail;
import io.crater.platform.Json;
import io.crater.policy.GpuHealth;
import io.crater.policy.Reason;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jboss.logging.Logger;

/**
 * What a node's GPU health shows outside the database: its annotations ({@link NodeMarks}), the cordon of a
 * quarantined node (with the first reason, by {@value NodeMarks#HEALTH_CORDONER}), the platform admins told, the
 * audit trail. Kubernetes calls run blocking, after the round's transaction committed.
 */
@ApplicationScoped
class GpuHealthMarks {

    private static final Logger LOG = Logger.getLogger(GpuHealthMarks.class);

    /** The kind of the notification platform admins get when a node is quarantined. */
    static final String QUARANTINED = "node.gpu-quarantined";

    @Inject
    KubernetesClient client;

    @Inject
    ClusterCache cache;

    @Inject
    NotificationService notifications;

    @Inject
    UserService users;

    @Inject
    AuditTrail audit;

    /** Blocking: each change shown on its node; quarantines told to the platform admins and audited. */
    void apply(List<GpuHealthWatch.Change> changes) throws Throwable {
        for (GpuHealthWatch.Change c : changes) {
            GpuHealth.Decision d = c.decision();
            String reason = d.reasons().isEmpty() ? "" : d.reasons().get(0).message();
            try {
                mark(c.node(), d.state(), reason, c.since());
            } catch (KubernetesClientException e) {
                LOG.warnf("GPU health: node %s could not be marked %s (%s)", c.node(), d.state(), e.getMessage());
                continue;
            }
            if (d.state() == GpuHealth.State.QUARANTINED && c.from() != GpuHealth.State.QUARANTINED) {
                LOG.warnf("GPU health: node %s quarantined: %s", c.node(), reason);
                VertxContextSupport.subscribeAndAwait(
                        () -> Panache.withTransaction(() -> told(c.node(), reason, d.reasons())));
            }
        }
    }

    /** The platform admins told, and the quarantine audited, in one transaction. */
    private Uni<Void> told(String node, String reason, List<Reason> reasons) {
        Map<String, Object> args = Map.of("node", node, "reason", reason);
        return users.adminIds()
                .flatMap(ids -> io.crater.platform.Unis.sequentially(
                        ids,
                        id -> notifications.notify(
                                id,
                                QUARANTINED,
                                "Node " + node + " was quarantined and cordoned: " + reason,
                                "/admin/nodes/" + node,
                                args)))
                .flatMap(x -> audit.record(
                        Actor.system(), "node.quarantine", "node", node, null, Map.of("reasons", Json.write(reasons))));
    }

    /**
     * Blocking: the node's health annotations set (or removed when healthy); a quarantined node is cordoned too,
     * unless someone cordoned it already (their reason stays).
     */
    void mark(String node, GpuHealth.State state, String reason, Instant since) {
        Map<String, Object> annotations = new LinkedHashMap<>();
        Map<String, Object> patch = new LinkedHashMap<>();
        String at = since.truncatedTo(ChronoUnit.SECONDS).toString();
        if (state == GpuHealth.State.HEALTHY) {
            annotations.put(NodeMarks.HEALTH, null);
            annotations.put(NodeMarks.HEALTH_REASON, null);
            annotations.put(NodeMarks.HEALTH_SINCE, null);
        } else {
            annotations.put(NodeMarks.HEALTH, state.name().toLowerCase(java.util.Locale.ROOT));
            annotations.put(NodeMarks.HEALTH_REASON, reason);
            annotations.put(NodeMarks.HEALTH_SINCE, at);
        }
        Node current = cache.node(node);
        boolean cordoned = current != null
                && current.getSpec() != null
                && Boolean.TRUE.equals(current.getSpec().getUnschedulable());
        if (state == GpuHealth.State.QUARANTINED && !cordoned) {
            annotations.put(NodeCordon.REASON, "GPU quarantine: " + reason);
            annotations.put(NodeCordon.BY, NodeMarks.HEALTH_CORDONER);
            annotations.put(NodeCordon.AT, at);
            patch.put("spec", Map.of("unschedulable", true));
        }
        patch.put("metadata", Map.of("annotations", annotations));
        client.nodes().withName(node).patch(PatchContext.of(PatchType.JSON_MERGE), Json.write(patch));
    }

    /** Blocking: a cleared node's marks removed, and its cordon lifted when the quarantine set it. */
    void cleared(String node) {
        Node current = cache.node(node);
        Map<String, String> ann = current == null
                ? Map.of()
                : Objects.requireNonNullElse(current.getMetadata().getAnnotations(), Map.of());
        Map<String, Object> annotations = new LinkedHashMap<>();
        annotations.put(NodeMarks.HEALTH, null);
        annotations.put(NodeMarks.HEALTH_REASON, null);
        annotations.put(NodeMarks.HEALTH_SINCE, null);
        Map<String, Object> patch = new LinkedHashMap<>();
        if (NodeMarks.HEALTH_CORDONER.equals(ann.get(NodeCordon.BY))) {
            annotations.put(NodeCordon.REASON, null);
            annotations.put(NodeCordon.BY, null);
            annotations.put(NodeCordon.AT, null);
            Map<String, Object> spec = new LinkedHashMap<>();
            spec.put("unschedulable", null);
            patch.put("spec", spec);
        }
        patch.put("metadata", Map.of("annotations", annotations));
        client.nodes().withName(node).patch(PatchContext.of(PatchType.JSON_MERGE), Json.write(patch));
    }
}
