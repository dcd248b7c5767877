package io.crater.cluster;

import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** What {@code GET /api/v1/admin/nodes/{name}} shows a platform admin: one node with all that is on it. */
public final class NodeDetailViews {

    private NodeDetailViews() {}

    /**
     * The node as the node list shows it, its conditions, the pods bound to it (every namespace), the Crater jobs
     * those pods belong to with their owners and accounts, and the cluster's events about the node, newest first
     * ({@code eventsUnavailable} says why they could not be read, null when they were).
     */
    @Schema(name = "NodeDetail")
    public record NodeDetail(
            ClusterViews.NodeView node,
            List<Condition> conditions,
            List<PodOnNode> pods,
            List<JobOnNode> jobs,
            List<NodeKubeEvent> events,
            String eventsUnavailable) {}

    /** A condition of the node's status ({@code Ready}, {@code MemoryPressure}...); times are RFC 3339 or null. */
    @Schema(name = "NodeCondition")
    public record Condition(String type, String status, String reason, String message, String lastTransitionTime) {}

    /**
     * A pod bound to the node: its requests (CPU in milli-cores, memory in bytes, accelerators in devices of the
     * node's accelerator resource) and the public id of its Crater job, null for a pod that is no Crater job.
     */
    @Schema(name = "NodePod")
    public record PodOnNode(
            String namespace,
            String name,
            String phase,
            String job,
            long cpuMilli,
            long memoryBytes,
            long accelerators,
            String createdAt) {}

    /** A Crater job with pods on the node: its public id, name, state, owner, account, and its pods there. */
    @Schema(name = "NodeJob")
    public record JobOnNode(String id, String name, String state, String owner, String account, int pods) {}

    /**
     * An event of the cluster about the node (the kubelet's, the node controller's): {@code type} Normal or Warning,
     * how often it happened ({@code count}) and when last (RFC 3339, null when the event says nothing).
     */
    @Schema(name = "NodeKubeEvent")
    public record NodeKubeEvent(
            String type, String reason, String message, int count, String lastSeen, String source) {}
}
