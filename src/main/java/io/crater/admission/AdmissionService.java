package io.crater.admission;

import io.crater.account.QuotaService;
import io.crater.cluster.ClusterCache;
import io.crater.cluster.ClusterConfig;
import io.crater.job.JobAdmissions;
import io.crater.job.JobsConfig;
import io.crater.job.TimeLimitService;
import io.crater.platform.Leadership;
import io.crater.platform.Sql;
import io.crater.platform.Threads;
import io.crater.policy.AdmissionRound;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * Admission, run by the replica that holds the {@code crater-admission} Lease. Each round is one database
 * transaction, serialised by an advisory lock and fenced by the leader epoch: it re-reads the epoch FOR SHARE
 * and rolls back if another replica has taken over since. Jobs wait in priority, then submission order; a
 * blocked job does not hold back smaller ones behind it. Objects are created after the commit.
 */
@ApplicationScoped
public class AdmissionService implements Leadership {

    private static final Logger LOG = Logger.getLogger(AdmissionService.class);
    static final long LOCK_KEY = 0x637261746572L;
    static final String LEASE = "crater-admission";
    static final Duration LEASE_DURATION = Duration.ofSeconds(15);
    static final Duration RENEW_DEADLINE = Duration.ofSeconds(10);
    static final Duration RETRY_PERIOD = Duration.ofSeconds(2);

    @Inject
    KubernetesClient client;

    @Inject
    ClusterConfig cluster;

    @Inject
    JobsConfig config;

    @Inject
    QuotaService quotas;

    @Inject
    ClusterCache cache;

    @Inject
    JobAdmissions jobs;

    @Inject
    io.crater.accounting.BudgetWatch budgets;

    @Inject
    TimeLimitService timeLimits;

    @Inject
    java.time.Clock clock;

    @Inject
    io.vertx.core.Vertx vertx;

    @Inject
    io.crater.platform.PgNotifications notifications;

    private final String identity = "crater-" + UUID.randomUUID();
    private final ScheduledExecutorService worker = Threads.scheduler("crater-admission");
    private final ScheduledExecutorService leaseWatch = Threads.scheduler("crater-lease-watch");
    private volatile java.time.Instant confirmedAt;
    private volatile boolean suspended;
    private final AtomicBoolean pending = new AtomicBoolean();
    private volatile long epoch = -1;
    private CompletableFuture<?> election;

    void onStart(@Observes @Priority(60) StartupEvent event) {
        // Submits and job ends on any replica wake the leader; a lost listening connection is made up by a round.
        notifications.listen(JobAdmissions.CHANNEL, payload -> wake());
        notifications.onReconnect(this::wake);
        elect();
        leaseWatch.scheduleWithFixedDelay(
                this::watchLease, RETRY_PERIOD.toMillis(), RETRY_PERIOD.toMillis(), TimeUnit.MILLISECONDS);
        worker.scheduleWithFixedDelay(
                this::round,
                config.admissionInterval().toMillis(),
                config.admissionInterval().toMillis(),
                TimeUnit.MILLISECONDS);
    }

    /**
     * Joins the leader election. fabric8's elector ends for good once it has lost the Lease (its renewals failed for
     * the renew deadline, or another replica holds it), so whenever it ends while Crater runs, a new one joins after
     * a retry period: a replica that lost the Lease to an API server's outage competes again, and a lone replica
     * leads again once the API server is back.
     */
    private synchronized void elect() {
        if (stopping) {
            return;
        }
        var lock = new LeaseLock(cluster.namespace(), LEASE, identity);
        election = client.leaderElector()
                .withConfig(new LeaderElectionConfigBuilder()
                        .withName(LEASE)
                        .withLock(lock)
                        .withLeaseDuration(LEASE_DURATION)
                        .withRenewDeadline(RENEW_DEADLINE)
                        .withRetryPeriod(RETRY_PERIOD)
                        .withReleaseOnCancel(true)
                        .withLeaderCallbacks(new LeaderCallbacks(this::startLeading, this::stopLeading, leader -> {}))
                        .build())
                .build()
                .start();
        election.whenComplete((v, e) -> {
            if (!stopping) {
                epoch = -1;
                LOG.warnf(
                        "admission: the leader election ended (%s); joining it again",
                        e == null ? "the Lease was lost" : e.getMessage());
                leaseWatch.schedule(this::elect, RETRY_PERIOD.toMillis(), TimeUnit.MILLISECONDS);
            }
        });
    }

    private volatile boolean stopping;

    void onStop(@Observes ShutdownEvent event) {
        stopping = true;
        if (election != null) {
            election.cancel(true);
        }
        worker.shutdownNow();
        leaseWatch.shutdownNow();
        deciding.shutdownNow();
        applying.shutdownNow();
    }

    /**
     * Whether this replica admits now: it took the epoch and its own reads of the Lease confirmed it within the
     * renew deadline ({@link LeaseWatch}).
     */
    @Override
    public boolean leading() {
        return epoch >= 0 && LeaseWatch.mayLead(confirmedAt, clock.instant(), RENEW_DEADLINE);
    }

    /** Reads the Lease every retry period; leader work pauses once the last confirmation is too old. */
    private void watchLease() {
        if (epoch < 0) {
            return;
        }
        try {
            var lease = client.leases()
                    .inNamespace(cluster.namespace())
                    .withName(LEASE)
                    .get();
            var spec = lease == null ? null : lease.getSpec();
            if (spec != null
                    && LeaseWatch.confirms(
                            spec.getHolderIdentity(),
                            spec.getRenewTime() == null
                                    ? null
                                    : spec.getRenewTime().toInstant(),
                            identity,
                            clock.instant(),
                            LEASE_DURATION)) {
                confirmedAt = clock.instant();
            }
        } catch (RuntimeException e) {
            LOG.debugf("admission: reading the lease failed (%s)", e.getMessage());
        }
        boolean paused = !leading();
        if (paused != suspended) {
            suspended = paused;
            if (paused) {
                LOG.warnf("admission: the lease was not confirmed for %s; leader work paused", RENEW_DEADLINE);
            } else {
                LOG.info("admission: the lease is confirmed again; leader work resumes");
            }
        }
    }

    /** Asks for an admission round soon (after a submit, a finished job, a quota change). */
    public void wake() {
        // During a round, its end schedules the next one, paced by that round's own start, end and time.
        if (pending.compareAndSet(false, true) && !running) {
            scheduleRound();
        }
    }

    private void scheduleRound() {
        worker.schedule(
                this::round,
                delayMillis(monotonicMillis(), lastRoundStart, lastRoundEnd, lastRoundMillis),
                TimeUnit.MILLISECONDS);
    }

    /** Milliseconds of {@link System#nanoTime()}: the pacing's clock, which wall-clock changes do not move. */
    private static long monotonicMillis() {
        return System.nanoTime() / 1_000_000;
    }

    /** The least time between the starts of two rounds. */
    static final long ROUND_SPACING_MILLIS = 50;

    /**
     * How long a wake-up at {@code now} waits for its round (all in milliseconds of one monotonic clock). A wake-up
     * after a quiet spell runs at once, so a lone submission is decided within a round's time; wake-ups during a
     * burst share a round: one starts at most every 50 ms, and after a long round not before as long again has
     * passed (with thousands waiting a round takes a while, and rounds back to back would take a whole core from
     * everything else).
     */
    static long delayMillis(long now, long lastStart, long lastEnd, long lastTook) {
        return Math.max(0, Math.max(lastStart + ROUND_SPACING_MILLIS - now, lastEnd + lastTook - now));
    }

    /** When the last round started and ended ({@link #monotonicMillis()}) and how long it took. */
    private volatile long lastRoundStart = Long.MIN_VALUE / 2;

    private volatile long lastRoundEnd = Long.MIN_VALUE / 2;

    private volatile long lastRoundMillis;

    /** Whether a round runs now (rounds run on {@link #worker} alone). */
    private volatile boolean running;

    @Inject
    io.micrometer.core.instrument.MeterRegistry meters;

    @Inject
    AdmissionMetrics metrics;

    void startLeading() {
        try {
            Long next = VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> Sql.rows(
                            "UPDATE leader_epochs SET epoch = epoch + 1, holder = ?1, updated_at = now() WHERE name = 'admission' RETURNING epoch, holder",
                            identity)
                    .map(r -> Sql.longOf(r.get(0)[0]))));
            confirmedAt = clock.instant();
            epoch = next;
            LOG.infof("admission: leading with epoch %d", next);
            wake();
            onLeading.forEach(worker::execute);
        } catch (Throwable e) {
            LOG.error("admission: could not take the epoch", e);
        }
    }

    private void stopLeading() {
        epoch = -1;
        LOG.info("admission: no longer leading");
    }

    private void round() {
        running = true;
        try {
            pending.set(false);
            lastRoundStart = monotonicMillis();
            roundOnce();
        } finally {
            running = false;
            // A wake-up during the round left its round to this one (at worst both schedule one: one round more).
            if (pending.get()) {
                scheduleRound();
            }
        }
    }

    private void roundOnce() {
        long mine = leading() ? epoch : -1;
        if (mine < 0 || !cache.synced()) {
            return;
        }
        try {
            long started = System.nanoTime();
            Outcome outcome = VertxContextSupport.subscribeAndAwait(
                    () -> Panache.withTransaction(() -> fence(mine).flatMap(v -> decideAll(mine))));
            long took = System.nanoTime() - started;
            meters.timer("crater.admission.round").record(took, TimeUnit.NANOSECONDS);
            lastRoundMillis = took / 1_000_000;
            lastRoundEnd = monotonicMillis();
            VertxContextSupport.subscribeAndAwait(
                    () -> Panache.withSession(() -> metrics.decided(outcome.decided(), clock.instant())));
            List<Long> admitted = outcome.admitted();
            for (String victim : outcome.reclaimed()) {
                try {
                    jobs.takeBack(victim);
                    LOG.infof("admission: reclaimed job %s", victim);
                } catch (Throwable e) {
                    LOG.warnf("admission: deleting reclaimed job %s failed (%s)", victim, e.getMessage());
                }
            }
            List<Long> stale = VertxContextSupport.subscribeAndAwait(() -> Panache.withSession(
                    () -> jobs.admittedBefore(clock.instant().minus(config.repairAfter()))));
            VertxContextSupport.subscribeAndAwait(() -> timeLimits.warnEnding());
            List<Long> toApply = new ArrayList<>(admitted);
            stale.stream().filter(id -> !admitted.contains(id)).forEach(toApply::add);
            applyAll(toApply);
        } catch (Throwable e) {
            jobs.forgetWritten(); // the round's writes may have been rolled back: write every reason again next time
            if (Leadership.Fenced.in(e)) {
                LOG.warnf("admission: epoch %d is no longer current; standing down", mine);
                epoch = -1;
                return;
            }
            LOG.warn("admission round failed; the next round retries", e);
        }
    }

    /**
     * Fails the round unless this replica's epoch is still the current one; holds it for the transaction, and
     * serialises rounds.
     */
    private Uni<Void> fence(long mine) {
        return epochHeld(mine)
                .flatMap(v -> Sql.count("SELECT count(*) FROM (SELECT pg_advisory_xact_lock(?1)) AS locked", LOCK_KEY))
                .replaceWithVoid();
    }

    /** Fails with {@link Leadership.Fenced} unless {@code mine} is the current epoch; holds its row FOR SHARE. */
    private static Uni<Void> epochHeld(long mine) {
        return Sql.rows("SELECT epoch, holder FROM leader_epochs WHERE name = 'admission' FOR SHARE")
                .map(r -> {
                    if (mine < 0 || Sql.longOf(r.get(0)[0]) != mine) {
                        throw new Leadership.Fenced();
                    }
                    return null;
                });
    }

    @Override
    public Uni<Void> fenced() {
        return Uni.createFrom().deferred(() -> epochHeld(leading() ? epoch : -1));
    }

    @Override
    public void whenLeading(Runnable action) {
        onLeading.add(action);
        if (leading()) {
            worker.execute(action);
        }
    }

    private final List<Runnable> onLeading = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** What a round did: the jobs it admitted and those it took back for an account within its guarantee. */
    record Outcome(List<Long> admitted, List<String> reclaimed, AdmissionRound.Outcome decided) {}

    /** One round: the snapshot read, decided by {@link AdmissionRound}, and its decisions written. */
    private Uni<Outcome> decideAll(long mine) {
        return jobs.queued()
                .flatMap(queued -> jobs.reservations()
                        .flatMap(reservations -> quotas.snapshots()
                                .flatMap(accounts -> quotas.limitBook()
                                        .flatMap(limits -> quotas.memberUsages()
                                                .flatMap(usage -> budgets.forAdmission(queued, jobs.timeLimits())
                                                        .flatMap(budgeted -> {
                                                            var snapshot = new AdmissionRound.Snapshot(
                                                                    clock.instant(),
                                                                    config.agingTolerance(),
                                                                    cache.capacities(),
                                                                    reservations,
                                                                    accounts,
                                                                    new AdmissionRound.Limits(
                                                                            limits.defaults(), limits.overrides()),
                                                                    usage,
                                                                    queued,
                                                                    budgeted);
                                                            // The decisions are plain computation over thousands of
                                                            // jobs: they run on
                                                            // admission's own thread, not the event loop, whose other
                                                            // connections would
                                                            // wait meanwhile; the writes then continue on the
                                                            // transaction's context.
                                                            io.vertx.core.Context context =
                                                                    io.vertx.core.Vertx.currentContext();
                                                            return Uni.createFrom()
                                                                    .item(() -> AdmissionRound.run(snapshot))
                                                                    .runSubscriptionOn(deciding)
                                                                    .emitOn(task ->
                                                                            context.runOnContext(v -> task.run()))
                                                                    .flatMap(outcome -> jobs.write(outcome, mine)
                                                                            .flatMap(v -> reclaim(outcome))
                                                                            .map(reclaimed -> new Outcome(
                                                                                    outcome.admitted().stream()
                                                                                            .map(d -> d.job()
                                                                                                    .sequence())
                                                                                            .toList(),
                                                                                    reclaimed,
                                                                                    outcome)));
                                                        }))))));
    }

    /** How many admitted jobs have their objects created at once. */
    static final int APPLYING = 16;

    /**
     * Where admitted jobs' objects are created, several at a time: one after another, the hundreds a round admits took
     * seconds (each a few reads and API requests), and the next round waited for them.
     */
    private final java.util.concurrent.ExecutorService applying = Executors.newFixedThreadPool(APPLYING, r -> {
        Thread t = new Thread(r, "crater-admission-apply");
        t.setDaemon(true);
        return t;
    });

    /** Creates the objects of admitted jobs, several at a time, and waits for all; a failure is the repair step's. */
    private void applyAll(List<Long> ids) throws InterruptedException {
        List<java.util.concurrent.Future<?>> started = new ArrayList<>(ids.size());
        for (long id : ids) {
            started.add(applying.submit(() -> {
                try {
                    jobs.apply(id);
                } catch (Throwable e) {
                    LOG.warnf(
                            "admission: creating the objects of job %d failed (%s); the repair step retries",
                            id, e.getMessage());
                }
            }));
        }
        for (java.util.concurrent.Future<?> f : started) {
            try {
                f.get();
            } catch (java.util.concurrent.ExecutionException e) {
                LOG.warn("admission: creating a job's objects failed", e.getCause());
            }
        }
    }

    /** Where rounds decide: one thread, since one round runs at a time. */
    private final java.util.concurrent.ExecutorService deciding = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "crater-admission-decide");
        t.setDaemon(true);
        return t;
    });

    /**
     * Takes back running jobs for the first claim of the round that it can serve ({@link AdmissionRound#reclaim}):
     * backfill jobs for any claim, borrowing jobs for a claimant within its guarantee. The victims' public ids.
     */
    private Uni<List<String>> reclaim(AdmissionRound.Outcome outcome) {
        if (outcome.claims().isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return jobs.takeable(AdmissionRound.entitled(outcome))
                .flatMap(running -> running.isEmpty()
                        ? Uni.createFrom().item(List.<String>of())
                        : jobs.releasing().flatMap(freed -> {
                            AdmissionRound.Reclaiming found = AdmissionRound.reclaim(
                                    outcome, running, freed, clock.instant(), config.reclaimMinRunTime());
                            return found == null ? Uni.createFrom().item(List.<String>of()) : jobs.markReclaimed(found);
                        }));
    }
}
