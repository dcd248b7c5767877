package io.crater.cluster;

import io.crater.identity.Caller;
import io.crater.kube.PodRequests;
import io.crater.platform.ApiException;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jboss.logging.Logger;

/**
 * One node for platform admins (docs/nodes.md, node detail): the node as the informers hold it, its pods and the
 * Crater jobs they belong to (named through the jobs feature), and the cluster's events about it, read when asked.
 */
@ApplicationScoped
public class NodeDetailService {

    private static final Logger LOG = Logger.getLogger(NodeDetailService.class);

    /** The newest events shown: a node flapping for weeks has thousands. */
    static final int MOST_EVENTS = 100;

    @Inject
    KubernetesClient client;

    @Inject
    ClusterCache cache;

    @Inject
    NodeViews views;

    @Inject
    NodeJobDirectory jobs;

    @Inject
    Vertx vertx;

    /** The events read, or why they could not be. */
    private record Events(List<NodeDetailViews.NodeKubeEvent> items, String unavailable) {}

    public Uni<NodeDetailViews.NodeDetail> detail(String name, Caller caller) {
        if (!caller.platformAdmin()) {
            throw ApiException.forbidden("NotPlatformAdmin", "only platform administrators see a node's detail");
        }
        Node node = cache.node(name);
        if (node == null) {
            throw ApiException.notFound("no node named " + name);
        }
        ClusterViews.NodeView view = views.of(node, cache.allocated(name), cache.podCount(name));
        String resource = view.accelerator() == null ? null : view.accelerator().resource();
        List<NodeDetailViews.PodOnNode> pods = cache.podsOn(name).stream()
                .map(p -> pod(p, resource))
                .sorted(Comparator.comparing(NodeDetailViews.PodOnNode::namespace)
                        .thenComparing(NodeDetailViews.PodOnNode::name))
                .toList();
        Map<String, Integer> podsPerJob = new LinkedHashMap<>();
        pods.stream().filter(p -> p.job() != null).forEach(p -> podsPerJob.merge(p.job(), 1, Integer::sum));
        return vertx.executeBlocking(Uni.createFrom().item(() -> events(name)))
                .flatMap(events -> jobs.named(podsPerJob.keySet())
                        .map(named -> new NodeDetailViews.NodeDetail(
                                view,
                                conditions(node),
                                pods,
                                named.stream()
                                        .map(j -> new NodeDetailViews.JobOnNode(
                                                j.id(),
                                                j.name(),
                                                j.state(),
                                                j.owner(),
                                                j.account(),
                                                podsPerJob.get(j.id())))
                                        .sorted(Comparator.comparing(NodeDetailViews.JobOnNode::id))
                                        .toList(),
                                events.items(),
                                events.unavailable())));
    }

    static List<NodeDetailViews.Condition> conditions(Node node) {
        if (node.getStatus() == null || node.getStatus().getConditions() == null) {
            return List.of();
        }
        return node.getStatus().getConditions().stream()
                .map(c -> new NodeDetailViews.Condition(
                        c.getType(), c.getStatus(), c.getReason(), c.getMessage(), c.getLastTransitionTime()))
                .toList();
    }

    static NodeDetailViews.PodOnNode pod(Pod p, String acceleratorResource) {
        Map<String, Long> requests = PodRequests.of(p.getSpec());
        Map<String, String> labels = Objects.requireNonNullElse(p.getMetadata().getLabels(), Map.of());
        return new NodeDetailViews.PodOnNode(
                p.getMetadata().getNamespace(),
                p.getMetadata().getName(),
                p.getStatus() == null ? null : p.getStatus().getPhase(),
                labels.get("crater.io/job-id"),
                requests.getOrDefault("cpu", 0L),
                requests.getOrDefault("memory", 0L) / 1000,
                acceleratorResource == null ? 0 : requests.getOrDefault(acceleratorResource, 0L) / 1000,
                p.getMetadata().getCreationTimestamp());
    }

    /** Blocking: the events whose object is the node, in every namespace, newest first. */
    private Events events(String name) {
        try {
            List<Event> found = client.v1()
                    .events()
                    .inAnyNamespace()
                    .withField("involvedObject.kind", "Node")
                    .withField("involvedObject.name", name)
                    .list()
                    .getItems();
            List<NodeDetailViews.NodeKubeEvent> out = new ArrayList<>();
            for (Event e : found) {
                out.add(event(e));
            }
            out.sort(Comparator.comparing(
                            NodeDetailViews.NodeKubeEvent::lastSeen, Comparator.nullsFirst(Comparator.naturalOrder()))
                    .reversed());
            return new Events(List.copyOf(out.subList(0, Math.min(out.size(), MOST_EVENTS))), null);
        } catch (KubernetesClientException e) {
            LOG.debugf(e, "listing the events of node %s failed", name);
            return new Events(List.of(), "the cluster's events could not be read: " + e.getMessage());
        }
    }

    static NodeDetailViews.NodeKubeEvent event(Event e) {
        String last = e.getLastTimestamp() != null
                ? e.getLastTimestamp()
                : e.getEventTime() != null ? e.getEventTime().getTime() : e.getFirstTimestamp();
        String source = e.getSource() == null ? null : e.getSource().getComponent();
        if (source == null) {
            source = e.getReportingComponent();
        }
        return new NodeDetailViews.NodeKubeEvent(
                e.getType(), e.getReason(), e.getMessage(), e.getCount() == null ? 1 : e.getCount(), last, source);
    }
}
