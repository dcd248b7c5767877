package io.crater.cluster;

import java.util.List;
import java.util.Map;

/** What the cluster API shows: nodes with their allocation, and totals per accelerator model. */
public final class ClusterViews {

    private ClusterViews() {}

    /** A node's accelerators. {@code model} is the catalogue key, or {@code uncatalogued} when no entry matches. */
    public record NodeAccelerator(
            String model, String displayName, String vendor, String resource, long total, long allocated) {}

    /** CPU in milli-cores. */
    public record Cpu(long totalMilli, long allocatedMilli) {}

    /** Memory in bytes. */
    public record Memory(long totalBytes, long allocatedBytes) {}

    /** A node as the console's node table shows it; totals are allocatable, allocated = requests of bound pods. */
    public record NodeView(
            String name,
            boolean ready,
            boolean schedulable,
            NodeAccelerator accelerator,
            Cpu cpu,
            Memory memory,
            int pods,
            Map<String, String> labels,
            List<UncoveredResource> uncovered,
            List<NodeTaint> taints,
            NodeCordonView cordon,
            NodeExclusiveView exclusive,
            NodeHealthView health) {}

    /**
     * The account a node is exclusive to ({@code crater.io/exclusive=<account id>:NoSchedule}); {@code account} is its
     * slug as Crater wrote it, empty when the taint was set outside Crater. Null when the node is shared.
     */
    public record NodeExclusiveView(long accountId, String account) {}

    /**
     * A node whose accelerators Crater found suspect or quarantined (docs/nodes.md, quarantine): the state
     * ({@code suspect} or {@code quarantined}), why (the first reason's sentence) and since when (RFC 3339). Null
     * when healthy.
     */
    public record NodeHealthView(String state, String reason, String since) {}

    /** A taint of a node; {@code value} is empty when it has none. */
    public record NodeTaint(String key, String value, String effect) {}

    /**
     * Who cordoned a node through Crater, why and when ({@code at} an RFC 3339 instant); empty strings when it was
     * cordoned outside Crater. Null when the node is not cordoned.
     */
    public record NodeCordonView(String reason, String by, String at) {}

    /** An extended resource a node publishes that no catalogue model covers: nothing can request it yet. */
    public record UncoveredResource(String resource, long count) {}

    /**
     * Totals of one accelerator model: {@code free} counts only nodes that can take pods now (ready, not cordoned).
     */
    public record AcceleratorSummary(
            String model,
            String displayName,
            String vendor,
            String resource,
            int nodes,
            long total,
            long allocated,
            long free) {}

    /** A list body: {@code {"items": [...]}}. */
    public record Items<T>(java.util.List<T> items) {}

    /** The payload of a {@code node} event. */
    public record NodeEvent(String type, NodeView node) {}
}
