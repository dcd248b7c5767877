package io.crater.sim;

import io.crater.sim.apiserver.InProcessApiServer;
import io.crater.sim.cluster.AppRequest;
import io.crater.sim.cluster.Fleet;
import io.crater.sim.cluster.GpuSeries;
import io.crater.sim.cluster.PodLogs;
import io.crater.sim.cluster.PortBackends;
import io.crater.sim.cluster.SimCluster;
import io.crater.sim.cluster.SimPods;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The simulated cluster: an in-process API server ({@code sim.apiserver}, which knows nothing of what plays behind
 * it) plus what plays the cluster ({@code sim.cluster}): the pods' logs, shells and ports behind the API server's pod
 * subresources, and the controllers a real cluster would run for what Crater creates (Volcano's job controller and
 * scheduler, the kubelet, the garbage collector, the GPU exporter). Those talk to the API server only through the
 * Kubernetes API, exactly as the real components do.
 */
public final class Simulator implements AutoCloseable {

    /**
     * Settings of a simulated cluster.
     *
     * @param gpuSampleInterval how often the simulated GPU exporter samples the accelerators of running pods
     * @param claims the host directories backing PersistentVolumeClaims, by claim name: what pods mounting them see
     * @param portBackends real servers on this host serving pods' ports instead of the built-in stand-in apps
     * @param dcgmPort the port of the simulated DCGM exporter's {@code /metrics} on 127.0.0.1 (0: any free one)
     */
    public record Settings(
            Fleet fleet,
            List<String> namespaces,
            Duration tick,
            Duration startDelay,
            Duration logInterval,
            Duration gpuSampleInterval,
            Map<String, java.nio.file.Path> claims,
            PortBackends portBackends,
            int dcgmPort) {
        public static Settings defaults(Fleet fleet, String jobNamespace) {
            return new Settings(
                    fleet,
                    List.of(jobNamespace),
                    Duration.ofMillis(200),
                    Duration.ofMillis(500),
                    Duration.ofSeconds(1),
                    Duration.ofSeconds(15),
                    Map.of(),
                    PortBackends.NONE,
                    0);
        }

        /** These settings with {@code claim} backed by the host directory {@code dir} (created when missing). */
        public Settings withClaim(String claim, java.nio.file.Path dir) {
            Map<String, java.nio.file.Path> more = new java.util.TreeMap<>(claims);
            more.put(claim, dir);
            return new Settings(
                    fleet,
                    namespaces,
                    tick,
                    startDelay,
                    logInterval,
                    gpuSampleInterval,
                    Map.copyOf(more),
                    portBackends,
                    dcgmPort);
        }

        /**
         * These settings with pods' ports served by real servers on this host, from {@code crater.sim.port-backends}
         * / {@code CRATER_SIM_PORT_BACKENDS} (null or blank: none), e.g. {@code kind/jupyter:8888=127.0.0.1:41234}.
         *
         * @throws IllegalArgumentException when a rule is malformed or forwards anywhere but to 127.0.0.1 or [::1]
         */
        public Settings withPortBackends(String setting) {
            return new Settings(
                    fleet,
                    namespaces,
                    tick,
                    startDelay,
                    logInterval,
                    gpuSampleInterval,
                    claims,
                    PortBackends.parse(setting),
                    dcgmPort);
        }

        /**
         * The defaults with the simulated cluster's pace taken from {@code crater.sim.tick} /
         * {@code CRATER_SIM_TICK} and {@code crater.sim.start-delay} / {@code CRATER_SIM_START_DELAY}
         * ({@code 0.05s}, {@code 200ms}-style values as {@code 0.2s}).
         */
        public Settings paced(String tick, String startDelay) {
            return new Settings(
                    fleet,
                    namespaces,
                    tick == null ? this.tick : positive("tick", tick),
                    startDelay == null ? this.startDelay : positive("start delay", startDelay),
                    logInterval,
                    gpuSampleInterval,
                    claims,
                    portBackends,
                    dcgmPort);
        }

        /** These settings with the GPU exporter's interval from {@code crater.sim.gpu-sample-interval} (null: as is). */
        public Settings sampled(String gpuSampleInterval) {
            return gpuSampleInterval == null
                    ? this
                    : new Settings(
                            fleet,
                            namespaces,
                            tick,
                            startDelay,
                            logInterval,
                            positive("GPU sample interval", gpuSampleInterval),
                            claims,
                            portBackends,
                            dcgmPort);
        }

        /**
         * These settings with the simulated DCGM exporter on {@code crater.sim.dcgm-port} / {@code CRATER_SIM_DCGM_PORT}
         * (null or blank: any free port).
         */
        public Settings withDcgmPort(String port) {
            int p;
            try {
                p = port == null || port.isBlank() ? 0 : Integer.parseInt(port.trim());
            } catch (NumberFormatException e) {
                p = -1;
            }
            if (p < 0 || p > 65535) {
                throw new IllegalArgumentException(
                        "the simulated DCGM exporter's port '" + port + "' is not a port number (0-65535)");
            }
            return new Settings(
                    fleet, namespaces, tick, startDelay, logInterval, gpuSampleInterval, claims, portBackends, p);
        }

        private static Duration positive(String what, String value) {
            Duration d = SimCluster.duration(value);
            if (d == null || d.isNegative() || (!what.equals("start delay") && d.isZero())) {
                throw new IllegalArgumentException("the simulated cluster's " + what + " '" + value
                        + "' is not a duration such as 0.05s, 2s or 1m");
            }
            return d;
        }
    }

    /**
     * The simulated clusters running in this process, by API URL. The simulator starts before Quarkus (the launcher
     * and the test resource start it), so it is no bean: Crater's simulated GPU metrics find it here.
     */
    private static final Map<String, Simulator> RUNNING = new java.util.concurrent.ConcurrentHashMap<>();

    /** The simulated cluster of this process serving the API at {@code url}, if any. */
    public static java.util.Optional<Simulator> at(String url) {
        return java.util.Optional.ofNullable(RUNNING.get(url));
    }

    private final Settings settings;
    private final Clock clock;
    private final InProcessApiServer apiServer = new InProcessApiServer();
    private final SimPods pods = SimPods.behind(apiServer);
    private KubernetesClient client;
    private SimCluster cluster;
    private String url;

    public Simulator(Settings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
    }

    /** Starts the API server on 127.0.0.1 (port 0 = any) and the controllers; returns the API URL. */
    public String start(int port) {
        url = apiServer.start(port);
        client = clientFor(url);
        cluster = new SimCluster(
                client,
                apiServer.vertx(),
                pods,
                new SimCluster.Config(
                        settings.fleet(),
                        settings.namespaces(),
                        settings.tick(),
                        settings.startDelay(),
                        settings.logInterval(),
                        settings.gpuSampleInterval(),
                        settings.claims(),
                        settings.portBackends(),
                        settings.dcgmPort()),
                clock);
        cluster.start();
        RUNNING.put(url, this);
        return url;
    }

    /**
     * The utilisation samples (percent) the simulated GPU exporter took of a pod's accelerators in [from, to], one
     * series per accelerator named by the card's index on its node (the {@code gpu} label of the DCGM endpoint); none
     * for a pod it never sampled or that is gone longer than its retention (docs/simulator.md).
     */
    public List<GpuSeries> gpuSamples(String namespace, String pod, java.time.Instant from, java.time.Instant to) {
        return cluster == null ? List.of() : cluster.gpuSamples(namespace, pod, from, to);
    }

    /** The accelerators a pod holds while it runs, by their index on its node; empty when it holds none. */
    public List<Integer> gpuCards(String namespace, String pod) {
        return cluster == null ? List.of() : cluster.gpuCards(namespace, pod);
    }

    /**
     * The pods named {@code prefix…} the simulated GPU exporter has samples of, including pods deleted less than
     * its retention ago.
     */
    public List<String> gpuPods(String namespace, String prefix) {
        return cluster == null ? List.of() : cluster.gpuPods(namespace, prefix);
    }

    public String url() {
        return url;
    }

    /**
     * The simulated DCGM exporter's metrics URL ({@code http://127.0.0.1:<port>/metrics}, no credentials): one series
     * per NVIDIA card of every node, as NVIDIA's dcgm-exporter publishes them (docs/simulator.md).
     */
    public String dcgmUrl() {
        return cluster == null ? null : cluster.dcgmUrl();
    }

    /** Requests the in-process API server has served and the time it spent serving them. */
    public InProcessApiServer.Stats apiServerStats() {
        return apiServer.stats();
    }

    /** What the API server answers to SelfSubjectAccessReviews (everything allowed unless denied there). */
    public io.crater.sim.apiserver.AccessReviews accessReviews() {
        return apiServer.accessReviews();
    }

    /** Requests the API server answers 503 while a test wants it to (none unless one is set). */
    public io.crater.sim.apiserver.Outages outages() {
        return apiServer.outages();
    }

    public PodLogs logs() {
        return pods.logs();
    }

    /**
     * Backs a pod's port with a local server (a loopback address), for tests: {@code pods/portforward} to that
     * port of that pod reaches {@code target}, as if the server ran in the pod (a real JupyterLab or code-server
     * stand-in a test starts). It stays until removed, also across the pod being deleted and created again.
     *
     * @throws IllegalArgumentException when {@code target} is not on this host
     */
    public void backPort(String namespace, String pod, int port, InetSocketAddress target) {
        pods.backPort(namespace, pod, port, target);
    }

    /** Undoes {@link #backPort}: the pod's port is refused again (or reaches the built-in app). */
    public void removeBackPort(String namespace, String pod, int port) {
        pods.removeBackPort(namespace, pod, port);
    }

    /**
     * The last requests (up to 32, oldest first) the built-in app of a pod of an interactive kind received through
     * port-forwards, with their headers: what reached the pod. Forgotten when the pod is deleted.
     */
    public List<AppRequest> appRequests(String namespace, String pod) {
        return pods.appRequests(namespace, pod);
    }

    /** A client for a simulated cluster's API server that never reads a kubeconfig or the environment. */
    public static KubernetesClient clientFor(String masterUrl) {
        return io.crater.kube.KubeClients.forUrl(masterUrl);
    }

    /** The simulator's view of per-resource totals, for checks. */
    public Map<String, Map<String, Long>> usedByNode() {
        return cluster.usedByNode();
    }

    @Override
    public void close() {
        if (url != null) {
            RUNNING.remove(url, this);
        }
        if (cluster != null) {
            cluster.close();
        }
        if (client != null) {
            client.close();
        }
        apiServer.close();
        pods.close();
    }
}
