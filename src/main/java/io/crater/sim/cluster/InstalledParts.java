package io.crater.sim.cluster;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.storage.StorageClassBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Map;

/**
 * What an installation of the simulated cluster has beside Volcano's CRDs and the nodes, as a cluster prepared for
 * Crater would: Volcano's scheduler ConfigMap with the configuration the simulated scheduler plays, and per job
 * namespace the shared claims (ReadWriteMany, Bound, of the storage class {@value #STORAGE_CLASS}) that the simulated
 * kubelet backs with host folders.
 */
final class InstalledParts {

    static final String STORAGE_CLASS = "crater-sim-shared";

    /** The simulated scheduler's configuration, as Volcano's scheduler reads it (docs/simulator.md). */
    static final String SCHEDULER_CONF = """
            actions: "enqueue, allocate, backfill"
            tiers:
            - plugins:
              - name: priority
              - name: gang
            - plugins:
              - name: predicates
              - name: capacity
              - name: nodeorder
              - name: binpack
            """;

    private InstalledParts() {}

    static void install(KubernetesClient client, List<String> namespaces, Map<String, java.nio.file.Path> claims) {
        schedulerConfig(client);
        if (!claims.isEmpty()) {
            sharedClaims(client, namespaces, claims);
        }
    }

    private static void schedulerConfig(KubernetesClient client) {
        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName("volcano-system")
                        .endMetadata()
                        .build())
                .createOr(c -> c.update());
        client.configMaps()
                .inNamespace("volcano-system")
                .resource(new ConfigMapBuilder()
                        .withNewMetadata()
                        .withName("volcano-scheduler-configmap")
                        .endMetadata()
                        .withData(Map.of("volcano-scheduler.conf", SCHEDULER_CONF))
                        .build())
                .createOr(c -> c.update());
    }

    private static void sharedClaims(
            KubernetesClient client, List<String> namespaces, Map<String, java.nio.file.Path> claims) {
        client.storage()
                .v1()
                .storageClasses()
                .resource(new StorageClassBuilder()
                        .withNewMetadata()
                        .withName(STORAGE_CLASS)
                        .endMetadata()
                        .withProvisioner("crater.io/simulated-host-folder")
                        .build())
                .createOr(c -> c.update());
        for (String ns : namespaces) {
            for (String claim : claims.keySet()) {
                PersistentVolumeClaim pvc = new PersistentVolumeClaimBuilder()
                        .withNewMetadata()
                        .withName(claim)
                        .withNamespace(ns)
                        .endMetadata()
                        .withNewSpec()
                        .withAccessModes("ReadWriteMany")
                        .withStorageClassName(STORAGE_CLASS)
                        .withNewResources()
                        .withRequests(Map.of("storage", new Quantity("1Ti")))
                        .endResources()
                        .endSpec()
                        .build();
                PersistentVolumeClaim stored = client.persistentVolumeClaims()
                        .inNamespace(ns)
                        .resource(pvc)
                        .createOr(c -> c.update());
                stored.setStatus(new io.fabric8.kubernetes.api.model.PersistentVolumeClaimStatusBuilder()
                        .withPhase("Bound")
                        .withAccessModes("ReadWriteMany")
                        .withCapacity(Map.of("storage", new Quantity("1Ti")))
                        .build());
                client.persistentVolumeClaims().inNamespace(ns).resource(stored).updateStatus();
            }
        }
    }
}
