package io.crater.sim.cluster;

import io.crater.kube.KubeQuantities;
import io.crater.kube.PodRequests;
import io.crater.volcano.PodGroup;
import io.crater.volcano.VolcanoJob;
import io.crater.volcano.VolcanoQueue;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.List;

/** The informer caches the simulated controllers read, and the scheduler's ledger. */
final class SimState {

    SharedIndexInformer<Node> nodes;
    SharedIndexInformer<VolcanoQueue> queues;
    SharedIndexInformer<Pod> pods;
    SharedIndexInformer<PodGroup> groups;
    SharedIndexInformer<VolcanoJob> jobs;
    final SimLedger ledger = new SimLedger();

    static String key(HasMetadata o) {
        return o.getMetadata().getNamespace() == null
                ? o.getMetadata().getName()
                : o.getMetadata().getNamespace() + "/" + o.getMetadata().getName();
    }

    static boolean terminal(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }

    /** The pods informer's index of pods by the uids of their owners. */
    static final String BY_OWNER = "owner-uid";

    /** Owner uids of a pod, for {@link #BY_OWNER}. */
    static List<String> ownerUids(Pod pod) {
        return pod.getMetadata().getOwnerReferences() == null
                ? List.of()
                : pod.getMetadata().getOwnerReferences().stream()
                        .map(r -> r.getUid())
                        .filter(java.util.Objects::nonNull)
                        .toList();
    }

    /** Pods owned by the given object. */
    List<Pod> podsOf(HasMetadata owner) {
        String uid = owner.getMetadata().getUid();
        return pods.getIndexer().byIndex(BY_OWNER, uid).stream()
                .filter(p -> p.getMetadata()
                        .getNamespace()
                        .equals(owner.getMetadata().getNamespace()))
                .filter(p -> p.getMetadata().getOwnerReferences() != null
                        && p.getMetadata().getOwnerReferences().stream().anyMatch(r -> uid.equals(r.getUid())))
                .toList();
    }

    /** Restores the ledger from the cluster at start: bound pods that still run, admitted PodGroups. */
    void rebuildLedger() {
        for (Pod pod : pods.getStore().list()) {
            if (pod.getSpec().getNodeName() != null && !terminal(pod)) {
                ledger.bind(key(pod), pod.getSpec().getNodeName(), PodRequests.of(pod.getSpec()));
            }
        }
        for (PodGroup g : groups.getStore().list()) {
            String phase = g.getStatus() == null ? null : g.getStatus().phase;
            if (PodGroup.INQUEUE.equals(phase) || PodGroup.RUNNING.equals(phase)) {
                ledger.enqueue(g.getSpec().queue, key(g), KubeQuantities.amountsOfStrings(g.getSpec().minResources));
            }
        }
    }
}
