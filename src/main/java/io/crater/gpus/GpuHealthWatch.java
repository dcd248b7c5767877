package io.crater.gpus;

import io.crater.cluster.ClusterCache;
import io.crater.job.JobFaults;
import io.crater.job.JobNames;
import io.crater.platform.Leadership;
import io.crater.platform.Threads;
import io.crater.platform.Unis;
import io.crater.policy.GpuHealth;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * The leader's GPU health loop (docs/nodes.md, "Quarantine"): reads every card's last XID and uncorrectable ECC count
 * and the Crater pods that failed, turns them into evidence ({@link GpuHealth#observe}), judges each node
 * ({@link GpuHealth#decide}) and applies what changed: a quarantined node is cordoned with its reason and the platform
 * admins are told; a job whose card failed names it in its failure reason.
 */
@ApplicationScoped
public class GpuHealthWatch {

    private static final Logger LOG = Logger.getLogger(GpuHealthWatch.class);

    /** Container ends that say nothing about the node: the job's own memory, its time limit. */
    static final Set<String> NOT_THE_NODE = Set.of("OOMKilled", "DeadlineExceeded", "Evicted");

    @Inject
    GpuHealthConfig config;

    @Inject
    CardSources sources;

    @Inject
    ClusterCache cache;

    @Inject
    Leadership leadership;

    @Inject
    GpuHealthQueries queries;

    @Inject
    GpuHealthMarks marks;

    @Inject
    JobFaults faults;

    @Inject
    Clock clock;

    private final ScheduledExecutorService worker = Threads.scheduler("crater-gpu-health");
    private final AtomicBoolean toldNoSource = new AtomicBoolean();

    /** Evidence about a node. */
    record Found(String node, GpuHealth.Evidence evidence) {}

    /** A node whose judged state or reasons changed in a round. */
    record Change(String node, GpuHealth.State from, GpuHealth.Decision decision, Instant since) {}

    void onStart(@Observes @Priority(85) StartupEvent event) {
        if (!config.enabled()) {
            LOG.info("GPU health: disabled (crater.gpu-health.enabled=false)");
            return;
        }
        long every = config.interval().toMillis();
        worker.scheduleWithFixedDelay(this::check, every, every, TimeUnit.MILLISECONDS);
    }

    void onStop(@Observes ShutdownEvent event) {
        worker.shutdownNow();
    }

    GpuHealth.Rules rules() {
        return new GpuHealth.Rules(
                config.window(), config.hardwareXids(), config.failedJobsSuspect(), config.failedJobsQuarantine());
    }

    private void check() {
        if (!leadership.leading() || !cache.synced()) {
            return;
        }
        try {
            List<CardReading> cards = readCards();
            List<Found> failures = failedPods();
            Instant now = clock.instant();
            List<Change> changes = VertxContextSupport.subscribeAndAwait(
                    () -> Panache.withTransaction(() -> round(cards, failures, now)));
            marks.apply(changes);
        } catch (Throwable e) {
            if (Leadership.Fenced.in(e)) {
                LOG.info("GPU health check: no longer the leader; nothing written");
            } else if (!worker.isShutdown()) {
                LOG.warn("GPU health check failed; the next one retries", e);
            }
        }
    }

    private List<CardReading> readCards() {
        var source = sources.get();
        if (source.isEmpty()) {
            if (toldNoSource.compareAndSet(false, true)) {
                LOG.warnf("GPU health reads failed jobs only: %s", sources.whyNone());
            }
            return List.of();
        }
        try {
            return source.get().cards().await().atMost(java.time.Duration.ofSeconds(30));
        } catch (RuntimeException e) {
            LOG.warnf("GPU health could not read the cards (%s); failed jobs still count", e.getMessage());
            return List.of();
        }
    }

    /** One round in one transaction: the readings' evidence stored, then every node with evidence judged. */
    Uni<List<Change>> round(List<CardReading> cards, List<Found> failures, Instant now) {
        // Fenced by the leader's epoch, and serialised: a replica that still leads for a moment after another took
        // over writes nothing, and the next leader reads the marks the last one wrote.
        return leadership
                .fenced()
                .flatMap(x -> queries.lockRound())
                .flatMap(x -> queries.marks())
                .flatMap(known -> observe(cards, known, now))
                .map(found -> {
                    List<Found> all = new ArrayList<>(found);
                    all.addAll(failures);
                    return all;
                })
                .flatMap(all -> Unis.sequentially(all, this::store))
                .flatMap(x -> judge(now))
                .call(x -> queries.prune(now.minus(config.keep())));
    }

    /** Marks each card's reading and returns what it shows. */
    private Uni<List<Found>> observe(List<CardReading> cards, Map<String, GpuHealth.Mark> known, Instant now) {
        List<Found> found = new ArrayList<>();
        List<Uni<Void>> writes = new ArrayList<>();
        for (CardReading c : cards) {
            if (c.xid() == null && c.eccDbe() == null) {
                continue;
            }
            String key = c.node() + "/" + c.index();
            GpuHealth.Mark before = known.get(key);
            GpuHealth.Observation o =
                    GpuHealth.observe(before, c.xid(), c.eccDbe(), c.index(), now, jobOf(c.node(), c.pod()));
            o.evidence().forEach(e -> found.add(new Found(c.node(), e)));
            if (!o.mark().equals(before)) {
                writes.add(queries.mark(c.node(), c.index(), o.mark()));
            }
        }
        return Unis.sequentially(writes, u -> u).replaceWith(found);
    }

    /**
     * Stores one piece of evidence; a card's error tells the job that held the card. The exporter names the holder
     * only while its pod holds the card, and a crashing process lets go of it at once, so a card error is also paired
     * with the jobs that failed on the node within {@link #pairing()} of it, in whichever order the two are read.
     */
    private Uni<Void> store(Found f) {
        GpuHealth.Evidence e = f.evidence();
        return queries.evidence(f.node(), e).flatMap(isNew -> {
            if (!isNew) {
                return Uni.createFrom().voidItem();
            }
            if (cardFault(e)) {
                return e.job() != null
                        ? attach(f.node(), e, e.job())
                        : queries.failedJobsNear(f.node(), e.at().minus(pairing()), e.at().plus(pairing()))
                                .flatMap(jobs -> Unis.sequentially(jobs, j -> attach(f.node(), e, j)));
            }
            if (e.kind() == GpuHealth.Kind.JOB_FAILED && e.job() != null) {
                return queries.cardFaultsNear(f.node(), e.at().minus(pairing()), e.at().plus(pairing()))
                        .flatMap(faults -> Unis.sequentially(
                                faults.stream()
                                        .filter(GpuHealthWatch::cardFault)
                                        .toList(),
                                fe -> attach(f.node(), fe, e.job())));
            }
            return Uni.createFrom().voidItem();
        });
    }

    /** How far apart a card error and a job's failure on its node may be read and still go together. */
    java.time.Duration pairing() {
        return config.interval().multipliedBy(2).plusSeconds(30);
    }

    /** An error that says the card failed (not an application's XID). */
    static boolean cardFault(GpuHealth.Evidence e) {
        return e.kind() == GpuHealth.Kind.ECC_DBE
                || e.kind() == GpuHealth.Kind.XID && GpuHealth.classify(e.value()) != GpuHealth.XidClass.APPLICATION;
    }

    private Uni<Void> attach(String node, GpuHealth.Evidence e, String job) {
        Map<String, Object> args = e.kind() == GpuHealth.Kind.XID
                ? Map.of("node", node, "gpu", e.gpu(), "xid", e.value())
                : Map.of("node", node, "gpu", e.gpu(), "errors", e.value());
        return faults.attach(job, new JobFaults.Fault(node, e.gpu(), GpuHealth.faultMessage(node, e), args));
    }

    /** Judges every node with evidence or a state other than healthy; stores what changed. */
    private Uni<List<Change>> judge(Instant now) {
        return queries.states()
                .flatMap(states -> queries.evidenceSince(now.minus(config.window()))
                        .flatMap(evidence -> {
                            Set<String> nodes = new HashSet<>(evidence.keySet());
                            states.forEach((n, s) -> {
                                if (s.state() != GpuHealth.State.HEALTHY) {
                                    nodes.add(n);
                                }
                            });
                            List<Change> changes = new ArrayList<>();
                            List<Uni<Void>> writes = new ArrayList<>();
                            for (String node : nodes.stream().sorted().toList()) {
                                GpuHealthQueries.NodeState st = states.get(node);
                                GpuHealth.State current = st == null ? GpuHealth.State.HEALTHY : st.state();
                                GpuHealth.Decision d = GpuHealth.decide(
                                        current,
                                        st == null ? null : st.clearedAt(),
                                        evidence.getOrDefault(node, List.of()),
                                        rules(),
                                        now);
                                // A change, or a node that does not show its state yet (a failed patch is retried).
                                if (d.state() != current
                                        || st == null && !d.reasons().isEmpty()
                                        || !shown(node, d.state())) {
                                    changes.add(new Change(
                                            node, current, d, d.state() == current && st != null ? st.since() : now));
                                }
                                if (st != null || !d.reasons().isEmpty()) {
                                    writes.add(queries.decided(node, d.state(), d.reasons(), now));
                                }
                            }
                            return Unis.sequentially(writes, u -> u).replaceWith(changes);
                        }));
    }

    /** Whether the node's annotation shows the state (a healthy node none). */
    private boolean shown(String node, GpuHealth.State state) {
        var n = cache.node(node);
        if (n == null) {
            return true; // gone: nothing to show it on
        }
        String marked = Objects.requireNonNullElse(n.getMetadata().getAnnotations(), Map.<String, String>of())
                .get(io.crater.cluster.NodeMarks.HEALTH);
        return state == GpuHealth.State.HEALTHY
                ? marked == null
                : state.name().toLowerCase(java.util.Locale.ROOT).equals(marked);
    }

    /** The public id of the Crater job whose pod holds a card; null for a free card or another pod. */
    private String jobOf(String node, String pod) {
        if (pod == null) {
            return null;
        }
        return cache.podsOn(node).stream()
                .filter(p -> pod.equals(p.getMetadata().getName()))
                .map(p -> Objects.requireNonNullElse(p.getMetadata().getLabels(), Map.<String, String>of())
                        .get(JobNames.JOB_ID))
                .filter(Objects::nonNull)
                .findFirst()
                .orElse(null);
    }

    /** Crater pods that failed on their node for a reason that may be the node's (not memory, not time). */
    List<Found> failedPods() {
        List<Found> out = new ArrayList<>();
        for (var node : cache.nodes()) {
            String name = node.getMetadata().getName();
            for (Pod p : cache.podsOn(name)) {
                String job = Objects.requireNonNullElse(p.getMetadata().getLabels(), Map.<String, String>of())
                        .get(JobNames.JOB_ID);
                Instant at = failedAt(p);
                if (job != null && at != null) {
                    out.add(new Found(name, new GpuHealth.Evidence(GpuHealth.Kind.JOB_FAILED, at, null, 0, job)));
                }
            }
        }
        return out;
    }

    /** When the pod failed with a non-zero exit that is not its own memory or time limit; else null. */
    static Instant failedAt(Pod p) {
        if (p.getStatus() == null
                || !"Failed".equals(p.getStatus().getPhase())
                || NOT_THE_NODE.contains(
                        Objects.requireNonNullElse(p.getStatus().getReason(), ""))) {
            return null;
        }
        for (ContainerStatus c :
                Objects.requireNonNullElse(p.getStatus().getContainerStatuses(), List.<ContainerStatus>of())) {
            var t = c.getState() == null ? null : c.getState().getTerminated();
            if (t != null
                    && t.getExitCode() != null
                    && t.getExitCode() != 0
                    && !NOT_THE_NODE.contains(Objects.requireNonNullElse(t.getReason(), ""))
                    && t.getFinishedAt() != null) {
                return Instant.parse(t.getFinishedAt());
            }
        }
        return null;
    }
}
