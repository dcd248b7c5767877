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
 * @param shortNames the short names discovery lists ({@code po}), which kubectl resolves ({@code kubectl get po})
 * @param categories the categories discovery lists ({@code all}: {@code kubectl get all})
 */
record ApiResource(
        String group,
        List<String> versions,
        String plural,
        String kind,
        boolean namespaced,
        boolean statusSubresource,
        boolean unconditionalUpdate,
        Set<String> fields,
        List<String> shortNames,
        List<String> categories) {

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
        return new ApiResource(
                "", List.of("v1"), plural, kind, namespaced, status, true, Set.of(fields), List.of(), List.of());
    }

    static ApiResource builtIn(String group, String version, String plural, String kind, boolean namespaced) {
        return new ApiResource(
                group, List.of(version), plural, kind, namespaced, false, true, Set.of(), List.of(), List.of());
    }

    /** This resource with the short names and categories the real server lists for it. */
    ApiResource named(List<String> shortNames, List<String> categories) {
        return new ApiResource(
                group,
                versions,
                plural,
                kind,
                namespaced,
                statusSubresource,
                unconditionalUpdate,
                fields,
                List.copyOf(shortNames),
                List.copyOf(categories));
    }

    /** The built-in resources: what Crater, the simulator and their clients use. */
    static List<ApiResource> builtIns() {
        return List.of(
                core("namespaces", "Namespace", false, true, "status.phase").named(List.of("ns"), List.of()),
                core("nodes", "Node", false, true, "spec.unschedulable").named(List.of("no"), List.of()),
                core("pods", "Pod", true, true, "spec.nodeName", "status.phase", "spec.schedulerName")
                        .named(List.of("po"), List.of("all")),
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
                                "source")
                        .named(List.of("ev"), List.of()),
                core("bindings", "Binding", true, false),
                core("configmaps", "ConfigMap", true, false).named(List.of("cm"), List.of()),
                core("secrets", "Secret", true, false, "type"),
                core("services", "Service", true, true).named(List.of("svc"), List.of("all")),
                core("serviceaccounts", "ServiceAccount", true, false).named(List.of("sa"), List.of()),
                core("persistentvolumeclaims", "PersistentVolumeClaim", true, true)
                        .named(List.of("pvc"), List.of()),
                builtIn("coordination.k8s.io", "v1", "leases", "Lease", true),
                builtIn("policy", "v1", "poddisruptionbudgets", "PodDisruptionBudget", true)
                        .named(List.of("pdb"), List.of()),
                builtIn("networking.k8s.io", "v1", "networkpolicies", "NetworkPolicy", true)
                        .named(List.of("netpol"), List.of()),
                builtIn("storage.k8s.io", "v1", "storageclasses", "StorageClass", false)
                        .named(List.of("sc"), List.of()),
                new ApiResource(
                        "apiextensions.k8s.io",
                        List.of("v1"),
                        "customresourcedefinitions",
                        "CustomResourceDefinition",
                        false,
                        true,
                        true,
                        Set.of(),
                        List.of("crd", "crds"),
                        List.of("api-extensions")));
    }
}
