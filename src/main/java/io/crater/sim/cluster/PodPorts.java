package io.crater.sim.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import io.crater.sim.apiserver.PodPortTargets;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetSocket;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a simulated pod's ports reach when they are forwarded. A simulated pod runs no process, so nothing listens
 * on its ports and a forward is refused, as it is to a port nothing listens on in a real pod, with three exceptions,
 * first match wins: a port a test has backed with a local server of its own ({@link #backPort}), a port the
 * setting {@code crater.sim.port-backends} gives a real server on this host ({@link PortBackends}), and the app port
 * of Crater's interactive kinds, where the built-in {@link SimApp} answers.
 *
 * <p>Targets are only ever chosen by Java code in this process, never read from the pod: any signed-in user can
 * create pods, so a pod naming a host and port to connect to would let them reach whatever Crater can reach.
 */
final class PodPorts implements PodPortTargets {

    private final SimApp app;
    private final NetClient net;
    private final Map<String, InetSocketAddress> backed = new ConcurrentHashMap<>();
    private final Map<String, Set<PodPortTargets.Session>> sessions = new ConcurrentHashMap<>();
    private volatile PortBackends configured = PortBackends.NONE;
    private volatile Map<String, java.nio.file.Path> claims = Map.of();

    PodPorts(Vertx vertx) {
        this.app = new SimApp(vertx);
        this.net = vertx.createNetClient(new NetClientOptions().setConnectTimeout(5_000));
    }

    Future<HttpServer> start() {
        return app.start();
    }

    /** Makes forwards to the pod's port reach {@code target}, a server on this host (a loopback address). */
    void backPort(String namespace, String pod, int port, InetSocketAddress target) {
        if (target.getAddress() == null || !target.getAddress().isLoopbackAddress()) {
            throw new IllegalArgumentException("a pod's port can only be backed by a local server, not " + target);
        }
        backed.put(key(namespace, pod, port), target);
    }

    /** The real servers the simulated cluster's settings name for pods' ports. */
    void configure(PortBackends backends, Map<String, java.nio.file.Path> claims) {
        this.configured = backends;
        this.claims = Map.copyOf(claims);
    }

    void removeBackPort(String namespace, String pod, int port) {
        backed.remove(key(namespace, pod, port));
    }

    List<AppRequest> appRequests(String namespace, String pod) {
        return app.requests(namespace, pod);
    }

    /**
     * Connects to what the pod's port reaches, on the caller's Vert.x context; fails when nothing listens there.
     */
    @Override
    public Future<NetSocket> connect(JsonNode pod, int port) {
        String namespace = pod.path("metadata").path("namespace").asText();
        String name = pod.path("metadata").path("name").asText();
        InetSocketAddress target = backed.get(key(namespace, name, port));
        if (target == null) {
            target = configured.target(pod, port);
        }
        if (target != null) {
            return net.connect(target.getPort(), target.getAddress().getHostAddress());
        }
        SimApp.Pod served = SimApp.servedBy(pod, port, claims::get);
        if (served != null) {
            return net.connect(app.port(), "127.0.0.1").map(socket -> {
                app.claim(socket.localAddress().port(), served);
                return socket;
            });
        }
        return Future.failedFuture("nothing listens on port " + port + " of pod " + namespace + "/" + name);
    }

    @Override
    public void opened(String namespace, String pod, PodPortTargets.Session session) {
        sessions.computeIfAbsent(namespace + "/" + pod, k -> ConcurrentHashMap.newKeySet())
                .add(session);
    }

    @Override
    public void closed(String namespace, String pod, PodPortTargets.Session session) {
        sessions.computeIfPresent(namespace + "/" + pod, (k, open) -> {
            open.remove(session);
            return open.isEmpty() ? null : open;
        });
    }

    /** The pod is gone: its forwarded connections end, as they do when a real pod's containers stop. */
    void forget(String namespace, String pod) {
        app.forget(namespace, pod);
        Set<PodPortTargets.Session> open = sessions.remove(namespace + "/" + pod);
        if (open != null) {
            open.forEach(PodPortTargets.Session::close);
        }
    }

    private static String key(String namespace, String pod, int port) {
        return namespace + "/" + pod + ":" + port;
    }
}
