package io.crater.policy;

import java.util.List;
import java.util.Map;

/**
 * The outcome of placing a gang: every pod bound to a node, or none and the reasons.
 *
 * @param assignments pod name to node name; empty when the gang does not fit
 * @param reasons why it does not fit; empty when placed
 */
public record GangPlacement(Map<String, String> assignments, List<Reason> reasons) {

    public GangPlacement {
        assignments = Map.copyOf(assignments);
        reasons = List.copyOf(reasons);
    }

    public boolean placed() {
        return reasons.isEmpty();
    }
}
