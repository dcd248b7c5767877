package io.crater.chart;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The chart's RBAC against the uses of the Kubernetes API recorded by the in-process API server
 * ({@code io.crater.sim.apiserver.ClientUses}, one line {@code verb group resource[/sub] scope} each): what is used but
 * not granted, and what is granted but used by nothing (docs/deploy.md, RBAC).
 */
final class ChartRbac {

    /** Grants no test can record, and why they are granted anyway. */
    static final Map<String, String> EXCEPTIONS = Map.of(
            "create core pods/eviction (cluster-wide)",
            "a drain evicts the pods of every namespace bound to the node, each eviction naming its pod's namespace:"
                    + " the recorded uses are namespaced, the grant must be cluster-wide (docs/nodes.md)",
            "get batch.volcano.sh jobs (job namespace)",
            "JobApplier reads the Volcano Job back when its create answers 409: a retry after a crash between creating"
                    + " it and recording that, which the in-process tests do not provoke (RecoveryIT's server runs in"
                    + " a process of its own, whose calls are not recorded)");

    /** Recorded uses the chart does not grant on purpose, and why. */
    static final Map<String, String> NOT_GRANTED = Map.of(
            "get core configmaps namespace:volcano-system",
            "the readiness report reads Volcano's scheduler ConfigMap where it may (docs/readiness.md); a grant would"
                    + " take a Role in Volcano's namespace, which the chart does not own, so the check shows unknown");

    /** A use as RBAC sees it: verb, API group (core for ""), resource[/subresource], and cluster-wide or namespaced. */
    record Use(String verb, String group, String resource, boolean cluster) implements Comparable<Use> {
        @Override
        public String toString() {
            return verb + " " + group + " " + resource + (cluster ? " (cluster-wide)" : " (job namespace)");
        }

        @Override
        public int compareTo(Use o) {
            return toString().compareTo(o.toString());
        }
    }

    private ChartRbac() {}

    /**
     * The recorded lines as uses. Crater's client works in one namespace, the configured job namespace; a namespaced
     * resource across all namespaces, like a cluster-scoped one, needs a ClusterRole.
     */
    static Set<Use> recorded(List<String> lines) {
        Set<Use> uses = new TreeSet<>();
        for (String line : lines) {
            if (line.isBlank() || NOT_GRANTED.containsKey(line.trim())) {
                continue;
            }
            String[] f = line.trim().split(" ");
            if (f.length != 4) {
                throw new IllegalArgumentException("not a recorded use: " + line);
            }
            uses.add(new Use(f[0], f[1], f[2], !f[3].startsWith("namespace:")));
        }
        return uses;
    }

    /** What the rendered Roles (job namespace) and ClusterRoles grant, one use per verb, group and resource. */
    static Set<Use> granted(List<HasMetadata> objects) {
        Set<Use> granted = new TreeSet<>();
        ChartTest.all(objects, Role.class).forEach(r -> r.getRules().forEach(rule -> expand(rule, false, granted)));
        ChartTest.all(objects, ClusterRole.class)
                .forEach(r -> r.getRules().forEach(rule -> expand(rule, true, granted)));
        return granted;
    }

    /** Uses the chart does not grant; a cluster-wide grant covers the namespaced use too. */
    static Set<Use> missing(Set<Use> recorded, Set<Use> granted) {
        Set<Use> missing = new TreeSet<>();
        for (Use u : recorded) {
            if (!granted.contains(u) && !granted.contains(new Use(u.verb(), u.group(), u.resource(), true))) {
                missing.add(u);
            }
        }
        return missing;
    }

    /**
     * Grants nothing recorded uses, but for the exceptions. A cluster-wide grant that only a namespaced use needs is
     * unused: it belongs in the Role.
     */
    static Set<Use> unused(Set<Use> recorded, Set<Use> granted) {
        Set<Use> unused = new TreeSet<>();
        for (Use g : granted) {
            if (!recorded.contains(g) && !EXCEPTIONS.containsKey(g.toString())) {
                unused.add(g);
            }
        }
        return unused;
    }

    private static void expand(PolicyRule rule, boolean cluster, Set<Use> into) {
        for (String group : rule.getApiGroups()) {
            for (String resource : rule.getResources()) {
                for (String verb : rule.getVerbs()) {
                    into.add(new Use(verb, group.isEmpty() ? "core" : group, resource, cluster));
                }
            }
        }
    }
}
