package io.crater.interactive;

import io.crater.cluster.ClusterCache;
import io.crater.cluster.ClusterConfig;
import io.crater.job.PodAccess;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.LocalPortForward;
import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.core.net.SocketAddress;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where the app proxy connects for a pod's port. Through {@code pods/portforward} (a forward from a loopback port
 * of Crater's, kept per pod and port while the pod exists), or to the pod's IP directly in a real cluster, where
 * Crater's NetworkPolicy lets only Crater in.
 */
@ApplicationScoped
public class PodConnector {

    @Inject
    AppConfig config;

    @Inject
    ClusterConfig cluster;

    @Inject
    ClusterCache cache;

    @Inject
    KubernetesClient client;

    private final Map<String, LocalPortForward> forwards = new ConcurrentHashMap<>();

    boolean portForward() {
        return switch (config.transport()) {
            case "port-forward" -> true;
            case "direct" -> false;
            default -> "simulated".equals(cluster.mode());
        };
    }

    /** The address to connect to for {@code port} of the target's pod. */
    public Uni<SocketAddress> address(PodAccess.Target target, int port) {
        if (!portForward()) {
            String ip = cache.podsOfJob(target.job()).stream()
                    .filter(p -> p.getMetadata().getName().equals(target.pod()))
                    .map(p -> p.getStatus() == null ? null : p.getStatus().getPodIP())
                    .filter(java.util.Objects::nonNull)
                    .findFirst()
                    .orElse(null);
            return ip == null
                    ? Uni.createFrom().failure(new IOException("pod " + target.pod() + " has no IP yet"))
                    : Uni.createFrom().item(SocketAddress.inetSocketAddress(port, ip));
        }
        String key = target.namespace() + "/" + target.pod() + ":" + port;
        LocalPortForward open = forwards.get(key);
        if (open != null && open.isAlive()) {
            return Uni.createFrom().item(SocketAddress.inetSocketAddress(open.getLocalPort(), "127.0.0.1"));
        }
        // Opening a forward waits on the API server: off the event loop.
        return Uni.createFrom()
                .item(() -> {
                    // Opened outside the map's lock; if another request opened one meanwhile, that one is kept.
                    LocalPortForward fresh = client.pods()
                            .inNamespace(target.namespace())
                            .withName(target.pod())
                            .portForward(port, java.net.InetAddress.getLoopbackAddress(), 0);
                    LocalPortForward kept = forwards.merge(key, fresh, (old, f) -> {
                        if (old.isAlive()) {
                            return old;
                        }
                        close(old);
                        return f;
                    });
                    if (kept != fresh) {
                        close(fresh);
                    }
                    return kept;
                })
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                .map(f -> SocketAddress.inetSocketAddress(f.getLocalPort(), "127.0.0.1"));
    }

    /** Closes the forwards of pods that are gone. */
    @io.quarkus.scheduler.Scheduled(every = "60s", delayed = "60s")
    void sweep() {
        forwards.entrySet().removeIf(e -> {
            String pod =
                    e.getKey().substring(e.getKey().indexOf('/') + 1, e.getKey().lastIndexOf(':'));
            boolean gone = cache.podsOfJob(podJob(pod)).stream()
                    .noneMatch(p -> p.getMetadata().getName().equals(pod));
            if (gone || !e.getValue().isAlive()) {
                close(e.getValue());
                return true;
            }
            return false;
        });
    }

    /** The job id of a pod named {@code c-<job>-<task>-<index>}. */
    static String podJob(String pod) {
        String rest = pod.startsWith(io.crater.job.JobNames.PREFIX)
                ? pod.substring(io.crater.job.JobNames.PREFIX.length())
                : pod;
        int dash = rest.indexOf('-');
        return dash < 0 ? rest : rest.substring(0, dash);
    }

    void onStop(@Observes ShutdownEvent event) {
        forwards.values().forEach(PodConnector::close);
        forwards.clear();
    }

    private static void close(LocalPortForward f) {
        if (f != null) {
            try {
                f.close();
            } catch (IOException e) {
                // closing a dead forward
            }
        }
    }
}
