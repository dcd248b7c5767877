package io.crater.cluster;

import io.crater.kube.KubeQuantities;
import io.crater.kube.PodRequests;
import io.crater.policy.Resources;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Crater's informer-fed view of nodes and pods: what every node offers and what bound pods request of it.
 * Changes are coalesced per node and written to the event log ({@link NodeEvents}).
 */
@ApplicationScoped
public class ClusterCache {

    private static final Logger LOG = Logger.getLogger(ClusterCache.class);
    private static final String BY_JOB = "crater.io/job-id";
    private static final String BY_NODE = "spec.nodeName";

    @Inject
    KubernetesClient client;

    @Inject
    NodeEvents nodeEvents;

    @Inject
    NodeViews views;

    private SharedIndexInformer<Node> nodes;
    private SharedIndexInformer<Pod> pods;
    private final Map<String, Map<String, Resources>> boundByNode = new ConcurrentHashMap<>();
    private final Map<String, String> boundPodJob = new ConcurrentHashMap<>();
    private final Set<String> dirty = ConcurrentHashMap.newKeySet();
    private final Set<String> deleted = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService flusher = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "crater-cluster-events");
        t.setDaemon(true);
        return t;
    });

    void onStart(@Observes @Priority(40) StartupEvent event) {
        pods = client.pods().inAnyNamespace().runnableInformer(0);
        pods.addIndexers(Map.of(
                BY_JOB,
                pod -> {
                    String job = pod.getMetadata().getLabels() == null
                            ? null
                            : pod.getMetadata().getLabels().get("crater.io/job-id");
                    return job == null ? List.of() : List.of(job);
                },
                BY_NODE,
                pod -> pod.getSpec() == null || pod.getSpec().getNodeName() == null
                        ? List.of()
                        : List.of(pod.getSpec().getNodeName())));
        pods.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Pod pod) {
                track(pod);
            }

            @Override
            public void onUpdate(Pod old, Pod pod) {
                if (old.getSpec().getNodeName() != null
                        && !old.getSpec().getNodeName().equals(pod.getSpec().getNodeName())) {
                    untrack(old);
                }
                track(pod);
            }

            @Override
            public void onDelete(Pod pod, boolean unknownFinalState) {
                untrack(pod);
            }
        });
        nodes = client.nodes().runnableInformer(0);
        nodes.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Node node) {
                dirty.add(node.getMetadata().getName());
                changes.incrementAndGet();
            }

            @Override
            public void onUpdate(Node old, Node node) {
                dirty.add(node.getMetadata().getName());
                changes.incrementAndGet();
            }

            @Override
            public void onDelete(Node node, boolean unknownFinalState) {
                deleted.add(node.getMetadata().getName());
                changes.incrementAndGet();
            }
        });
        pods.start();
        nodes.start();
        flusher.scheduleWithFixedDelay(this::flush, 250, 250, TimeUnit.MILLISECONDS);
    }

    void onStop(@Observes ShutdownEvent event) {
        flusher.shutdownNow();
        if (nodes != null) {
            nodes.close();
        }
        if (pods != null) {
            pods.close();
        }
    }

    private void track(Pod pod) {
        String node = pod.getSpec().getNodeName();
        if (node == null) {
            return;
        }
        String key = pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        Map<String, Resources> onNode = boundByNode.computeIfAbsent(node, n -> new ConcurrentHashMap<>());
        String job = pod.getMetadata().getLabels() == null
                ? null
                : pod.getMetadata().getLabels().get("crater.io/job-id");
        if (job != null && !"Succeeded".equals(phase) && !"Failed".equals(phase)) {
            boundPodJob.put(key, job);
        } else {
            boundPodJob.remove(key);
        }
        if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
            if (onNode.remove(key) != null) {
                allocationChanged(node);
            }
        } else {
            Resources request = new Resources(PodRequests.of(pod.getSpec()));
            if (!request.equals(onNode.put(key, request))) {
                allocationChanged(node);
            }
        }
    }

    /** After what the pods bound to {@code node} request changed: its event is due, and capacities are made again. */
    private void allocationChanged(String node) {
        dirty.add(node);
        changes.incrementAndGet();
    }

    private void untrack(Pod pod) {
        boundPodJob.remove(
                pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName());
        String node = pod.getSpec().getNodeName();
        if (node != null
                && boundByNode
                                .getOrDefault(node, Map.of())
                                .remove(pod.getMetadata().getNamespace() + "/"
                                        + pod.getMetadata().getName())
                        != null) {
            allocationChanged(node);
        }
    }

    private void flush() {
        List<ClusterViews.NodeEvent> changes = new ArrayList<>();
        for (String name : List.copyOf(deleted)) {
            deleted.remove(name);
            dirty.remove(name);
            changes.add(new ClusterViews.NodeEvent(
                    "deleted",
                    new ClusterViews.NodeView(
                            name, false, false, null, null, null, 0, Map.of(), List.of(), List.of(), null, null,
                            null)));
        }
        for (String name : List.copyOf(dirty)) {
            dirty.remove(name);
            Node node = nodes.getStore().getByKey(name);
            if (node != null) {
                changes.add(new ClusterViews.NodeEvent("updated", views.of(node, allocated(name), podCount(name))));
            }
        }
        try {
            nodeEvents.write(changes);
        } catch (Throwable e) {
            LOG.warnf("writing node events failed (%s); they are written again", e.getMessage());
            changes.forEach(c ->
                    (c.type().equals("deleted") ? deleted : dirty).add(c.node().name()));
        }
    }

    /** True once both informers have listed what the cluster holds. */
    public boolean synced() {
        return nodes != null && pods != null && nodes.hasSynced() && pods.hasSynced();
    }

    /** True while both informers hold an open watch. */
    public boolean watching() {
        return nodes != null && pods != null && nodes.isWatching() && pods.isWatching();
    }

    public List<Node> nodes() {
        return nodes == null ? List.of() : nodes.getStore().list();
    }

    /** Requests of the non-terminal pods bound to a node. */
    public Resources allocated(String node) {
        Resources sum = Resources.NONE;
        for (Resources r : boundByNode.getOrDefault(node, Map.of()).values()) {
            sum = sum.plus(r);
        }
        return sum;
    }

    /** Ids of the Crater jobs that have pods bound to nodes and not finished. */
    public java.util.Set<String> jobsWithBoundPods() {
        return java.util.Set.copyOf(boundPodJob.values());
    }

    /**
     * Counts the changes of nodes and of what bound pods request, each counted after it is made: capacities made at
     * one count are good until the next.
     */
    private final java.util.concurrent.atomic.AtomicLong changes = new java.util.concurrent.atomic.AtomicLong();

    /** The capacities last made, with the count of changes read before they were made. */
    private record Made(long at, List<io.crater.policy.NodeCapacity> capacities) {}

    private volatile Made made = new Made(-1, List.of());

    /**
     * Nodes as placement sees them: allocatable, labels, what bound pods use, whether pods may go there. Every
     * submission's preflight asks; they are made again only after a node or a bound pod changed.
     */
    public List<io.crater.policy.NodeCapacity> capacities() {
        long at = changes.get();
        Made last = made;
        if (last.at() == at && synced()) {
            return last.capacities();
        }
        List<io.crater.policy.NodeCapacity> fresh = makeCapacities();
        made = new Made(at, fresh);
        return fresh;
    }

    private List<io.crater.policy.NodeCapacity> makeCapacities() {
        return nodes().stream()
                .map(n -> new io.crater.policy.NodeCapacity(
                        n.getMetadata().getName(),
                        n.getMetadata().getLabels() == null
                                ? Map.of()
                                : n.getMetadata().getLabels(),
                        new Resources(KubeQuantities.amounts(
                                n.getStatus() == null ? null : n.getStatus().getAllocatable())),
                        allocated(n.getMetadata().getName()),
                        NodeViews.ready(n)
                                && !Boolean.TRUE.equals(
                                        n.getSpec() == null ? null : n.getSpec().getUnschedulable()),
                        taints(n)))
                .toList();
    }

    /** The node's taints as placement reads them; the cordon's own is left to {@code schedulable}. */
    private static List<io.crater.policy.Taints.Taint> taints(Node n) {
        if (n.getSpec() == null || n.getSpec().getTaints() == null) {
            return List.of();
        }
        return n.getSpec().getTaints().stream()
                .filter(t -> !"node.kubernetes.io/unschedulable".equals(t.getKey()))
                .map(t -> new io.crater.policy.Taints.Taint(t.getKey(), t.getValue(), t.getEffect()))
                .toList();
    }

    /** The pods the informer holds bound to a node, in every namespace. */
    public List<Pod> podsOn(String node) {
        return pods == null ? List.of() : pods.getIndexer().byIndex(BY_NODE, node);
    }

    /** A node as the informer holds it, or null. */
    public Node node(String name) {
        return nodes == null ? null : nodes.getStore().getByKey(name);
    }

    /** The cordoned nodes as placement sees them, with the reason and who cordoned each (docs/nodes.md). */
    public List<io.crater.policy.NodeCordons.Cordoned> cordoned() {
        List<io.crater.policy.NodeCapacity> caps = capacities();
        List<io.crater.policy.NodeCordons.Cordoned> out = new java.util.ArrayList<>();
        for (Node n : nodes()) {
            if (n.getSpec() == null || !Boolean.TRUE.equals(n.getSpec().getUnschedulable())) {
                continue;
            }
            Map<String, String> ann = Objects.requireNonNullElse(n.getMetadata().getAnnotations(), Map.of());
            caps.stream()
                    .filter(c -> c.name().equals(n.getMetadata().getName()))
                    .findFirst()
                    .ifPresent(c -> out.add(new io.crater.policy.NodeCordons.Cordoned(
                            c, ann.getOrDefault(NodeCordon.REASON, ""), ann.getOrDefault(NodeCordon.BY, ""))));
        }
        return out;
    }

    /** The pods of a Crater job as the informer holds them (empty before the first sync or once deleted). */
    public List<Pod> podsOfJob(String publicId) {
        return pods == null ? List.of() : pods.getIndexer().byIndex(BY_JOB, publicId);
    }

    /** What the job's bound, unfinished pods request of each node. */
    public Map<String, Resources> boundRequests(String publicId) {
        Map<String, Resources> out = new java.util.HashMap<>();
        for (Pod p : podsOfJob(publicId)) {
            String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
            if (p.getSpec().getNodeName() != null && !"Succeeded".equals(phase) && !"Failed".equals(phase)) {
                out.merge(p.getSpec().getNodeName(), new Resources(PodRequests.of(p.getSpec())), Resources::plus);
            }
        }
        return out;
    }

    public int podCount(String node) {
        return boundByNode.getOrDefault(node, Map.of()).size();
    }
}
