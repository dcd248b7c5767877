package io.crater.cluster;

/** The annotations a cordon through Crater leaves on the node beside {@code spec.unschedulable} (docs/nodes.md). */
public final class NodeCordon {

    private NodeCordon() {}

    /** The platform admin's reason. */
    public static final String REASON = "crater.io/cordon-reason";

    /** The username of the platform admin who cordoned it. */
    public static final String BY = "crater.io/cordoned-by";

    /** When, as an RFC 3339 instant. */
    public static final String AT = "crater.io/cordoned-at";
}
