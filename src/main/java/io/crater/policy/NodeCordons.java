package io.crater.policy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Why a waiting job's room is on a cordoned node: a {@code NodeCordoned} reason for each cordoned node that could
 * hold one of the job's pods (its labels match the pod's selector and its allocatable holds the pod's request), naming
 * the node, the platform admin's reason and who cordoned it. Placement never counts a cordoned node as free capacity.
 */
public final class NodeCordons {

    /** How many cordoned nodes a wait names at most; {@code numbers.cordonedNodes} says how many there are. */
    static final int MAX_NAMED = 5;

    private NodeCordons() {}

    /** A cordoned node; {@code reason} and {@code by} are empty when it was cordoned outside Crater. */
    public record Cordoned(NodeCapacity node, String reason, String by) {}

    public static List<Reason> explain(List<Cordoned> cordoned, List<PodDemand> pods) {
        List<Cordoned> relevant = cordoned.stream()
                .filter(c -> pods.stream()
                        .anyMatch(p -> c.node().matches(p.nodeSelector())
                                && p.request().fitsIn(c.node().allocatable())))
                .sorted(Comparator.comparing(c -> c.node().name()))
                .toList();
        List<Reason> out = new ArrayList<>();
        for (Cordoned c : relevant.subList(0, Math.min(MAX_NAMED, relevant.size()))) {
            String why = c.reason().isEmpty() ? "no reason given" : c.reason();
            out.add(ReasonCode.NodeCordoned.reason(
                    "node " + c.node().name() + " could hold this job's pods but is cordoned"
                            + (c.by().isEmpty() ? "" : " by " + c.by()) + ": " + why,
                    Map.of("cordonedNodes", (long) relevant.size()),
                    Map.of("node", c.node().name(), "reason", c.reason(), "by", c.by())));
        }
        return out;
    }
}
