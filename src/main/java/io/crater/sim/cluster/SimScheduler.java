package io.crater.sim.cluster;

import io.crater.kube.KubeQuantities;
import io.crater.kube.PodRequests;
import io.crater.volcano.PodGroup;
import io.crater.volcano.VolcanoQueue;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Volcano's scheduler for the simulated cluster: {@code enqueue} admits PodGroups into their Volcano Queue
 * while the queue's capability allows, {@code allocate} binds a group's pods all together or not at all
 * (gang), each to a node where its effective request fits. What does not fit gets an {@code Unschedulable}
 * event with the numbers.
 */
final class SimScheduler {

    private static final String COMPONENT = "volcano";

    private final KubernetesClient client;
    private final SimState state;
    private final SimEvents events;

    SimScheduler(KubernetesClient client, SimState state, SimEvents events) {
        this.client = client;
        this.state = state;
        this.events = events;
    }

    /** The PodGroups named in a set of changes that are still there, oldest first; the others leave the set. */
    private List<PodGroup> oldestFirst(java.util.Set<String> keys, java.util.function.Predicate<PodGroup> wanted) {
        List<PodGroup> out = new ArrayList<>();
        for (String key : List.copyOf(keys)) {
            PodGroup g = state.groups.getStore().getByKey(key);
            if (g == null || g.getMetadata().getDeletionTimestamp() != null || !wanted.test(g)) {
                keys.remove(key);
            } else {
                out.add(g);
            }
        }
        out.sort(Comparator.comparing((PodGroup g) -> g.getMetadata().getCreationTimestamp())
                .thenComparing(g -> g.getMetadata().getName()));
        return out;
    }

    /**
     * Admits pending PodGroups, oldest first, into their queue while its capability allows; returns the keys of the
     * Volcano Jobs whose groups it admitted (their pods are due).
     */
    List<String> enqueue() {
        List<String> admitted = new ArrayList<>();
        SimWrites writes = new SimWrites();
        for (PodGroup group : oldestFirst(
                state.pendingGroups,
                g -> (g.getStatus() == null
                                || g.getStatus().phase == null
                                || PodGroup.PENDING.equals(g.getStatus().phase))
                        && !state.ledger.isEnqueued(SimState.key(g)))) {
            String queueName = group.getSpec().queue == null ? "default" : group.getSpec().queue;
            VolcanoQueue queue = state.queues.getStore().getByKey(queueName);
            if (queue == null) {
                unschedulable(writes, group, "NotEnqueued", "queue " + queueName + " does not exist");
                continue;
            }
            Map<String, Long> min = KubeQuantities.amountsOfStrings(group.getSpec().minResources);
            Map<String, Long> capability = KubeQuantities.amountsOfStrings(queue.getSpec().capability);
            Map<String, Long> used = state.ledger.queueUsage(queueName);
            String over = overCapability(min, used, capability);
            if (over != null) {
                unschedulable(
                        writes,
                        group,
                        "NotEnqueued",
                        "queue resource quota insufficient: " + over + " (queue " + queueName + ")");
                continue;
            }
            String key = SimState.key(group);
            state.ledger.enqueue(queueName, key, min);
            state.pendingGroups.remove(key);
            state.unplacedGroups.add(key);
            SimState.ownerJob(group).ifPresent(admitted::add);
            PodGroup copy = Serialization.clone(group);
            copy.getStatus().phase = PodGroup.INQUEUE;
            copy.getStatus().conditions = null;
            writes.add(() -> update(client, copy));
        }
        writes.flush();
        return admitted;
    }

    /** The first resource whose capability the group would exceed, with the numbers, or null. */
    private static String overCapability(Map<String, Long> min, Map<String, Long> used, Map<String, Long> capability) {
        for (Map.Entry<String, Long> cap : capability.entrySet()) {
            long want = min.getOrDefault(cap.getKey(), 0L);
            long inUse = used.getOrDefault(cap.getKey(), 0L);
            if (want > 0 && inUse + want > cap.getValue()) {
                return cap.getKey() + " requested " + KubeQuantities.format(want) + ", in use "
                        + KubeQuantities.format(inUse) + ", capability "
                        + KubeQuantities.format(cap.getValue());
            }
        }
        return null;
    }

    /** Binds the pods of admitted PodGroups that have pods to place: the whole gang or nothing. */
    void allocate() {
        List<PodGroup> groups = oldestFirst(state.unplacedGroups, g -> state.ledger.isEnqueued(SimState.key(g)));
        if (groups.isEmpty()) {
            return;
        }
        List<Node> nodes = state.nodes.getStore().list();
        SimWrites writes = new SimWrites();
        for (PodGroup group : groups) {
            String key = SimState.key(group);
            List<Pod> members = state.pods.getIndexer().byIndex(SimState.BY_GROUP, key);
            List<Pod> unbound = members.stream()
                    .filter(p -> p.getSpec().getNodeName() == null
                            && !state.ledger.isBound(SimState.key(p))
                            && !SimState.terminal(p))
                    .toList();
            if (unbound.isEmpty() && members.size() >= group.getSpec().minMember) {
                state.unplacedGroups.remove(key);
                continue;
            }
            if (unbound.isEmpty() || members.size() < group.getSpec().minMember) {
                continue; // its pods are still being created
            }
            GangFit.Result placement = GangFit.place(nodes, state.ledger.usedByNode(), unbound);
            if (!placement.placed()) {
                unschedulable(
                        writes,
                        group,
                        "Unschedulable",
                        unbound.size() + "/" + members.size() + " tasks in gang unschedulable: " + placement.failure());
                continue;
            }
            state.unplacedGroups.remove(key);
            for (Pod pod : unbound) {
                String node = placement.assignments().get(pod.getMetadata().getName());
                state.ledger.bind(SimState.key(pod), node, PodRequests.of(pod.getSpec()));
                writes.add(() -> bind(pod, node), () -> scheduled(pod, node), () -> {
                    state.ledger.release(SimState.key(pod));
                    state.unplacedGroups.add(key);
                });
            }
        }
        writes.flush();
    }

    private boolean bind(Pod pod, String node) {
        try {
            client.bindings()
                    .inNamespace(pod.getMetadata().getNamespace())
                    .resource(new BindingBuilder()
                            .withNewMetadata()
                            .withName(pod.getMetadata().getName())
                            .endMetadata()
                            .withNewTarget()
                            .withApiVersion("v1")
                            .withKind("Node")
                            .withName(node)
                            .endTarget()
                            .build())
                    .create();
            return true;
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) {
                throw e;
            }
            return false;
        }
    }

    private void scheduled(Pod pod, String node) {
        events.record(
                pod,
                "Normal",
                "Scheduled",
                "Successfully assigned " + pod.getMetadata().getNamespace() + "/"
                        + pod.getMetadata().getName() + " to " + node,
                COMPONENT);
    }

    private void unschedulable(SimWrites writes, PodGroup group, String conditionReason, String message) {
        events.record(group, "Warning", "Unschedulable", message, COMPONENT);
        PodGroup.Condition current = group.getStatus() == null
                        || group.getStatus().conditions == null
                        || group.getStatus().conditions.isEmpty()
                ? null
                : group.getStatus().conditions.get(0);
        if (current != null && message.equals(current.message)) {
            return;
        }
        PodGroup copy = Serialization.clone(group);
        PodGroup.Condition c = new PodGroup.Condition();
        c.type = "Unschedulable";
        c.status = "True";
        c.reason = conditionReason;
        c.message = message;
        c.lastTransitionTime =
                events.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
        copy.getStatus().conditions = List.of(c);
        writes.add(() -> update(client, copy));
    }

    static void update(KubernetesClient client, PodGroup group) {
        try {
            client.resources(PodGroup.class)
                    .inNamespace(group.getMetadata().getNamespace())
                    .resource(group)
                    .update();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409 && e.getCode() != 404) {
                throw e;
            }
        }
    }
}
