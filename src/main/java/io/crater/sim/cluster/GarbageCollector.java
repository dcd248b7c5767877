package io.crater.sim.cluster;

import io.crater.volcano.PodGroup;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.List;

/**
 * Kubernetes' garbage collector for the simulated cluster: when an object is deleted, the objects that name
 * it in their owner references are deleted too (background propagation), and theirs in turn.
 */
final class GarbageCollector {

    private final KubernetesClient client;
    private final SimState state;

    GarbageCollector(KubernetesClient client, SimState state) {
        this.client = client;
        this.state = state;
    }

    void ownerDeleted(HasMetadata owner) {
        String uid = owner.getMetadata().getUid();
        String ns = owner.getMetadata().getNamespace();
        if (uid == null || ns == null) {
            return;
        }
        List<HasMetadata> dependents = new ArrayList<>();
        dependents.addAll(state.pods.getStore().list());
        dependents.addAll(state.groups.getStore().list());
        try {
            dependents.addAll(client.services().inNamespace(ns).list().getItems());
            dependents.addAll(client.secrets().inNamespace(ns).list().getItems());
            dependents.addAll(client.configMaps().inNamespace(ns).list().getItems());
            dependents.addAll(client.network()
                    .v1()
                    .networkPolicies()
                    .inNamespace(ns)
                    .list()
                    .getItems());
        } catch (KubernetesClientException e) {
            // Pods and PodGroups are still collected from the caches.
        }
        for (HasMetadata d : dependents) {
            if (ns.equals(d.getMetadata().getNamespace()) && ownedBy(d, uid)) {
                try {
                    if (d instanceof PodGroup g) {
                        client.resources(PodGroup.class)
                                .inNamespace(ns)
                                .withName(g.getMetadata().getName())
                                .delete();
                    } else {
                        client.resource(d).delete();
                    }
                } catch (KubernetesClientException e) {
                    if (e.getCode() != 404) {
                        throw e;
                    }
                }
            }
        }
    }

    private static boolean ownedBy(HasMetadata d, String uid) {
        return d.getMetadata().getOwnerReferences() != null
                && d.getMetadata().getOwnerReferences().stream().anyMatch(r -> uid.equals(r.getUid()));
    }
}
