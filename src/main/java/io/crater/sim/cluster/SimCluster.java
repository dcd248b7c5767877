package io.crater.sim.cluster;

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
import io.vertx.core.Vertx;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * What plays the cluster behind the in-process API server: the controllers a real cluster runs for what Crater
 * creates (Volcano's job controller and scheduler, the kubelet, the garbage collector) and the GPU exporter with its
 * DCGM endpoint. They talk to the API server only through the Kubernetes API, exactly as those components do, on one
 * loop woken by their informers and every tick. Each tick works on what the watch events named since the last one
 * ({@link SimState}) and on the pods that run; its writes go several at a time ({@link SimWrites}).
 */
public final class SimCluster implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(SimCluster.class);

    /**
     * What the cluster plays.
     *
     * @param namespaces the namespaces that exist from the start
     * @param tick how often the controllers run when nothing wakes them
     * @param startDelay how long a bound pod takes to start
     * @param logInterval how often a running container writes a log line
     * @param gpuSampleInterval how often the GPU exporter samples the accelerators of running pods
     * @param claims the host directories backing PersistentVolumeClaims, by claim name
     * @param portBackends real servers on this host serving pods' ports
     * @param dcgmPort the port of the DCGM endpoint on 127.0.0.1 (0: any free one)
     */
    public record Config(
            Fleet fleet,
            List<String> namespaces,
            Duration tick,
            Duration startDelay,
            Duration logInterval,
            Duration gpuSampleInterval,
            Map<String, Path> claims,
            PortBackends portBackends,
            int dcgmPort) {}

    private final KubernetesClient client;
    private final Vertx vertx;
    private final SimPods pods;
    private final Config config;
    private final Clock clock;
    private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "crater-sim");
        t.setDaemon(true);
        return t;
    });
    private final AtomicBoolean pending = new AtomicBoolean();
    private final List<SharedIndexInformer<?>> informers = new ArrayList<>();
    private SimState state;
    private VolcanoJobController jobs;
    private SimScheduler scheduler;
    private Kubelet kubelet;
    private GarbageCollector gc;
    private GpuExporter gpus;
    private GpuCards cards;
    private DcgmEndpoint dcgm;
    private String dcgmUrl;

    /**
     * @param client a client of the API server the cluster plays behind
     * @param vertx the Vert.x instance of that API server, shared by the cluster's own listeners
     * @param pods what plays that API server's pods
     */
    public SimCluster(KubernetesClient client, Vertx vertx, SimPods pods, Config config, Clock clock) {
        this.client = client;
        this.vertx = vertx;
        this.pods = pods;
        this.config = config;
        this.clock = clock;
    }

    /** A duration such as {@code 0.05s}, {@code 2s}, {@code 1m} or {@code 200} (milliseconds); null when it is none. */
    public static Duration duration(String value) {
        return Kubelet.parse(value);
    }

    /** Installs what the cluster has from the start (Volcano's CRDs, the namespaces, nodes), then starts playing. */
    public void start() {
        install();
        SimEvents events = new SimEvents(client, clock);
        state = new SimState();
        jobs = new VolcanoJobController(client, state, events, clock);
        scheduler = new SimScheduler(client, state, events);
        cards = new GpuCards(acceleratorResources(config.fleet()));
        kubelet = new Kubelet(
                client,
                events,
                state,
                pods.logs(),
                clock,
                config.startDelay(),
                config.logInterval(),
                cards,
                new SimImageBuilds(client, pods.logs(), clock));
        kubelet.playDownloads(pods::downloads);
        gc = new GarbageCollector(client, state);
        gpus = new GpuExporter(config.gpuSampleInterval(), acceleratorResources(config.fleet()));
        pods.configure(config.claims(), gpus, clock, config.portBackends());
        informAll();
        state.rebuildLedger();
        dcgm = new DcgmEndpoint(vertx, state, cards, gpus, clock);
        dcgmUrl = dcgm.start(config.dcgmPort());
        loop.scheduleWithFixedDelay(this::tick, 0, config.tick().toMillis(), TimeUnit.MILLISECONDS);
        LOG.infof("simulated cluster ready: %d nodes", config.fleet().nodes().size());
    }

    private void install() {
        VolcanoCrds.all()
                .forEach(crd -> client.apiextensions()
                        .v1()
                        .customResourceDefinitions()
                        .resource(crd)
                        .createOr(c -> c.update()));
        for (String ns : config.namespaces()) {
            Namespace namespace = new NamespaceBuilder()
                    .withNewMetadata()
                    .withName(ns)
                    .endMetadata()
                    .build();
            client.namespaces().resource(namespace).createOr(c -> c.update());
        }
        InstalledParts.install(client, config.namespaces(), config.claims());
        VolcanoQueue defaultQueue = new VolcanoQueue();
        defaultQueue.getMetadata().setName("default");
        defaultQueue.getSpec().weight = 1;
        defaultQueue.getSpec().reclaimable = true;
        client.resources(VolcanoQueue.class).resource(defaultQueue).createOr(c -> c.update());
        for (Node node : config.fleet().nodes()) {
            client.nodes().resource(node).createOr(c -> c.update());
        }
    }

    private void informAll() {
        state.nodes = inform(client.nodes().inform(handler()));
        state.queues = inform(client.resources(VolcanoQueue.class).inform(handler()));
        state.pods = client.pods().inAnyNamespace().runnableInformer(0);
        state.pods.addIndexers(Map.of(SimState.BY_OWNER, SimState::ownerUids, SimState.BY_GROUP, SimState::groupOf));
        state.pods.addEventHandler(handler());
        inform(state.pods);
        state.pods.start().toCompletableFuture().join();
        state.groups = inform(client.resources(PodGroup.class).inAnyNamespace().inform(handler()));
        state.jobs = inform(client.resources(VolcanoJob.class).inAnyNamespace().inform(handler()));
    }

    private static Set<String> acceleratorResources(Fleet fleet) {
        Set<String> out = new TreeSet<>();
        fleet.nodeGroups().forEach(g -> g.devices().forEach(a -> out.add(a.resource())));
        return out;
    }

    /** The GPU exporter's utilisation samples of a pod's accelerators in [from, to], named by their cards. */
    public List<GpuSeries> gpuSamples(String namespace, String pod, Instant from, Instant to) {
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

    /** The pods named {@code prefix…} the GPU exporter has samples of, including recently deleted ones. */
    public List<String> gpuPods(String namespace, String prefix) {
        return gpus == null ? List.of() : gpus.pods(namespace, prefix);
    }

    /** The DCGM endpoint's metrics URL. */
    public String dcgmUrl() {
        return dcgmUrl;
    }

    /** Backs a pod's port with a local server (a loopback address). */
    public void backPort(String namespace, String pod, int port, InetSocketAddress target) {
        pods.backPort(namespace, pod, port, target);
    }

    public void removeBackPort(String namespace, String pod, int port) {
        pods.removeBackPort(namespace, pod, port);
    }

    /** The last requests the built-in app of a pod received through port-forwards. */
    public List<AppRequest> appRequests(String namespace, String pod) {
        return pods.appRequests(namespace, pod);
    }

    /** What the scheduler has bound to each node, per resource in milli-units. */
    public Map<String, Map<String, Long>> usedByNode() {
        Map<String, Map<String, Long>> out = new TreeMap<>();
        for (Node n : state.nodes.getStore().list()) {
            out.put(
                    n.getMetadata().getName(),
                    state.ledger.usedOn(n.getMetadata().getName()));
        }
        return out;
    }

    private <T extends HasMetadata> SharedIndexInformer<T> inform(SharedIndexInformer<T> informer) {
        informers.add(informer);
        return informer;
    }

    private <T extends HasMetadata> ResourceEventHandler<T> handler() {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T obj) {
                state.seen(obj, false);
                wake();
            }

            @Override
            public void onUpdate(T oldObj, T newObj) {
                state.seen(newObj, false);
                wake();
            }

            @Override
            public void onDelete(T obj, boolean deletedFinalStateUnknown) {
                state.seen(obj, true);
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
                String namespace = pod.getMetadata().getNamespace();
                String name = pod.getMetadata().getName();
                state.ledger.release(key);
                pods.forget(namespace, name);
                gpus.forget(namespace, name, clock.instant());
                // Its cards are free; its samples, kept for a while, keep their cards' names.
                cards.release(key);
                kubelet.forget(key);
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
        // The Volcano Jobs whose job, group or pods changed since the last tick: the job controller looks at these.
        Set<String> changed = SimState.drain(state.changedJobs);
        try {
            jobs.reconcile(changed);
            changed.addAll(scheduler.enqueue());
            jobs.createPods(changed);
            scheduler.allocate();
            List<Pod> onNodes = kubelet.onNodes();
            kubelet.run(onNodes);
            gpus.sample(clock.instant(), onNodes);
            jobs.updateStatus(changed);
        } catch (RuntimeException e) {
            state.changedJobs.addAll(changed);
            LOG.warn("simulator tick failed; retrying on the next one", e);
        }
    }

    /** Stops the loop, the DCGM endpoint and the informers (the client stays its owner's). */
    @Override
    public void close() {
        loop.shutdownNow();
        if (dcgm != null) {
            dcgm.close();
        }
        informers.forEach(SharedIndexInformer::close);
    }
}
