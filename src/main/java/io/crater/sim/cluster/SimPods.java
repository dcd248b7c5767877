package io.crater.sim.cluster;

import io.crater.sim.apiserver.InProcessApiServer;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What plays the pods behind the API server's pod subresources, as a kubelet does for a real one: the lines their
 * containers wrote ({@link PodLogs}), the shells {@code exec} reaches ({@link PodShells}) and what their forwarded
 * ports reach ({@link PodPorts}).
 */
public final class SimPods implements AutoCloseable {

    private final PodLogs logs = new PodLogs();
    private final PodShells shells;
    private final PodPorts ports;
    private volatile SimDownloads downloads;

    private SimPods(InProcessApiServer server) {
        this.shells = new PodShells(server.objects());
        this.ports = new PodPorts(server.vertx());
    }

    /** Plays the pods of {@code server} (before it starts): their logs, shells and ports. */
    public static SimPods behind(InProcessApiServer server) {
        SimPods pods = new SimPods(server);
        server.backPods(pods.logs, pods.shells, pods.ports);
        try {
            pods.ports.start().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("the simulated pods' built-in apps could not start", e);
        }
        return pods;
    }

    public PodLogs logs() {
        return logs;
    }

    /** What the simulated cluster adds once it runs: the claims' host directories, its GPU exporter and clock. */
    void configure(Map<String, Path> claims, GpuExporter exporter, Clock clock, PortBackends backends) {
        shells.configure(claims, exporter, clock);
        ports.configure(backends, claims);
        downloads = new SimDownloads(shells, logs, clock);
    }

    /** The hub clients of download pods (after {@link #configure}). */
    SimDownloads downloads() {
        return downloads;
    }

    public void backPort(String namespace, String pod, int port, InetSocketAddress target) {
        ports.backPort(namespace, pod, port, target);
    }

    public void removeBackPort(String namespace, String pod, int port) {
        ports.removeBackPort(namespace, pod, port);
    }

    public List<AppRequest> appRequests(String namespace, String pod) {
        return ports.appRequests(namespace, pod);
    }

    /** The pod is gone: its log, its scratch folder and its forwarded connections go with it. */
    void forget(String namespace, String pod) {
        logs.remove(namespace, pod);
        shells.forget(namespace, pod);
        ports.forget(namespace, pod);
        SimDownloads d = downloads;
        if (d != null) {
            d.forget(namespace + "/" + pod);
        }
    }

    /** Deletes every pod's scratch folder (the simulated cluster stops). */
    @Override
    public void close() {
        shells.close();
        SimDownloads d = downloads;
        if (d != null) {
            d.close();
        }
    }
}
