package io.crater.sim.cluster;

import io.crater.kube.PodRequests;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The accelerators of every simulated node, each with a stable identity (index {@code 0..N-1} per node and resource,
 * a {@code GPU-<uuid>} derived from the node's name and the index, the model's name from the node's labels), and which
 * pod holds which: the device plugin's part of the kubelet. A pod is given the lowest free indexes of its node when it
 * starts and gives them back when it ends or is deleted. Kept in memory, like the rest of the simulator.
 */
final class GpuCards {

    /** One accelerator of a node. */
    record Card(String node, String resource, int index, String uuid, String modelName, long memoryMiB) {}

    /** What a pod holds: its node, the accelerator resource and the card indexes, lowest first. */
    record Held(String node, String resource, List<Integer> indexes) {}

    private final Set<String> acceleratorResources;
    /** Cards held by pods that run, by pod key ({@code namespace/name}). */
    private final Map<String, Held> held = new HashMap<>();
    /** The cards a pod held last, kept until the pod is deleted so its samples keep their cards' names. */
    private final Map<String, Held> last = new java.util.LinkedHashMap<>();
    /** At most this many pods' last cards are remembered once they ended (the oldest are forgotten first). */
    static final int REMEMBERED = 10_000;

    GpuCards(Set<String> acceleratorResources) {
        this.acceleratorResources = Set.copyOf(acceleratorResources);
    }

    /** The cards of a node, by its capacity of each accelerator resource and its labels. */
    List<Card> of(Node node) {
        List<Card> out = new ArrayList<>();
        Map<String, Quantity> capacity =
                node.getStatus() == null || node.getStatus().getCapacity() == null
                        ? Map.of()
                        : node.getStatus().getCapacity();
        Map<String, String> labels = node.getMetadata().getLabels() == null
                ? Map.of()
                : node.getMetadata().getLabels();
        String name = node.getMetadata().getName();
        for (String resource : new TreeSet<>(acceleratorResources)) {
            Quantity q = capacity.get(resource);
            int count = q == null ? 0 : q.getNumericalAmount().intValue();
            String model = SmiTables.cardName(resource, labels);
            long memory = SmiTables.memoryMiB(resource, labels);
            for (int i = 0; i < count; i++) {
                out.add(new Card(name, resource, i, uuid(name, resource, i), model, memory));
            }
        }
        return out;
    }

    /** A card's UUID as NVIDIA's driver prints it, {@code GPU-xxxxxxxx-…}, the same for the same node and index. */
    static String uuid(String node, String resource, int index) {
        String seed = node + "/" + resource + "/" + index;
        return "GPU-" + UUID.nameUUIDFromBytes(seed.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Gives a starting pod the lowest free cards of its node for the accelerators it requests (its effective
     * request); nothing when it requests none or already holds some. The scheduler never binds beyond a node's
     * capacity, so there are always enough.
     */
    synchronized void allocate(Pod pod, Node node) {
        String key = SimState.key(pod);
        if (held.containsKey(key) || node == null) {
            return;
        }
        Map<String, Long> requested = PodRequests.of(pod.getSpec());
        for (String resource : new TreeSet<>(acceleratorResources)) {
            int want = (int) (requested.getOrDefault(resource, 0L) / 1000);
            if (want == 0) {
                continue;
            }
            Set<Integer> taken = new TreeSet<>();
            held.values().stream()
                    .filter(h -> h.node().equals(node.getMetadata().getName())
                            && h.resource().equals(resource))
                    .forEach(h -> taken.addAll(h.indexes()));
            int count = (int)
                    of(node).stream().filter(c -> c.resource().equals(resource)).count();
            List<Integer> mine = new ArrayList<>();
            for (int i = 0; i < count && mine.size() < want; i++) {
                if (!taken.contains(i)) {
                    mine.add(i);
                }
            }
            Held h = new Held(node.getMetadata().getName(), resource, List.copyOf(mine));
            held.put(key, h);
            last.remove(key);
            last.put(key, h);
            if (last.size() > REMEMBERED) {
                last.keySet().stream()
                        .filter(k -> !held.containsKey(k))
                        .findFirst()
                        .ifPresent(last::remove);
            }
            return;
        }
    }

    /** Frees the cards of a pod that ended; its samples keep their names until {@link #forget}. */
    synchronized void release(String podKey) {
        held.remove(podKey);
    }

    /** Frees and forgets the cards of a pod whose samples are gone. */
    synchronized void forget(String podKey) {
        held.remove(podKey);
        last.remove(podKey);
    }

    /** The cards a running pod holds; null when it holds none. */
    synchronized Held heldBy(String podKey) {
        return held.get(podKey);
    }

    /** The cards a pod holds or held last before it ended (until it is deleted); null when none. */
    synchronized Held lastHeldBy(String podKey) {
        return last.get(podKey);
    }

    /** Who holds each card of a node now: pod key by (resource, index). */
    synchronized Map<String, String> holders(String node) {
        Map<String, String> out = new HashMap<>();
        held.forEach((pod, h) -> {
            if (h.node().equals(node)) {
                h.indexes().forEach(i -> out.put(h.resource() + "/" + i, pod));
            }
        });
        return out;
    }
}
