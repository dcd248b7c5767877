package io.crater.cluster;

import io.crater.audit.AuditService;
import io.crater.identity.Caller;
import io.crater.platform.ApiException;
import io.crater.platform.Json;
import io.crater.platform.Problem;
import io.crater.policy.NodeDrain;
import io.crater.policy.NodeEdits;
import io.crater.policy.Taints;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.policy.v1.EvictionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.RequestConfigBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A platform admin's node administration (docs/nodes.md): cordon with a reason, uncordon, drain through the Eviction
 * API (Crater's jobs on the node stopped with {@code NodeDrained}), labels and taints. Each checked before anything
 * changes, applied to the Node, and audited.
 */
@ApplicationScoped
public class NodeAdminService {

    @Inject
    KubernetesClient client;

    @Inject
    ClusterCache cache;

    @Inject
    NodeViews views;

    @Inject
    AuditService audit;

    @Inject
    NodeJobs jobs;

    @Inject
    Vertx vertx;

    @Inject
    Clock clock;

    /**
     * A cordon's or drain's body. {@code requeue} (drain only): the stopped jobs' copies wait again in their places in
     * line instead of their owners having to resubmit them.
     */
    public record CordonRequest(String reason, Boolean requeue) {}

    /** Labels to set (key to value) and keys to remove. */
    @Schema(name = "NodeLabelEdit")
    public record LabelEdit(Map<String, String> set, List<String> remove) {}

    /** Taints to add or replace (by key and effect) and to remove (by key and effect). */
    @Schema(name = "NodeTaintEdit")
    public record TaintEdit(List<NodeEdits.TaintSpec> add, List<NodeEdits.TaintSpec> remove) {}

    /** A pod the Eviction API refused to evict (a PodDisruptionBudget would be violated), with its answer. */
    @Schema(name = "NodeDrainBlocked")
    public record Blocked(String namespace, String pod, String message) {}

    /** A pod a drain leaves on the node, and why: {@code Finished}, {@code StaticPod} or {@code DaemonSet}. */
    @Schema(name = "NodeDrainKept")
    public record Kept(String namespace, String name, String why) {}

    /** What a drain did: the node, the pods evicted and refused, the pods kept and the Crater jobs stopped. */
    @Schema(name = "NodeDrainResult")
    public record DrainResult(
            ClusterViews.NodeView node,
            List<String> evicted,
            List<Blocked> blocked,
            List<Kept> kept,
            List<String> stoppedJobs,
            Map<String, String> requeued) {}

    /** What a change left: the node's state before it (for the audit) and its view after. */
    private record Done(Map<String, Object> before, ClusterViews.NodeView view) {}

    public Uni<ClusterViews.NodeView> cordon(String name, CordonRequest req, Caller caller) {
        requireAdmin(caller);
        String reason = checkedReason(req);
        if (Boolean.TRUE.equals(req.requeue())) {
            throw ApiException.badRequest(
                    "InvalidCordon",
                    "requeue applies to a drain: a cordon stops nothing",
                    List.of(new Problem.FieldError("requeue", "only with a drain")));
        }
        return blocking(() -> cordonNode(name, reason, caller.user().username()))
                .flatMap(d -> audited(caller, "node.cordon", name, d.before(), Map.of("reason", reason))
                        .replaceWith(d.view()));
    }

    public Uni<ClusterViews.NodeView> uncordon(String name, Caller caller) {
        requireAdmin(caller);
        Map<String, Object> patch = Map.of(
                "metadata",
                Map.of("annotations", nulls(NodeCordon.REASON, NodeCordon.BY, NodeCordon.AT)),
                "spec",
                nulls("unschedulable"));
        return blocking(() -> new Done(cordonOf(existing(name)), patched(name, patch)))
                .flatMap(d -> audited(caller, "node.uncordon", name, d.before(), Map.of())
                        .replaceWith(d.view()));
    }

    /**
     * Cordons the node, stops the Crater jobs with pods on it ({@code NodeDrained}), then evicts every pod a drain
     * evicts through the Eviction API; a pod a PodDisruptionBudget protects stays and is named in the answer.
     */
    public Uni<DrainResult> drain(String name, CordonRequest req, Caller caller) {
        requireAdmin(caller);
        String reason = checkedReason(req);
        boolean requeue = Boolean.TRUE.equals(req.requeue());
        String by = caller.user().username();
        return blocking(() -> {
                    ClusterViews.NodeView cordoned =
                            cordonNode(name, reason, by).view();
                    return Map.entry(
                            cordoned,
                            NodeDrain.plan(cache.podsOn(name).stream()
                                    .map(NodeAdminService::drainPod)
                                    .toList()));
                })
                .flatMap(e -> (requeue
                                ? jobs.markDrainedAndRequeue(e.getValue().stopJobs(), name, by, reason)
                                : jobs.markDrained(e.getValue().stopJobs(), name, by, reason)
                                        .map(NodeAdminService::noCopies))
                        .flatMap(moved -> blocking(() -> evictAll(e.getKey(), e.getValue(), moved))))
                .flatMap(r -> audited(
                                caller,
                                "node.drain",
                                name,
                                null,
                                Map.of(
                                        "reason",
                                        reason,
                                        "evicted",
                                        r.evicted().size(),
                                        "blocked",
                                        r.blocked().size(),
                                        "stoppedJobs",
                                        String.join(",", r.stoppedJobs()),
                                        "requeued",
                                        String.join(",", r.requeued().values())))
                        .replaceWith(r));
    }

    public Uni<ClusterViews.NodeView> labels(String name, LabelEdit req, Caller caller) {
        requireAdmin(caller);
        Map<String, String> set = req == null || req.set() == null ? Map.of() : req.set();
        List<String> remove = req == null || req.remove() == null ? List.of() : req.remove();
        refuse("InvalidLabels", "the labels cannot be changed as given", NodeEdits.labels(set, remove));
        if (set.isEmpty() && remove.isEmpty()) {
            throw ApiException.badRequest("InvalidLabels", "nothing to change: give set or remove", null);
        }
        Map<String, Object> labels = new LinkedHashMap<>(set);
        remove.forEach(k -> labels.put(k, null));
        return blocking(() -> {
                    Map<String, String> before = Objects.requireNonNullElse(
                            existing(name).getMetadata().getLabels(), Map.of());
                    return new Done(
                            Map.of("labels", Json.write(before)),
                            patched(name, Map.of("metadata", Map.of("labels", labels))));
                })
                .flatMap(d -> audited(
                                caller,
                                "node.labels",
                                name,
                                d.before(),
                                Map.of("set", Json.write(set), "remove", Json.write(remove)))
                        .replaceWith(d.view()));
    }

    public Uni<ClusterViews.NodeView> taints(String name, TaintEdit req, Caller caller) {
        requireAdmin(caller);
        List<NodeEdits.TaintSpec> add = req == null || req.add() == null ? List.of() : req.add();
        List<NodeEdits.TaintSpec> remove = req == null || req.remove() == null ? List.of() : req.remove();
        refuse("InvalidTaints", "the taints cannot be changed as given", NodeEdits.taints(add, remove));
        if (add.isEmpty() && remove.isEmpty()) {
            throw ApiException.badRequest("InvalidTaints", "nothing to change: give add or remove", null);
        }
        return blocking(() -> {
                    Node node = client.nodes().withName(name).get();
                    if (node == null) {
                        throw notFound(name);
                    }
                    List<Taint> current =
                            node.getSpec() == null || node.getSpec().getTaints() == null
                                    ? List.of()
                                    : node.getSpec().getTaints();
                    List<Taint> next = NodeTaints.edited(current, add, remove);
                    Map<String, Object> patch = new LinkedHashMap<>();
                    // The version read: a change between the read and the patch answers 409, not a lost update.
                    patch.put(
                            "metadata",
                            Map.of("resourceVersion", node.getMetadata().getResourceVersion()));
                    patch.put("spec", Map.of("taints", next));
                    return new Done(Map.of("taints", NodeTaints.describe(current)), patched(name, patch));
                })
                .flatMap(d -> audited(
                                caller,
                                "node.taints",
                                name,
                                d.before(),
                                Map.of("taints", NodeTaints.describe(d.view().taints())))
                        .replaceWith(d.view()));
    }

    /**
     * Makes the node exclusive to an account: its taint {@code crater.io/exclusive=<account id>:NoSchedule} (replacing
     * another account's) and the account's slug as an annotation. Only that account's jobs tolerate the taint.
     */
    public Uni<ClusterViews.NodeView> exclusive(String name, long accountId, String slug, Caller caller) {
        requireAdmin(caller);
        return blocking(() -> retaint(name, Taints.exclusive(accountId), slug))
                .flatMap(d -> audited(caller, "node.exclusive", name, d.before(), Map.of("account", slug))
                        .replaceWith(d.view()));
    }

    /** Shares the node again: its exclusive taint and annotation removed. */
    public Uni<ClusterViews.NodeView> shared(String name, Caller caller) {
        requireAdmin(caller);
        return blocking(() -> retaint(name, null, null))
                .flatMap(d -> audited(caller, "node.shared", name, d.before(), Map.of())
                        .replaceWith(d.view()));
    }

    /** Blocking: the node's exclusive taint replaced by {@code taint} (null: removed), read and patched at a version. */
    private Done retaint(String name, Taints.Taint taint, String slug) {
        Node node = client.nodes().withName(name).get();
        if (node == null) {
            throw notFound(name);
        }
        List<Taint> current = node.getSpec() == null || node.getSpec().getTaints() == null
                ? List.of()
                : node.getSpec().getTaints();
        List<Taint> next = new ArrayList<>(current.stream()
                .filter(t -> !Taints.EXCLUSIVE.equals(t.getKey()))
                .toList());
        if (taint != null) {
            next.add(new Taint(taint.effect(), taint.key(), null, taint.value()));
        }
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("resourceVersion", node.getMetadata().getResourceVersion());
        Map<String, Object> annotations = new LinkedHashMap<>();
        annotations.put(NodeMarks.EXCLUSIVE_ACCOUNT, slug);
        meta.put("annotations", annotations);
        String before = Objects.requireNonNullElse(node.getMetadata().getAnnotations(), Map.<String, String>of())
                .getOrDefault(NodeMarks.EXCLUSIVE_ACCOUNT, "");
        return new Done(
                Map.of("exclusive", before), patched(name, Map.of("metadata", meta, "spec", Map.of("taints", next))));
    }

    private static String checkedReason(CordonRequest req) {
        String problem = NodeEdits.reasonProblem(req == null ? null : req.reason());
        if (problem != null) {
            throw ApiException.badRequest("InvalidCordon", problem, List.of(new Problem.FieldError("reason", problem)));
        }
        return req.reason().strip();
    }

    /** Blocking: the cordon patch; the cordon as it was and the node after. */
    private Done cordonNode(String name, String reason, String by) {
        Map<String, Object> before = cordonOf(existing(name));
        Map<String, Object> annotations = new LinkedHashMap<>();
        annotations.put(NodeCordon.REASON, reason);
        annotations.put(NodeCordon.BY, by);
        annotations.put(
                NodeCordon.AT,
                clock.instant()
                        .truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
                        .toString());
        return new Done(
                before,
                patched(
                        name,
                        Map.of("metadata", Map.of("annotations", annotations), "spec", Map.of("unschedulable", true))));
    }

    private static Map<String, String> noCopies(List<String> stopped) {
        Map<String, String> out = new LinkedHashMap<>();
        stopped.forEach(id -> out.put(id, null));
        return out;
    }

    /** Blocking: evicts the plan's pods, then deletes the stopped jobs' Volcano Jobs. */
    private DrainResult evictAll(ClusterViews.NodeView node, NodeDrain.Plan plan, Map<String, String> moved) {
        List<String> stopped = List.copyOf(moved.keySet());
        Map<String, String> requeued = new LinkedHashMap<>();
        moved.forEach((from, to) -> {
            if (to != null) {
                requeued.put(from, to);
            }
        });
        List<String> evicted = new ArrayList<>();
        List<Blocked> blocked = new ArrayList<>();
        // A 429 from the Eviction API is the budget's answer, not a busy server: report it at once, do not retry.
        KubernetesClient once = client.newClient(new RequestConfigBuilder()
                        .withRequestRetryBackoffLimit(0)
                        .build())
                .adapt(KubernetesClient.class);
        for (NodeDrain.Pod p : plan.evict()) {
            try {
                boolean ok = once.pods()
                        .inNamespace(p.namespace())
                        .withName(p.name())
                        .evict(new EvictionBuilder()
                                .withNewMetadata()
                                .withName(p.name())
                                .withNamespace(p.namespace())
                                .endMetadata()
                                .build());
                if (ok) {
                    evicted.add(p.namespace() + "/" + p.name());
                } else {
                    blocked.add(
                            new Blocked(p.namespace(), p.name(), "evicting it would violate its PodDisruptionBudget"));
                }
            } catch (KubernetesClientException e) {
                if (e.getCode() == 404) {
                    evicted.add(p.namespace() + "/" + p.name()); // gone already
                } else {
                    blocked.add(new Blocked(p.namespace(), p.name(), String.valueOf(e.getMessage())));
                }
            }
        }
        jobs.release(stopped);
        List<Kept> kept = plan.kept().stream()
                .map(k -> new Kept(k.namespace(), k.name(), k.why()))
                .toList();
        return new DrainResult(node, evicted, blocked, kept, stopped, requeued);
    }

    private static NodeDrain.Pod drainPod(Pod p) {
        Map<String, String> labels = Objects.requireNonNullElse(p.getMetadata().getLabels(), Map.of());
        Map<String, String> ann = Objects.requireNonNullElse(p.getMetadata().getAnnotations(), Map.of());
        boolean daemonSet = p.getMetadata().getOwnerReferences() != null
                && p.getMetadata().getOwnerReferences().stream()
                        .anyMatch(o -> "DaemonSet".equals(o.getKind()) && Boolean.TRUE.equals(o.getController()));
        return new NodeDrain.Pod(
                p.getMetadata().getNamespace(),
                p.getMetadata().getName(),
                p.getStatus() == null ? null : p.getStatus().getPhase(),
                labels.get("crater.io/job-id"),
                daemonSet,
                ann.containsKey("kubernetes.io/config.mirror"));
    }

    private Node existing(String name) {
        Node node = cache.node(name);
        if (node == null) {
            throw notFound(name);
        }
        return node;
    }

    /** Blocking: the merge patch applied; the node's view after it. */
    private ClusterViews.NodeView patched(String name, Map<String, Object> patch) {
        try {
            Node after = client.nodes().withName(name).patch(PatchContext.of(PatchType.JSON_MERGE), Json.write(patch));
            return views.of(after, cache.allocated(name), cache.podCount(name));
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                throw notFound(name);
            }
            if (e.getCode() == 409) {
                throw ApiException.conflict("NodeChanged", "node " + name + " changed meanwhile; try again");
            }
            throw e;
        }
    }

    private static Map<String, Object> cordonOf(Node n) {
        Map<String, String> ann = Objects.requireNonNullElse(n.getMetadata().getAnnotations(), Map.of());
        boolean cordoned =
                n.getSpec() != null && Boolean.TRUE.equals(n.getSpec().getUnschedulable());
        return Map.of("cordoned", cordoned, "reason", ann.getOrDefault(NodeCordon.REASON, ""));
    }

    private static Map<String, Object> nulls(String... keys) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (String k : keys) {
            m.put(k, null);
        }
        return m;
    }

    private static void refuse(String code, String detail, List<NodeEdits.Violation> violations) {
        if (!violations.isEmpty()) {
            throw ApiException.badRequest(
                    code,
                    detail,
                    violations.stream()
                            .map(v -> new Problem.FieldError(v.field(), v.message()))
                            .toList());
        }
    }

    private Uni<Void> audited(Caller caller, String action, String node, Object before, Object after) {
        return Panache.withTransaction(() -> audit.record(caller.actor(null), action, "node", node, before, after));
    }

    private <T> Uni<T> blocking(Supplier<T> work) {
        return vertx.executeBlocking(Uni.createFrom().item(work));
    }

    private static ApiException notFound(String name) {
        return ApiException.notFound("no node named " + name);
    }

    private static void requireAdmin(Caller caller) {
        if (!caller.platformAdmin()) {
            throw ApiException.forbidden("NotPlatformAdmin", "only platform administrators administer nodes");
        }
    }
}
