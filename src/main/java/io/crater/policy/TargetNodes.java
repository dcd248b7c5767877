package io.crater.policy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The nodes a job asks to use or to avoid, by name (docs/jobs.md, target nodes): an allow list (only these nodes) or
 * a deny list (any node but these), never both; {@link #ANY} when it names none.
 *
 * @param allow the only nodes its pods may use; empty: no allow list
 * @param deny nodes its pods never use
 */
public record TargetNodes(Set<String> allow, Set<String> deny) {

    public static final TargetNodes ANY = new TargetNodes(Set.of(), Set.of());

    /** At most this many names in either list. */
    public static final int MAX_NAMES = 64;

    /** A node's name as Kubernetes allows it: a DNS subdomain (RFC 1123) of at most 253 characters. */
    private static final Pattern NODE_NAME =
            Pattern.compile("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$");

    /** A fault of a request's lists: the field ({@code nodes.use[2]}) and what is wrong. */
    public record Violation(String field, String message) {}

    /**
     * What is wrong with the lists a job gives ({@code use}: only these nodes, {@code avoid}: never these), each null
     * when absent: both given, more than {@value #MAX_NAMES} names, a name that is not a node's name, a name twice.
     */
    public static List<Violation> check(List<String> use, List<String> avoid) {
        List<Violation> out = new ArrayList<>();
        boolean hasUse = use != null && !use.isEmpty();
        boolean hasAvoid = avoid != null && !avoid.isEmpty();
        if (hasUse && hasAvoid) {
            out.add(new Violation("nodes", "either use (only these nodes) or avoid (never these), not both"));
        }
        names("nodes.use", use, out);
        names("nodes.avoid", avoid, out);
        return out;
    }

    private static void names(String field, List<String> names, List<Violation> out) {
        if (names == null) {
            return;
        }
        if (names.size() > MAX_NAMES) {
            out.add(new Violation(field, "at most " + MAX_NAMES + " nodes (" + names.size() + " given)"));
            return;
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < names.size(); i++) {
            String n = names.get(i);
            if (n == null || n.length() > 253 || !NODE_NAME.matcher(n).matches()) {
                out.add(new Violation(field + "[" + i + "]", "a node's name (lowercase letters, digits, - and .)"));
            } else if (!seen.add(n)) {
                out.add(new Violation(field + "[" + i + "]", n + " is named twice"));
            }
        }
    }

    /** The lists as checked by {@link #check}; {@link #ANY} when both are empty or absent. */
    public static TargetNodes of(List<String> use, List<String> avoid) {
        if ((use == null || use.isEmpty()) && (avoid == null || avoid.isEmpty())) {
            return ANY;
        }
        return new TargetNodes(
                use == null ? Set.of() : new TreeSet<>(use), avoid == null ? Set.of() : new TreeSet<>(avoid));
    }

    /**
     * The same nodes with {@code node} avoided too: added to a deny list, or taken out of an allow list that names
     * others; an allow list of that node alone is left as the user chose it.
     */
    public TargetNodes avoiding(String node) {
        if (!allow.isEmpty()) {
            if (!allow.contains(node) || allow.size() == 1) {
                return this;
            }
            Set<String> fewer = new TreeSet<>(allow);
            fewer.remove(node);
            return new TargetNodes(fewer, Set.of());
        }
        if (deny.contains(node)) {
            return this;
        }
        Set<String> more = new TreeSet<>(deny);
        more.add(node);
        return new TargetNodes(Set.of(), more);
    }

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
