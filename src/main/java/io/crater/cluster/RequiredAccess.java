package io.crater.cluster;

import java.util.ArrayList;
import java.util.List;

/**
 * The permissions Crater's work needs of the cluster, as the readiness report asks for them (one
 * SelfSubjectAccessReview each): exactly what Crater's client is seen to call in the tests, which the chart grants
 * (charts/crater/templates/rbac.yaml; {@code ReadinessAccessTest} holds the two equal). docs/readiness.md lists them.
 */
public final class RequiredAccess {

    /** A verb on a resource ({@code pods/exec} for a subresource) of an API group; namespace null: cluster-wide. */
    public record Permission(String verb, String group, String resource, String namespace) {}

    private static final String CORE = "";
    private static final String BATCH = "batch.volcano.sh";
    private static final String SCHEDULING = "scheduling.volcano.sh";

    private RequiredAccess() {}

    public static List<Permission> in(String namespace) {
        List<Permission> out = new ArrayList<>();
        add(out, List.of("get"), CORE, "pods", namespace);
        add(out, List.of("get"), CORE, "pods/log", namespace);
        add(out, List.of("get", "create"), CORE, "pods/exec", namespace);
        add(out, List.of("get", "create"), CORE, "pods/portforward", namespace);
        add(out, List.of("get", "create"), CORE, "secrets", namespace);
        add(out, List.of("create"), CORE, "services", namespace);
        add(out, List.of("create"), CORE, "configmaps", namespace); // an image build's Dockerfile
        add(out, List.of("create"), "networking.k8s.io", "networkpolicies", namespace);
        add(out, List.of("list", "watch"), CORE, "events", namespace);
        add(out, List.of("get", "create", "patch"), "coordination.k8s.io", "leases", namespace);
        add(out, List.of("get", "list", "watch", "create", "delete"), BATCH, "jobs", namespace);
        add(out, List.of("get", "list", "watch", "patch"), CORE, "nodes", null);
        add(out, List.of("create"), CORE, "pods/eviction", null); // a drain evicts in every namespace
        add(out, List.of("list"), CORE, "events", null); // a node's detail: its events, in any namespace
        add(out, List.of("list", "watch"), CORE, "pods", null);
        add(out, List.of("get", "list", "watch", "create", "update", "delete"), SCHEDULING, "queues", null);
        add(out, List.of("list"), SCHEDULING, "podgroups", null);
        return List.copyOf(out);
    }

    private static void add(List<Permission> out, List<String> verbs, String group, String resource, String namespace) {
        verbs.forEach(v -> out.add(new Permission(v, group, resource, namespace)));
    }
}
