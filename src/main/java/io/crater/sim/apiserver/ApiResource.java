package io.crater.sim.apiserver;

import java.util.List;
import java.util.Set;

/**
 * A resource the simulated API server serves: where it lives in the URL space and what the server does with it.
 *
 * @param group API group, empty for the core group
 * @param versions the versions served (the first is the one discovery prefers)
 * @param plural the URL name ({@code pods})
 * @param kind the object kind ({@code Pod})
 * @param namespaced whether objects live in a namespace
 * @param statusSubresource whether {@code status} is a subresource: then writes to the object keep its status
 *     and writes to {@code /status} change only the status
 * @param unconditionalUpdate whether an update without {@code metadata.resourceVersion} is accepted (built-in
 *     kinds) or refused (custom resources)
 * @param fields the field selectors supported besides {@code metadata.name} and {@code metadata.namespace}
 */
record ApiResource(
        String group,
        List<String> versions,
        String plural,
        String kind,
        boolean namespaced,
        boolean statusSubresource,
        boolean unconditionalUpdate,
        Set<String> fields) {

    /** The key the store keeps objects of this resource under, whatever version they are read at. */
    String key() {
        return group + "/" + plural;
    }

    String apiVersion(String version) {
        return group.isEmpty() ? version : group + "/" + version;
    }

    boolean serves(String version) {
        return versions.contains(version);
    }

    static ApiResource core(String plural, String kind, boolean namespaced, boolean status, String... fields) {
        return new ApiResource("", List.of("v1"), plural, kind, namespaced, status, true, Set.of(fields));
    }

    static ApiResource builtIn(String group, String version, String plural, String kind, boolean namespaced) {
        return new ApiResource(group, List.of(version), plural, kind, namespaced, false, true, Set.of());
    }

    /** The built-in resources: what Crater, the simulator and their clients use. */
    static List<ApiResource> builtIns() {
        return List.of(
                core("namespaces", "Namespace", false, true, "status.phase"),
                core("nodes", "Node", false, true, "spec.unschedulable"),
                core("pods", "Pod", true, true, "spec.nodeName", "status.phase", "spec.schedulerName"),
                core(
                        "events",
                        "Event",
                        true,
                        false,
                        "involvedObject.kind",
                        "involvedObject.name",
                        "involvedObject.namespace",
                        "involvedObject.uid",
                        "reason",
                        "type",
                        "source"),
                core("bindings", "Binding", true, false),
                core("configmaps", "ConfigMap", true, false),
                core("secrets", "Secret", true, false, "type"),
                core("services", "Service", true, true),
                core("serviceaccounts", "ServiceAccount", true, false),
                core("persistentvolumeclaims", "PersistentVolumeClaim", true, true),
                builtIn("coordination.k8s.io", "v1", "leases", "Lease", true),
                builtIn("networking.k8s.io", "v1", "networkpolicies", "NetworkPolicy", true),
                new ApiResource(
                        "apiextensions.k8s.io",
                        List.of("v1"),
                        "customresourcedefinitions",
                        "CustomResourceDefinition",
                        false,
                        true,
                        true,
                        Set.of()));
    }
}
