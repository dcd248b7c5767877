package io.crater.job;

import io.crater.account.QuotaService;
import io.crater.cluster.AcceleratorCatalogue;
import io.crater.cluster.ClusterCache;
import io.crater.cluster.ClusterConfig;
import io.crater.platform.Json;
import io.crater.platform.Sql;
import io.crater.platform.Threads;
import io.crater.platform.Unis;
import io.crater.policy.Admission;
import io.crater.policy.DecisionMemo;
import io.crater.policy.GangPlacement;
import io.crater.policy.MemberLimits;
import io.crater.policy.NodeCapacity;
import io.crater.policy.Ordering;
import io.crater.policy.Placement;
import io.crater.policy.QuotaLine;
import io.crater.policy.QuotaMath;
import io.crater.policy.Resources;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
public class AdmissionService {

    private static final Logger LOG = Logger.getLogger(AdmissionService.class);
    static final long LOCK_KEY = 0x637261746572L;
    static final String CHANNEL = "crater_admission";

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
    AcceleratorCatalogue catalogue;

    @Inject
    JobApplier applier;

    @Inject
    Reclaimer reclaimer;

    @Inject
    io.crater.notify.NotificationService notices;

    @Inject
    JobLogs logs;

    @Inject
    io.vertx.core.Vertx vertx;

    @Inject
    io.crater.platform.PgNotifications notifications;

    private final String identity = "crater-" + UUID.randomUUID();
    private final ScheduledExecutorService worker = Threads.scheduler("crater-admission");
    private final AtomicBoolean pending = new AtomicBoolean();
    private volatile long epoch = -1;
    private CompletableFuture<?> election;

    void onStart(@Observes @Priority(60) StartupEvent event) {
        // Submits and job ends on any replica wake the leader; a lost listening connection is made up by a round.
        notifications.listen(CHANNEL, payload -> wake());
        notifications.onReconnect(this::wake);
        var lock = new LeaseLock(cluster.namespace(), "crater-admission", identity);
        election = client.leaderElector()
                .withConfig(new LeaderElectionConfigBuilder()
                        .withName("crater-admission")
                        .withLock(lock)
                        .withLeaseDuration(Duration.ofSeconds(15))
                        .withRenewDeadline(Duration.ofSeconds(10))
                        .withRetryPeriod(Duration.ofSeconds(2))
                        .withReleaseOnCancel(true)
                        .withLeaderCallbacks(new LeaderCallbacks(this::startLeading, this::stopLeading, leader -> {}))
                        .build())
                .build()
                .start();
        worker.scheduleWithFixedDelay(
                this::round,
                config.admissionInterval().toMillis(),
                config.admissionInterval().toMillis(),
                TimeUnit.MILLISECONDS);
    }

    void onStop(@Observes ShutdownEvent event) {
        if (election != null) {
            election.cancel(true);
        }
        worker.shutdownNow();
        deciding.shutdownNow();
    }

    /** Whether this replica admits now. */
    public boolean leading() {
        return epoch >= 0;
    }

    /** Asks for an admission round soon (after a submit, a finished job, a quota change). */
    public void wake() {
        if (pending.compareAndSet(false, true)) {
            // At least 50 ms, and after a long round at least as long again: with thousands waiting a round takes
            // a while, and rounds back to back would take a whole core from everything else.
            long sinceLast = System.currentTimeMillis() - lastRoundEnd;
            worker.schedule(this::round, Math.max(50, lastRoundMillis - sinceLast), TimeUnit.MILLISECONDS);
        }
    }

    /** How long the last round took, and when it ended (epoch milliseconds). */
    private volatile long lastRoundMillis;

    private volatile long lastRoundEnd;

    @Inject
    io.micrometer.core.instrument.MeterRegistry meters;

    private void startLeading() {
        try {
            Long next = VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> Sql.rows(
                            "UPDATE leader_epochs SET epoch = epoch + 1, holder = ?1, updated_at = now() WHERE name = 'admission' RETURNING epoch, holder",
                            identity)
                    .map(r -> Sql.longOf(r.get(0)[0]))));
            epoch = next;
            LOG.infof("admission: leading with epoch %d", next);
            wake();
        } catch (Throwable e) {
            LOG.error("admission: could not take the epoch", e);
        }
    }

    private void stopLeading() {
        epoch = -1;
        LOG.info("admission: no longer leading");
    }

    private void round() {
        pending.set(false);
        long mine = epoch;
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
            lastRoundEnd = System.currentTimeMillis();
            List<Long> admitted = outcome.admitted();
            for (String victim : outcome.reclaimed()) {
                try {
                    logs.archive(victim);
                    applier.delete(victim);
                    LOG.infof("admission: reclaimed job %s", victim);
                } catch (Throwable e) {
                    LOG.warnf("admission: deleting reclaimed job %s failed (%s)", victim, e.getMessage());
                }
            }
            List<Long> stale = VertxContextSupport.subscribeAndAwait(() -> Panache.withSession(() -> Sql.rows(
                            "SELECT id, public_id FROM jobs WHERE state = 'Admitted' AND NOT stop_requested AND admitted_at < ?1",
                            java.time.Instant.now().minus(config.repairAfter())))
                    .map(rows -> rows.stream().map(r -> Sql.longOf(r[0])).toList()));
            warnTimeLimits();
            List<Long> toApply = new ArrayList<>(admitted);
            stale.stream().filter(id -> !admitted.contains(id)).forEach(toApply::add);
            for (long id : toApply) {
                try {
                    applier.load(id).ifPresent(applier::apply);
                } catch (Throwable e) {
                    LOG.warnf(
                            "admission: creating the objects of job %d failed (%s); the repair step retries",
                            id, e.getMessage());
                }
            }
        } catch (Throwable e) {
            written.clear(); // the round's writes may have been rolled back: write every reason again next time
            if (e instanceof FencedException || e.getCause() instanceof FencedException) {
                LOG.warnf("admission: epoch %d is no longer current; standing down", mine);
                epoch = -1;
                return;
            }
            LOG.warn("admission round failed; the next round retries", e);
        }
    }

    /**
     * Warns the owners of running jobs whose time limit ends within {@code crater.jobs.time-limit-warning}, once
     * per job (the kubelet's {@code activeDeadlineSeconds} then ends it).
     */
    private void warnTimeLimits() throws Throwable {
        VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> Sql.rows(
                        "UPDATE jobs j SET limit_warned_at = now() WHERE j.state = 'Running' AND j.time_limit_s IS NOT NULL"
                                + " AND j.limit_warned_at IS NULL"
                                + " AND j.started_at + j.time_limit_s * interval '1 second' < now() + ?1 * interval '1 second'"
                                + " RETURNING j.public_id, j.user_id, j.name, j.started_at + j.time_limit_s * interval '1 second'",
                        config.timeLimitWarning().toSeconds())
                .flatMap(rows -> Unis.sequentially(rows, r -> {
                    java.time.Instant end = Sql.instant(r[3]);
                    long minutes = Math.max(
                            0,
                            java.time.Duration.between(java.time.Instant.now(), end)
                                    .toMinutes());
                    return notices.notify(
                            Sql.longOf(r[1]),
                            "job.time-limit",
                            "Your job " + r[2] + " (" + r[0] + ") reaches its time limit at " + end + " (in " + minutes
                                    + " min) and is stopped then: save your work.",
                            "/jobs/" + r[0]);
                }))));
    }

    /** Fails the round unless this replica's epoch is still the current one; holds it for the transaction. */
    private Uni<Void> fence(long mine) {
        return Sql.rows("SELECT epoch, holder FROM leader_epochs WHERE name = 'admission' FOR SHARE")
                .map(r -> {
                    if (Sql.longOf(r.get(0)[0]) != mine) {
                        throw new FencedException();
                    }
                    return null;
                })
                .flatMap(v -> Sql.count("SELECT count(*) FROM (SELECT pg_advisory_xact_lock(?1)) AS locked", LOCK_KEY))
                .replaceWithVoid();
    }

    /** One round: decide every waiting job in order against one snapshot; returns the ids admitted. */
    /** What a round did: the jobs it admitted and those it took back for an account within its guarantee. */
    record Outcome(List<Long> admitted, List<String> reclaimed) {}

    private Uni<Outcome> decideAll(long mine) {
        return queued().flatMap(queued -> Sql.rows("SELECT " + JobRow.COLUMNS
                        + " FROM jobs j WHERE j.state IN ('Admitted', 'Pending') ORDER BY j.priority DESC, j.id")
                .flatMap(inFlight -> quotas.snapshots()
                        .flatMap(accounts -> quotas.limitBook()
                                .flatMap(limits -> memberUsages().flatMap(usage -> {
                                    // The decisions are plain computation over thousands of jobs: they run on
                                    // admission's own thread, not the event loop, whose other connections would
                                    // wait meanwhile; the writes then continue on the transaction's context.
                                    io.vertx.core.Context context = io.vertx.core.Vertx.currentContext();
                                    return Uni.createFrom()
                                            .item(() -> decideInMemory(mine, queued, inFlight, accounts, limits, usage))
                                            .runSubscriptionOn(deciding)
                                            .emitOn(task -> context.runOnContext(v -> task.run()))
                                            .flatMap(decided -> Unis.sequentially(
                                                            decided.round().writes, java.util.function.Supplier::get)
                                                    .flatMap(v -> writeReasons(decided.reasons()))
                                                    .flatMap(v -> reclaimer.reclaim(
                                                            decided.round().claims,
                                                            decided.round().nodes,
                                                            decided.round().accounts))
                                                    .map(reclaimed ->
                                                            new Outcome(decided.round().admitted, reclaimed)));
                                })))));
    }

    /** A round's decisions and the reasons worth writing. */
    private record Decided(Round round, Map<Long, String> reasons) {}

    /** Decides every queued job in order, in memory; the round then holds its writes. */
    private Decided decideInMemory(
            long mine,
            List<Queued> queued,
            List<Object[]> inFlight,
            Map<Long, Map<String, QuotaLine>> accounts,
            QuotaService.LimitBook limits,
            Map<String, QuotaMath.MemberUsage> usage) {
        List<NodeCapacity> nodes =
                reserve(cache.capacities(), inFlight.stream().map(JobRow::of).toList());
        Round round = new Round(nodes, mine, accounts, limits, usage);
        for (Ordering.Waiting w : order(queued, accounts)) {
            round.decide(line.get(w.sequence()), w);
        }
        return new Decided(round, worthWriting(round.waitingReasons));
    }

    /** Where rounds decide: one thread, since one round runs at a time. */
    private final java.util.concurrent.ExecutorService deciding = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "crater-admission-decide");
        t.setDaemon(true);
        return t;
    });

    /**
     * A queued job as admission keeps it between rounds: its row, when it was submitted, and what rounds derive from
     * them (its checked spec, until the catalogue changes, and its member's key).
     */
    static final class Queued {
        final JobRow row;
        final java.time.Instant submittedAt;
        final String memberKey;
        private List<?> checkedAgainst;
        private JobSpecs.Checked checked;
        private DecisionMemo.Key key;

        Queued(JobRow row, java.time.Instant submittedAt) {
            this.row = row;
            this.submittedAt = submittedAt;
            this.memberKey = row.accountId() + "/" + row.userId();
        }
    }

    /** The job's checked spec (null when it no longer passes the checks), computed once per catalogue. */
    JobSpecs.Checked checked(Queued q) {
        List<?> models = catalogue.models();
        if (q.checkedAgainst != models) {
            q.checked = checked(q.row);
            q.checkedAgainst = models;
            if (keys.size() > CHECKED_CACHE) {
                keys.clear();
            }
            // Jobs asking the same share one key, so a memo lookup compares them by identity, not field by field.
            q.key = q.checked == null
                    ? null
                    : keys.computeIfAbsent(
                            new DecisionMemo.Key(
                                    q.row.accountId(),
                                    q.memberKey,
                                    q.checked.quotaRequest(),
                                    q.row.interactive(),
                                    q.checked.backfill(),
                                    q.checked.pods()),
                            k -> k);
        }
        return q.checked;
    }

    /**
     * The queued jobs by id, kept between rounds: a queued job's row does not change until it leaves the queue, so a
     * round reads only the ids of the queued jobs and loads the rows it has not seen (with thousands waiting, reading
     * and parsing every row each round was most of a round's time). Touched by one round at a time.
     */
    private final Map<Long, Queued> line = new HashMap<>();

    /** One instance per distinct decision key among the queued jobs (wait explanations order jobs too). */
    private final Map<DecisionMemo.Key, DecisionMemo.Key> keys = new java.util.concurrent.ConcurrentHashMap<>();

    /** The queued jobs, from {@link #line} brought up to date with the database. */
    private Uni<List<Queued>> queued() {
        return Sql.rows("SELECT id FROM jobs WHERE state = 'Queued'").flatMap(ids -> {
            Set<Long> current = new java.util.HashSet<>();
            ids.forEach(r -> current.add(Sql.longOf(r[0])));
            line.keySet().retainAll(current);
            List<Long> missing = current.stream()
                    .filter(id -> !line.containsKey(id))
                    .sorted()
                    .toList();
            List<List<Long>> batches = new ArrayList<>();
            for (int from = 0; from < missing.size(); from += 1000) {
                batches.add(missing.subList(from, Math.min(missing.size(), from + 1000)));
            }
            return Unis.sequentially(
                            batches,
                            batch -> Sql.rows("SELECT " + JobRow.COLUMNS
                                            + ", j.created_at FROM jobs j WHERE j.state = 'Queued' AND j.id IN ("
                                            + batch.stream()
                                                    .map(String::valueOf)
                                                    .collect(java.util.stream.Collectors.joining(","))
                                            + ")")
                                    .invoke(rows -> rows.forEach(r -> {
                                        JobRow job = JobRow.of(r);
                                        line.put(job.id(), new Queued(job, Sql.instant(r[12])));
                                    })))
                    .map(v -> List.copyOf(line.values()));
        });
    }

    /** Every member's usage (jobs holding quota, and of those the interactive ones), in two queries. */
    static Uni<Map<String, QuotaMath.MemberUsage>> memberUsages() {
        String active = " NOT j.backfill AND j.state IN ('Admitted', 'Pending', 'Running', 'Stopping')";
        return Sql.rows("SELECT j.account_id, j.user_id, r.resource, sum(r.milli) FROM jobs j JOIN job_requests r"
                        + " ON r.job_id = j.id WHERE" + active + " GROUP BY j.account_id, j.user_id, r.resource")
                .flatMap(rows -> Sql.rows(
                                "SELECT j.account_id, j.user_id, count(*), count(*) FILTER (WHERE j.interactive)"
                                        + " FROM jobs j WHERE" + active + " GROUP BY j.account_id, j.user_id")
                        .map(counts -> {
                            Map<String, Map<String, Long>> resources = new HashMap<>();
                            rows.forEach(r -> resources
                                    .computeIfAbsent(Sql.longOf(r[0]) + "/" + Sql.longOf(r[1]), k -> new HashMap<>())
                                    .put((String) r[2], Sql.longOf(r[3])));
                            Map<String, QuotaMath.MemberUsage> out = new HashMap<>();
                            counts.forEach(c -> {
                                String key = Sql.longOf(c[0]) + "/" + Sql.longOf(c[1]);
                                out.put(
                                        key,
                                        new QuotaMath.MemberUsage(
                                                new Resources(resources.getOrDefault(key, Map.of())),
                                                (int) Sql.longOf(c[2]),
                                                (int) Sql.longOf(c[3])));
                            });
                            return out;
                        }));
    }

    /** The resources a job holds quota for: its accelerators when it has any, else everything it requests. */
    static Set<String> scarce(Resources request) {
        Set<String> keys = new java.util.TreeSet<>(request.amounts().keySet());
        Set<String> accelerators = new java.util.TreeSet<>(keys);
        accelerators.removeIf(r -> !Ordering.isModel(r));
        return accelerators.isEmpty() ? keys : accelerators;
    }

    /**
     * When only a waiting job's numbers changed, its reasons are rewritten at most this often; with more than 1,000
     * waiting, at most every 10 ms per waiting job (about 100 rows a second, however long the line).
     */
    static final long NUMBERS_REFRESH_MS = 10_000;

    /** The codes of the reasons last written per waiting job and when. */
    private record Written(String codes, long at) {}

    private final Map<Long, Written> written = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * The reasons worth writing: those whose codes changed (at once) or whose numbers changed and were written more
     * than {@link #NUMBERS_REFRESH_MS} (or 10 ms per waiting job) ago. Usage moves the numbers of every waiting job of an account at each
     * admission; rewriting thousands of rows per round made the rounds slow.
     */
    private Map<Long, String> worthWriting(Map<Long, List<io.crater.policy.Reason>> reasons) {
        long now = System.currentTimeMillis();
        long refresh = Math.max(NUMBERS_REFRESH_MS, reasons.size() * 10L);
        written.keySet().retainAll(reasons.keySet());
        Map<Long, String> out = new java.util.LinkedHashMap<>();
        reasons.forEach((id, list) -> {
            String codes =
                    list.stream().map(io.crater.policy.Reason::code).collect(java.util.stream.Collectors.joining(","));
            Written last = written.get(id);
            if (last == null || !last.codes().equals(codes) || now - last.at() >= refresh) {
                out.put(id, Json.write(list));
                written.put(id, new Written(codes, now));
            }
        });
        return out;
    }

    /** Writes the reasons of waiting jobs in batches, only where they changed (no dead rows for unchanged ones). */
    private static Uni<Void> writeReasons(Map<Long, String> reasons) {
        Uni<Void> chain = Uni.createFrom().voidItem();
        List<Map.Entry<Long, String>> all = new ArrayList<>(reasons.entrySet());
        for (int from = 0; from < all.size(); from += 500) {
            List<Map.Entry<Long, String>> batch = all.subList(from, Math.min(all.size(), from + 500));
            StringBuilder values = new StringBuilder();
            List<Object> params = new ArrayList<>();
            for (Map.Entry<Long, String> e : batch) {
                params.add(e.getKey());
                params.add(e.getValue());
                values.append(values.isEmpty() ? "" : ", ")
                        .append("(CAST(?")
                        .append(params.size() - 1)
                        .append(" AS bigint), CAST(CAST(?")
                        .append(params.size())
                        .append(" AS text) AS jsonb))");
            }
            chain = chain.flatMap(v -> Sql.update(
                            "UPDATE jobs j SET reasons = v.r FROM (VALUES " + values + ") AS v (id, r)"
                                    + " WHERE j.id = v.id AND j.state = 'Queued' AND j.reasons IS DISTINCT FROM v.r",
                            params.toArray())
                    .replaceWithVoid());
        }
        return chain;
    }

    /**
     * The waiting jobs (rows of {@link JobRow#COLUMNS} and {@code created_at}) in the order admission considers
     * them: {@link Ordering} over the accounts' quota lines.
     */
    List<Ordering.Waiting> order(List<Object[]> rows, Map<Long, Map<String, QuotaLine>> accounts) {
        return order(
                rows.stream()
                        .map(r -> new Queued(JobRow.of(r), Sql.instant(r[12])))
                        .toList(),
                accounts);
    }

    /** The same, for jobs as admission keeps them. */
    List<Ordering.Waiting> order(java.util.Collection<Queued> queued, Map<Long, Map<String, QuotaLine>> accounts) {
        List<Ordering.Waiting> waiting = new ArrayList<>();
        // Backfill jobs only take what nobody in the line can use: they come after every other job.
        Set<String> backfill = new java.util.HashSet<>();
        for (Queued q : queued) {
            JobRow job = q.row;
            JobSpecs.Checked c = checked(q);
            if (c != null && c.backfill()) {
                backfill.add(job.publicId());
            }
            waiting.add(new Ordering.Waiting(
                    job.publicId(),
                    job.accountId(),
                    job.id(),
                    job.priority(),
                    c == null ? Resources.NONE : c.quotaRequest(),
                    q.submittedAt));
        }
        List<Ordering.Waiting> ordered = new ArrayList<>(Ordering.order(waiting, accounts));
        ordered.sort(java.util.Comparator.comparing(w -> backfill.contains(w.job())));
        return ordered;
    }

    /** Capacity already promised: admitted jobs whose pods are not bound yet are placed first. */
    private List<NodeCapacity> reserve(List<NodeCapacity> nodes, List<JobRow> jobs) {
        Set<String> bound = cache.jobsWithBoundPods();
        List<NodeCapacity> current = new ArrayList<>(nodes);
        for (JobRow job : jobs) {
            if (bound.contains(job.publicId())) {
                continue;
            }
            JobSpecs.Checked checked = checked(job);
            if (checked != null) {
                current = apply(current, Placement.placeGang(current, checked.pods()), checked);
            }
        }
        return current;
    }

    /**
     * A stored spec, checked. A job's spec never changes after submission, so the result is kept per job (up to
     * {@value #CHECKED_CACHE} jobs) until the accelerator catalogue changes: rounds and wait explanations read
     * thousands of waiting jobs each time.
     */
    JobSpecs.Checked checked(JobRow job) {
        List<?> models = catalogue.models();
        if (models != checkedAgainst) {
            checkedCache.clear();
            checkedAgainst = models;
        }
        JobSpecs.Checked cached = checkedCache.get(job.id());
        if (cached != null) {
            return cached;
        }
        try {
            JobSpecs.Checked c =
                    JobSpecs.check(Json.read(job.specJson(), JobViews.SubmitJob.class), catalogue.models(), config);
            checkedCache.put(job.id(), c);
            return c;
        } catch (RuntimeException e) {
            return null;
        }
    }

    static final int CHECKED_CACHE = 50_000;
    private volatile List<?> checkedAgainst;
    private final Map<Long, JobSpecs.Checked> checkedCache =
            java.util.Collections.synchronizedMap(new java.util.LinkedHashMap<>(1024, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<Long, JobSpecs.Checked> eldest) {
                    return size() > CHECKED_CACHE;
                }
            });

    private static List<NodeCapacity> apply(
            List<NodeCapacity> nodes, GangPlacement placement, JobSpecs.Checked checked) {
        if (!placement.placed()) {
            return nodes;
        }
        Map<String, Resources> add = new HashMap<>();
        checked.pods().forEach(p -> add.merge(placement.assignments().get(p.name()), p.request(), Resources::plus));
        return nodes.stream()
                .map(n -> add.containsKey(n.name()) ? n.withUsed(n.used().plus(add.get(n.name()))) : n)
                .toList();
    }

    /** The state of one round: capacity left, account snapshots, member usage, what was admitted. */
    private final class Round {
        List<NodeCapacity> nodes;
        final long epoch;
        final List<Long> admitted = new ArrayList<>();
        /** Every account's quota lines, the usage of what this round admits added. */
        final Map<Long, Map<String, QuotaLine>> accounts;
        /** Every member's usage, what this round admits added. */
        final Map<String, QuotaMath.MemberUsage> members;

        final QuotaService.LimitBook limits;
        /** The round's writes (admissions, rejections), run in decision order once every job is decided. */
        final List<java.util.function.Supplier<Uni<?>>> writes = new ArrayList<>();
        /** Jobs within their account's guarantee that found no room: reclaim serves the first it can. */
        final List<Reclaimer.Claim> claims = new ArrayList<>();

        private final Set<DecisionMemo.Key> claimed =
                java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        /** Reasons of the jobs that keep waiting, written together at the end of the round. */
        final Map<Long, List<io.crater.policy.Reason>> waitingReasons = new java.util.LinkedHashMap<>();
        /** Node selectors whose capacity is held for a job that waited past the aging tolerance. */
        final Map<Map<String, String>, Ordering.Waiting> held = new HashMap<>();
        /**
         * Accounts whose quota is held for a job of theirs that waited past the aging tolerance on the account's
         * quota, with the resources it holds: later jobs of the account needing them no longer pass it.
         */
        final Map<Long, Map.Entry<Ordering.Waiting, Set<String>>> heldQuota = new HashMap<>();
        /** Jobs asking the same as one already decided against the same state get its decision. */
        final DecisionMemo memo = new DecisionMemo();

        Round(
                List<NodeCapacity> nodes,
                long epoch,
                Map<Long, Map<String, QuotaLine>> accounts,
                QuotaService.LimitBook limits,
                Map<String, QuotaMath.MemberUsage> members) {
            this.nodes = nodes;
            this.epoch = epoch;
            this.accounts = new HashMap<>(accounts);
            this.limits = limits;
            this.members = new HashMap<>(members);
        }

        /** Decides one job against the round's state; an admission updates that state at once. */
        void decide(Queued q, Ordering.Waiting waiting) {
            JobRow job = q.row;
            JobSpecs.Checked checked = checked(q);
            if (checked == null) {
                reject(
                        job,
                        List.of(new io.crater.policy.Reason(
                                "InvalidSpec", "the stored spec no longer passes the checks", Map.of())));
                return;
            }
            String memberKey = q.memberKey;
            Map<String, String> selector =
                    checked.pods().isEmpty() ? Map.of() : checked.pods().get(0).nodeSelector();
            Ordering.Waiting holder = held.get(selector);
            Map.Entry<Ordering.Waiting, Set<String>> quotaHolder = heldQuota.get(job.accountId());
            if (holder == null
                    && quotaHolder != null
                    && waiting.quota().amounts().keySet().stream().anyMatch(quotaHolder.getValue()::contains)) {
                holder = quotaHolder.getKey();
            }
            if (holder != null) {
                long waited = java.time.Duration.between(holder.submittedAt(), java.time.Instant.now())
                        .toSeconds();
                waitingReasons.put(
                        job.id(),
                        List.of(new io.crater.policy.Reason(
                                "CapacityHeldForOlderJob",
                                "the capacity it needs is held for a job that has waited " + waited / 60
                                        + " min, longer than the "
                                        + config.agingTolerance().toMinutes()
                                        + " min after which a waiting job is no longer passed by smaller ones",
                                Map.of(
                                        "waitedSeconds",
                                        waited,
                                        "toleranceSeconds",
                                        config.agingTolerance().toSeconds()))));
                return;
            }
            Snapshot s = snapshot(job, memberKey);
            Admission.Decision d = memo.decide(
                    q.key,
                    () -> checked.backfill()
                            ? Admission.decideBackfill(nodes, checked.pods())
                            : Admission.decide(
                                    s.lines(),
                                    s.limits(),
                                    s.usage(),
                                    checked.quotaRequest(),
                                    job.interactive(),
                                    nodes,
                                    checked.pods()));
            if (d.kind() == Admission.Kind.QUEUE
                    && d.reasons().stream().anyMatch(r -> r.code().equals("InsufficientCapacity"))
                    && Ordering.aged(waiting, java.time.Instant.now(), config.agingTolerance())) {
                // Waited too long: smaller jobs for the same nodes no longer pass it; capacity accrues for it.
                held.putIfAbsent(selector, waiting);
            }
            if (d.kind() == Admission.Kind.QUEUE
                    && !checked.backfill()
                    && d.reasons().stream().anyMatch(r -> r.code().equals("AccountQuotaExceeded"))
                    // Only a job the account's quota can ever hold: one asking more than the max never holds it.
                    && d.reasons().stream()
                            .filter(r -> r.code().equals("AccountQuotaExceeded"))
                            .allMatch(r -> r.numbers().getOrDefault("requested", 0L)
                                    <= r.numbers().getOrDefault("effectiveMax", 0L))
                    && Ordering.aged(waiting, java.time.Instant.now(), config.agingTolerance())) {
                // The same within the account: its later jobs no longer take the quota this one waits for.
                heldQuota.putIfAbsent(job.accountId(), Map.entry(waiting, scarce(waiting.quota())));
            }
            if (d.kind() == Admission.Kind.QUEUE
                    && !checked.backfill()
                    && d.reasons().stream().allMatch(r -> r.code().equals("InsufficientCapacity"))) {
                // Fits its quota, not the cluster: backfill jobs (and, within its guarantee, borrowers) make room.
                // Twins (same account, member and ask) get the same plan: the first one, in order, stands for them.
                if (claimed.add(q.key)) {
                    claims.add(new Reclaimer.Claim(job, checked));
                }
            }
            switch (d.kind()) {
                case REJECT -> reject(job, d.reasons());
                case QUEUE -> waitingReasons.put(job.id(), d.reasons());
                case ADMIT -> {
                    memo.clear(); // the nodes, the account's lines and the member's usage change
                    nodes = apply(nodes, new GangPlacement(d.placement(), List.of()), checked);
                    if (!checked.backfill()) {
                        // Backfill jobs use idle capacity only: they count against no quota or limit.
                        Map<String, QuotaLine> lines = new HashMap<>(s.lines());
                        checked.quotaRequest().amounts().forEach((res, amount) -> {
                            QuotaLine l = lines.getOrDefault(res, new QuotaLine(res, 0, 0, 0, 0));
                            lines.put(res, new QuotaLine(res, l.guaranteed(), l.max(), l.granted(), l.used() + amount));
                        });
                        accounts.put(job.accountId(), lines);
                        QuotaMath.MemberUsage u = s.usage();
                        members.put(
                                memberKey,
                                new QuotaMath.MemberUsage(
                                        u.resources().plus(checked.quotaRequest()),
                                        u.activeJobs() + 1,
                                        u.interactiveSessions() + (job.interactive() ? 1 : 0)));
                    }
                    admitted.add(job.id());
                    writes.add(() -> Sql.update(
                                    "UPDATE jobs SET borrowing = ?2, reasons = NULL, admitted_at = now(), admitted_epoch = ?3 WHERE id = ?1",
                                    job.id(),
                                    !d.borrowing().isEmpty(),
                                    epoch)
                            .flatMap(x -> JobStates.move(
                                    job.id(),
                                    "Queued",
                                    "Admitted",
                                    "Admitted",
                                    d.borrowing().isEmpty()
                                            ? "within the account's quota"
                                            : "borrowing " + String.join(", ", d.borrowing()))));
                }
            }
        }

        private void reject(JobRow job, List<io.crater.policy.Reason> reasons) {
            writes.add(() -> Sql.update(
                            "UPDATE jobs SET reasons = CAST(CAST(?2 AS text) AS jsonb) WHERE id = ?1",
                            job.id(),
                            Json.write(reasons))
                    .flatMap(x -> JobStates.move(
                            job.id(),
                            "Queued",
                            "Rejected",
                            reasons.get(0).code(),
                            reasons.get(0).message())));
        }

        private record Snapshot(Map<String, QuotaLine> lines, MemberLimits limits, QuotaMath.MemberUsage usage) {}

        private Snapshot snapshot(JobRow job, String memberKey) {
            return new Snapshot(
                    accounts.computeIfAbsent(job.accountId(), a -> quotas.emptyLines()),
                    limits.effective(job.accountId(), job.userId()),
                    members.getOrDefault(memberKey, QuotaMath.MemberUsage.NONE));
        }
    }

    /** This replica's epoch is no longer the current one. */
    static final class FencedException extends RuntimeException {
        FencedException() {
            super("fenced", null, false, false);
        }
    }
}
