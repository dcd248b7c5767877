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
import java.util.HashMap;
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

    /** Admits pending PodGroups, oldest first, into their queue while its capability allows. */
    void enqueue() {
        List<PodGroup> waiting = new ArrayList<>(state.groups.getStore().list().stream()
                .filter(g -> g.getMetadata().getDeletionTimestamp() == null)
                .filter(g -> g.getStatus() == null
                        || g.getStatus().phase == null
                        || PodGroup.PENDING.equals(g.getStatus().phase))
                .filter(g -> !state.ledger.isEnqueued(SimState.key(g)))
                .toList());
        waiting.sort(Comparator.comparing((PodGroup g) -> g.getMetadata().getCreationTimestamp())
                .thenComparing(g -> g.getMetadata().getName()));
        for (PodGroup group : waiting) {
            String queueName = group.getSpec().queue == null ? "default" : group.getSpec().queue;
            VolcanoQueue queue = state.queues.getStore().getByKey(queueName);
            if (queue == null) {
                unschedulable(group, "NotEnqueued", "queue " + queueName + " does not exist");
                continue;
            }
            Map<String, Long> min = KubeQuantities.amountsOfStrings(group.getSpec().minResources);
            Map<String, Long> capability = KubeQuantities.amountsOfStrings(queue.getSpec().capability);
            Map<String, Long> used = state.ledger.queueUsage(queueName);
            String over = overCapability(min, used, capability);
            if (over != null) {
                unschedulable(
                        group,
                        "NotEnqueued",
                        "queue resource quota insufficient: " + over + " (queue " + queueName + ")");
                continue;
            }
            state.ledger.enqueue(queueName, SimState.key(group), min);
            PodGroup copy = Serialization.clone(group);
            copy.getStatus().phase = PodGroup.INQUEUE;
            copy.getStatus().conditions = null;
            update(client, copy);
        }
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

    /** Binds the pods of admitted PodGroups: the whole gang or nothing. */
    void allocate() {
        List<Node> nodes = state.nodes.getStore().list();
        List<PodGroup> groups = new ArrayList<>(state.groups.getStore().list().stream()
                .filter(g -> state.ledger.isEnqueued(SimState.key(g)))
                .toList());
        groups.sort(Comparator.comparing((PodGroup g) -> g.getMetadata().getCreationTimestamp())
                .thenComparing(g -> g.getMetadata().getName()));
        if (groups.isEmpty()) {
            return;
        }
        // The pods of each group, found in one pass over the pods (not one per group).
        Map<String, List<Pod>> byGroup = new HashMap<>();
        for (Pod p : state.pods.getStore().list()) {
            String group = annotation(p, "scheduling.k8s.io/group-name");
            if (group != null) {
                byGroup.computeIfAbsent(p.getMetadata().getNamespace() + "/" + group, g -> new ArrayList<>())
                        .add(p);
            }
        }
        for (PodGroup group : groups) {
            List<Pod> members = byGroup.getOrDefault(SimState.key(group), List.of());
            List<Pod> unbound = members.stream()
                    .filter(p -> p.getSpec().getNodeName() == null
                            && !state.ledger.isBound(SimState.key(p))
                            && !SimState.terminal(p))
                    .toList();
            if (unbound.isEmpty() || members.size() < group.getSpec().minMember) {
                continue;
            }
            GangFit.Result placement = GangFit.place(nodes, state.ledger.usedByNode(), unbound);
            if (!placement.placed()) {
                unschedulable(
                        group,
                        "Unschedulable",
                        unbound.size() + "/" + members.size() + " tasks in gang unschedulable: " + placement.failure());
                continue;
            }
            for (Pod pod : unbound) {
                String node = placement.assignments().get(pod.getMetadata().getName());
                state.ledger.bind(SimState.key(pod), node, PodRequests.of(pod.getSpec()));
                bind(pod, node);
            }
        }
    }

    private void bind(Pod pod, String node) {
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
            events.record(
                    pod,
                    "Normal",
                    "Scheduled",
                    "Successfully assigned " + pod.getMetadata().getNamespace() + "/"
                            + pod.getMetadata().getName() + " to " + node,
                    COMPONENT);
        } catch (KubernetesClientException e) {
            state.ledger.release(SimState.key(pod));
            if (e.getCode() != 404) {
                throw e;
            }
        }
    }

    private void unschedulable(PodGroup group, String conditionReason, String message) {
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
        update(client, copy);
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

    private static String annotation(Pod p, String key) {
        return p.getMetadata().getAnnotations() == null
                ? null
                : p.getMetadata().getAnnotations().get(key);
    }
}
