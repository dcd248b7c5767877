package io.crater.interactive;

import io.crater.cluster.ClusterCache;
import io.crater.cluster.ClusterConfig;
import io.crater.job.PodAccess;
import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.SocketAddress;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Where the app proxy connects for a pod's port. Through {@code pods/portforward} (a loopback port of Crater's,
 * kept per pod and port while the pod exists, each connection to it one forward opened by {@link PodTunnels}), or to
 * the pod's IP directly in a real cluster, where Crater's NetworkPolicy lets only Crater in.
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
    Vertx vertx;

    @Inject
    PodTunnels tunnels;

    private final Map<String, NetServer> forwards = new ConcurrentHashMap<>();

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
        NetServer open = forwards.get(key);
        if (open != null) {
            return Uni.createFrom().item(SocketAddress.inetSocketAddress(open.actualPort(), "127.0.0.1"));
        }
        NetServer fresh = vertx.createNetServer(
                        new NetServerOptions().setHost("127.0.0.1").setPort(0))
                .connectHandler(socket -> tunnels.serve(socket, target.namespace(), target.pod(), port));
        return Uni.createFrom()
                .completionStage(() -> fresh.listen().toCompletionStage())
                .map(listening -> {
                    // If another request opened one meanwhile, that one is kept.
                    NetServer kept = forwards.putIfAbsent(key, listening);
                    if (kept != null) {
                        listening.close();
                        return SocketAddress.inetSocketAddress(kept.actualPort(), "127.0.0.1");
                    }
                    return SocketAddress.inetSocketAddress(listening.actualPort(), "127.0.0.1");
                });
    }

    /** Closes the forwards of pods that are gone. */
    @io.quarkus.scheduler.Scheduled(every = "60s", delayed = "60s")
    void sweep() {
        forwards.entrySet().removeIf(e -> {
            String pod =
                    e.getKey().substring(e.getKey().indexOf('/') + 1, e.getKey().lastIndexOf(':'));
            boolean gone = cache.podsOfJob(podJob(pod)).stream()
                    .noneMatch(p -> p.getMetadata().getName().equals(pod));
            if (gone) {
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

    private static void close(NetServer server) {
        if (server != null) {
            try {
                server.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
            } catch (Exception e) {
                // closing a listener that is gone
            }
        }
    }
}
