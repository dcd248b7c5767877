package io.crater.sim;

import io.crater.volcano.PodGroup;
import io.crater.volcano.VolcanoCrds;
import io.crater.volcano.VolcanoJob;
import io.crater.volcano.VolcanoQueue;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * The simulated cluster: an in-process API server plus the controllers a real cluster would run for what
 * Crater creates: Volcano's job controller and scheduler, the kubelet, and the garbage collector. It talks to
 * the API server only through the Kubernetes API, exactly as those components do.
 */
public final class Simulator implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(Simulator.class);

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
            Duration d = Kubelet.parse(value);
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
    private final PodLogs logs = new PodLogs();
    private final InProcessApiServer apiServer = new InProcessApiServer(logs);
    private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "crater-sim");
        t.setDaemon(true);
        return t;
    });
    private final AtomicBoolean pending = new AtomicBoolean();
    private final List<SharedIndexInformer<?>> informers = new ArrayList<>();
    private KubernetesClient client;
    private String url;
    private SimState state;
    private VolcanoJobController jobs;
    private SimScheduler scheduler;
    private Kubelet kubelet;
    private GarbageCollector gc;
    private GpuExporter gpus;
    private GpuCards cards;
    private DcgmEndpoint dcgm;
    private String dcgmUrl;

    public Simulator(Settings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
    }

    /** Starts the API server on 127.0.0.1 (port 0 = any) and the controllers; returns the API URL. */
    public String start(int port) {
        url = apiServer.start(port);
        client = clientFor(url);
        VolcanoCrds.all()
                .forEach(crd -> client.apiextensions()
                        .v1()
                        .customResourceDefinitions()
                        .resource(crd)
                        .createOr(c -> c.update()));
        for (String ns : settings.namespaces()) {
            Namespace namespace = new NamespaceBuilder()
                    .withNewMetadata()
                    .withName(ns)
                    .endMetadata()
                    .build();
            client.namespaces().resource(namespace).createOr(c -> c.update());
        }
        VolcanoQueue defaultQueue = new VolcanoQueue();
        defaultQueue.getMetadata().setName("default");
        defaultQueue.getSpec().weight = 1;
        defaultQueue.getSpec().reclaimable = true;
        client.resources(VolcanoQueue.class).resource(defaultQueue).createOr(c -> c.update());
        for (Node node : settings.fleet().nodes()) {
            client.nodes().resource(node).createOr(c -> c.update());
        }
        SimEvents events = new SimEvents(client, clock);
        state = new SimState();
        jobs = new VolcanoJobController(client, state, events, clock);
        scheduler = new SimScheduler(client, state, events);
        cards = new GpuCards(acceleratorResources(settings.fleet()));
        kubelet = new Kubelet(client, events, state, logs, clock, settings.startDelay(), settings.logInterval(), cards);
        gc = new GarbageCollector(client, state);
        gpus = new GpuExporter(settings.gpuSampleInterval(), acceleratorResources(settings.fleet()));
        apiServer.shells().configure(settings.claims(), gpus, clock);
        apiServer.ports().configure(settings.portBackends());
        state.nodes = inform(client.nodes().inform(handler(o -> {})));
        state.queues = inform(client.resources(VolcanoQueue.class).inform(handler(o -> {})));
        state.pods = client.pods().inAnyNamespace().runnableInformer(0);
        state.pods.addIndexers(java.util.Map.of(SimState.BY_OWNER, SimState::ownerUids));
        state.pods.addEventHandler(handler(o -> {}));
        inform(state.pods);
        state.pods.start().toCompletableFuture().join();
        state.groups = inform(client.resources(PodGroup.class).inAnyNamespace().inform(handler(o -> {})));
        state.jobs = inform(client.resources(VolcanoJob.class).inAnyNamespace().inform(handler(o -> {})));
        state.rebuildLedger();
        dcgm = new DcgmEndpoint(apiServer.vertx(), state, cards, gpus, clock);
        dcgmUrl = dcgm.start(settings.dcgmPort());
        loop.scheduleWithFixedDelay(this::tick, 0, settings.tick().toMillis(), TimeUnit.MILLISECONDS);
        LOG.infof("simulated cluster ready: %d nodes", settings.fleet().nodes().size());
        RUNNING.put(url, this);
        return url;
    }

    private static java.util.Set<String> acceleratorResources(Fleet fleet) {
        java.util.Set<String> out = new java.util.TreeSet<>();
        fleet.nodeGroups().stream()
                .filter(g -> g.accelerator() != null)
                .forEach(g -> out.add(g.accelerator().resource()));
        return out;
    }

    /**
     * The utilisation samples (percent) the simulated GPU exporter took of a pod's accelerators in [from, to], one
     * series per accelerator named by the card's index on its node (the {@code gpu} label of the DCGM endpoint); none
     * for a pod it never sampled or that is gone longer than its retention (docs/simulator.md).
     */
    public List<GpuSeries> gpuSamples(String namespace, String pod, java.time.Instant from, java.time.Instant to) {
        if (gpus == null) {
            return List.of();
        }
        List<GpuSeries> series = gpus.samples(namespace, pod, from, to);
        if (series.isEmpty() && cards.heldBy(namespace + "/" + pod) == null) {
            cards.forget(namespace + "/" + pod);
        }
        GpuCards.Held held = cards.lastHeldBy(namespace + "/" + pod);
        if (held == null || held.indexes().size() != series.size()) {
            return series;
        }
        List<GpuSeries> named = new ArrayList<>();
        for (int i = 0; i < series.size(); i++) {
            named.add(new GpuSeries(
                    pod, Integer.toString(held.indexes().get(i)), series.get(i).samples()));
        }
        return named;
    }

    /** The accelerators a pod holds while it runs, by their index on its node; empty when it holds none. */
    public List<Integer> gpuCards(String namespace, String pod) {
        GpuCards.Held held = cards == null ? null : cards.heldBy(namespace + "/" + pod);
        return held == null ? List.of() : held.indexes();
    }

    /**
     * The pods named {@code prefix…} the simulated GPU exporter has samples of, including pods deleted less than
     * its retention ago.
     */
    public List<String> gpuPods(String namespace, String prefix) {
        return gpus == null ? List.of() : gpus.pods(namespace, prefix);
    }

    public String url() {
        return url;
    }

    /**
     * The simulated DCGM exporter's metrics URL ({@code http://127.0.0.1:<port>/metrics}, no credentials): one series
     * per NVIDIA card of every node, as NVIDIA's dcgm-exporter publishes them (docs/simulator.md).
     */
    public String dcgmUrl() {
        return dcgmUrl;
    }

    /** Requests the in-process API server has served and the time it spent serving them. */
    public InProcessApiServer.Stats apiServerStats() {
        return apiServer.stats();
    }

    public PodLogs logs() {
        return logs;
    }

    /**
     * Backs a pod's port with a local server (a loopback address), for tests: {@code pods/portforward} to that
     * port of that pod reaches {@code target}, as if the server ran in the pod (a real JupyterLab or code-server
     * stand-in a test starts). It stays until removed, also across the pod being deleted and created again.
     *
     * @throws IllegalArgumentException when {@code target} is not on this host
     */
    public void backPort(String namespace, String pod, int port, InetSocketAddress target) {
        apiServer.ports().backPort(namespace, pod, port, target);
    }

    /** Undoes {@link #backPort}: the pod's port is refused again (or reaches the built-in app). */
    public void removeBackPort(String namespace, String pod, int port) {
        apiServer.ports().removeBackPort(namespace, pod, port);
    }

    /**
     * The last requests (up to 32, oldest first) the built-in app of a pod of an interactive kind received through
     * port-forwards, with their headers: what reached the pod. Forgotten when the pod is deleted.
     */
    public List<AppRequest> appRequests(String namespace, String pod) {
        return apiServer.ports().appRequests(namespace, pod);
    }

    /** A client for a simulated cluster's API server that never reads a kubeconfig or the environment. */
    public static KubernetesClient clientFor(String masterUrl) {
        return io.crater.kube.KubeClients.forUrl(masterUrl);
    }

    private <T extends HasMetadata> SharedIndexInformer<T> inform(SharedIndexInformer<T> informer) {
        informers.add(informer);
        return informer;
    }

    private <T extends HasMetadata> ResourceEventHandler<T> handler(Consumer<T> ignored) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T obj) {
                wake();
            }

            @Override
            public void onUpdate(T oldObj, T newObj) {
                wake();
            }

            @Override
            public void onDelete(T obj, boolean deletedFinalStateUnknown) {
                loop.execute(() -> deleted(obj));
                wake();
            }
        };
    }

    private void wake() {
        if (pending.compareAndSet(false, true)) {
            loop.execute(this::tick);
        }
    }

    private void deleted(HasMetadata obj) {
        if (state.jobs == null) {
            return;
        }
        try {
            if (obj instanceof Pod pod) {
                String key = SimState.key(pod);
                state.ledger.release(key);
                logs.remove(pod.getMetadata().getNamespace(), pod.getMetadata().getName());
                apiServer
                        .shells()
                        .forget(
                                pod.getMetadata().getNamespace(),
                                pod.getMetadata().getName());
                apiServer
                        .ports()
                        .forget(
                                pod.getMetadata().getNamespace(),
                                pod.getMetadata().getName());
                gpus.forget(pod.getMetadata().getNamespace(), pod.getMetadata().getName(), clock.instant());
                // Its cards are free; its samples, kept for a while, keep their cards' names.
                cards.release(key);
            } else if (obj instanceof PodGroup group) {
                state.ledger.dequeue(SimState.key(group));
            }
            gc.ownerDeleted(obj);
        } catch (RuntimeException e) {
            LOG.warn("simulator: handling a deletion failed", e);
        }
    }

    private void tick() {
        pending.set(false);
        if (state.jobs == null) {
            return;
        }
        try {
            jobs.reconcile();
            scheduler.enqueue();
            jobs.createPods();
            scheduler.allocate();
            kubelet.run();
            gpus.sample(clock.instant(), state.pods.getStore().list());
            jobs.updateStatus();
        } catch (RuntimeException e) {
            LOG.warn("simulator tick failed; retrying on the next one", e);
        }
    }

    /** The simulator's view of per-resource totals, for checks. */
    public Map<String, Map<String, Long>> usedByNode() {
        Map<String, Map<String, Long>> out = new java.util.TreeMap<>();
        for (Node n : state.nodes.getStore().list()) {
            out.put(
                    n.getMetadata().getName(),
                    state.ledger.usedOn(n.getMetadata().getName()));
        }
        return out;
    }

    @Override
    public void close() {
        if (url != null) {
            RUNNING.remove(url, this);
        }
        loop.shutdownNow();
        if (dcgm != null) {
            dcgm.close();
        }
        informers.forEach(SharedIndexInformer::close);
        if (client != null) {
            client.close();
        }
        apiServer.close();
    }
}
