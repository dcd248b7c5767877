package io.crater.cluster;

/**
 * The annotations Crater leaves on a node beside its exclusive taint and its GPU health (docs/nodes.md), so the node
 * says what Crater decided about it to anyone reading it, {@code kubectl describe node} included.
 */
public final class NodeMarks {

    private NodeMarks() {}

    /** The slug of the account a node is exclusive to (the taint's value is the account's id). */
    public static final String EXCLUSIVE_ACCOUNT = "crater.io/exclusive-account";

    /** {@code suspect} or {@code quarantined}; absent when healthy. */
    public static final String HEALTH = "crater.io/gpu-health";

    /** The first reason's sentence: {@code GPU 3 reported XID 79, which needs the card reset or replaced}. */
    public static final String HEALTH_REASON = "crater.io/gpu-health-reason";

    /** Since when, as an RFC 3339 instant. */
    public static final String HEALTH_SINCE = "crater.io/gpu-health-since";

    /** The cordon's {@code cordoned-by} when the GPU health policy cordoned the node. */
    public static final String HEALTH_CORDONER = "crater:gpu-health";
}
