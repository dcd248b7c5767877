package io.crater.policy;

import java.util.Set;
import java.util.TreeSet;

/**
 * The nodes a job asks to use or to avoid, by name (docs/jobs.md, target nodes): an allow list (only these nodes) or
 * a deny list (any node but these), never both; {@link #ANY} when it names none.
 *
 * @param allow the only nodes its pods may use; empty: no allow list
 * @param deny nodes its pods never use
 */
public record TargetNodes(Set<String> allow, Set<String> deny) {

    public static final TargetNodes ANY = new TargetNodes(Set.of(), Set.of());

    public TargetNodes {
        allow = Set.copyOf(new TreeSet<>(allow == null ? Set.of() : allow));
        deny = Set.copyOf(new TreeSet<>(deny == null ? Set.of() : deny));
    }

    /** Whether the job's pods may use the node. */
    public boolean admits(String node) {
        return (allow.isEmpty() || allow.contains(node)) && !deny.contains(node);
    }

    /** Whether it names any node. */
    public boolean named() {
        return !allow.isEmpty() || !deny.isEmpty();
    }
}
