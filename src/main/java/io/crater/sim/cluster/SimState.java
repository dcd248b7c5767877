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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The informer caches the simulated controllers read, the scheduler's ledger, and what changed since the controllers
 * last looked: each controller works on the objects its watch events name (and its own timers), never on a scan of
 * every object, so a tick costs what changed, not what exists (thousands of finished jobs wait for their TTL).
 */
final class SimState {

    SharedIndexInformer<Node> nodes;
    SharedIndexInformer<VolcanoQueue> queues;
    SharedIndexInformer<Pod> pods;
    SharedIndexInformer<PodGroup> groups;
    SharedIndexInformer<VolcanoJob> jobs;
    final SimLedger ledger = new SimLedger();

    /** Volcano Jobs (namespace/name) whose job, PodGroup or pods changed since the job controller last looked. */
    final Set<String> changedJobs = ConcurrentHashMap.newKeySet();
    /** PodGroups that may be waiting for their queue: the scheduler's enqueue step looks at these only. */
    final Set<String> pendingGroups = ConcurrentHashMap.newKeySet();
    /** PodGroups with pods that may not be bound yet: the scheduler's allocate step looks at these only. */
    final Set<String> unplacedGroups = ConcurrentHashMap.newKeySet();
    /** Pods bound to a node that have not ended: the kubelet's pods. */
    final Set<String> onNodes = ConcurrentHashMap.newKeySet();

    /** The pods informer's index of pods by their PodGroup (namespace/group), as the scheduler finds a gang. */
    static final String BY_GROUP = "pod-group";

    static final String GROUP_ANNOTATION = "scheduling.k8s.io/group-name";

    /** A pod's PodGroup key, for {@link #BY_GROUP}. */
    static List<String> groupOf(Pod pod) {
        String group = pod.getMetadata().getAnnotations() == null
                ? null
                : pod.getMetadata().getAnnotations().get(GROUP_ANNOTATION);
        return group == null ? List.of() : List.of(pod.getMetadata().getNamespace() + "/" + group);
    }

    /** Notes what an object's watch event changes for the controllers (the informers' handlers call it). */
    void seen(HasMetadata obj, boolean deleted) {
        if (obj instanceof VolcanoJob job) {
            changedJobs.add(key(job));
        } else if (obj instanceof PodGroup group) {
            seenGroup(group, deleted);
        } else if (obj instanceof Pod pod) {
            seenPod(pod, deleted);
        }
    }

    private void seenGroup(PodGroup group, boolean deleted) {
        String key = key(group);
        ownerJob(group).ifPresent(changedJobs::add);
        String phase = group.getStatus() == null ? null : group.getStatus().phase;
        if (deleted || group.getMetadata().getDeletionTimestamp() != null) {
            pendingGroups.remove(key);
            unplacedGroups.remove(key);
        } else if (phase == null || PodGroup.PENDING.equals(phase)) {
            pendingGroups.add(key);
        } else if (PodGroup.INQUEUE.equals(phase)) {
            unplacedGroups.add(key);
        }
    }

    private void seenPod(Pod pod, boolean deleted) {
        String key = key(pod);
        String job = pod.getMetadata().getLabels() == null
                ? null
                : pod.getMetadata().getLabels().get("volcano.sh/job-name");
        if (job != null) {
            changedJobs.add(pod.getMetadata().getNamespace() + "/" + job);
        }
        boolean live = !deleted && pod.getMetadata().getDeletionTimestamp() == null && !terminal(pod);
        if (live && pod.getSpec().getNodeName() != null) {
            onNodes.add(key);
        } else {
            onNodes.remove(key);
        }
        if (live && pod.getSpec().getNodeName() == null) {
            groupOf(pod).forEach(unplacedGroups::add);
        }
    }

    /** The key of the Volcano Job that controls an object, if one does. */
    static java.util.Optional<String> ownerJob(HasMetadata obj) {
        if (obj.getMetadata().getOwnerReferences() == null) {
            return java.util.Optional.empty();
        }
        return obj.getMetadata().getOwnerReferences().stream()
                .filter(r -> "Job".equals(r.getKind())
                        && r.getApiVersion() != null
                        && r.getApiVersion().startsWith("batch.volcano.sh/"))
                .map(r -> obj.getMetadata().getNamespace() + "/" + r.getName())
                .findFirst();
    }

    /** Takes every key out of a set of changes, for one pass of a controller. */
    static Set<String> drain(Set<String> changes) {
        Set<String> out = new java.util.HashSet<>();
        for (java.util.Iterator<String> it = changes.iterator(); it.hasNext(); ) {
            out.add(it.next());
            it.remove();
        }
        return out;
    }

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
