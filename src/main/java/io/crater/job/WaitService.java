package io.crater.job;

import io.crater.account.QuotaService;
import io.crater.cluster.ClusterCache;
import io.crater.identity.Caller;
import io.crater.job.JobViews.AheadJob;
import io.crater.job.JobViews.Position;
import io.crater.platform.Sql;
import io.crater.policy.AdmissionRound;
import io.crater.policy.Forecast;
import io.crater.policy.GangPlacement;
import io.crater.policy.MemberLimits;
import io.crater.policy.NodeCapacity;
import io.crater.policy.Placement;
import io.crater.policy.Quantities;
import io.crater.policy.QuotaLine;
import io.crater.policy.QuotaMath;
import io.crater.policy.Reason;
import io.crater.policy.Resources;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Why a job waits, where it stands, when it should start and what would make it start sooner. Reads what
 * admission reads (the waiting line in admission order, the jobs holding resources, quotas, member limits and
 * usage, the nodes), runs the pure {@link Forecast} on it, and asks admission's own rule about variants of the
 * job for suggestions.
 */
@ApplicationScoped
public class WaitService {

    static final Duration HORIZON = Duration.ofDays(60);
    /** Admission decisions one estimate may play forward (about a tenth of a second of a core). */
    static final int MAX_DECISIONS = 20_000;

    static final int AHEAD_SHOWN = 20;

    @Inject
    JobQueries queries;

    @Inject
    QuotaService quotas;

    @Inject
    JobsConfig config;

    @Inject
    ClusterCache cache;

    @Inject
    CheckedSpecs specs;

    @Inject
    io.crater.identity.UserService users;

    @Inject
    io.crater.account.AccountService accountService;

    @Inject
    java.time.Clock clock;

    @Inject
    WaitAdvice advice;

    @Inject
    ClusterReasons clusterReasons;

    /** Everything gathered for one explanation. */
    record World(
            List<JobRow> waiting,
            List<Timed> active,
            Map<Long, Map<String, QuotaLine>> accounts,
            Map<String, MemberLimits> limits,
            Map<String, QuotaMath.MemberUsage> usage,
            Set<Long> viewerAccounts,
            Map<Long, String> owners,
            Map<String, Instant> submitted) {}

    /** A job with the time that orders it: when it was submitted (waiting) or started (holding). */
    record Timed(JobRow job, Instant at) {
        static Timed of(Object[] r) {
            return new Timed(JobRow.of(r), Sql.instant(r[12]));
        }
    }

    public Uni<JobViews.Wait> explain(String publicId, Caller caller) {
        // The data is read in the session; the forecast, which plays admission forward, runs on a worker thread.
        Uni<java.util.function.Supplier<JobViews.Wait>> read =
                Panache.withSession(() -> queries.visible(publicId, caller)
                        .<java.util.function.Supplier<JobViews.Wait>>flatMap(v -> {
                            String state = v.state();
                            if (state.equals("Admitted") || state.equals("Pending")) {
                                return Sql.rows("SELECT " + JobRow.COLUMNS + " FROM jobs j WHERE j.id = ?1", v.id())
                                        .map(rows -> later(() -> new JobViews.Wait(
                                                state,
                                                clusterReasons.of(
                                                        JobRow.of(rows.get(0)), specs.checked(JobRow.of(rows.get(0)))),
                                                null,
                                                null,
                                                List.of())));
                            }
                            if (!state.equals("Queued")) {
                                return Uni.createFrom()
                                        .<java.util.function.Supplier<JobViews.Wait>>item(later(
                                                () -> new JobViews.Wait(state, List.of(), null, null, List.of())));
                            }
                            List<Reason> reasons = v.row().reasons();
                            return world(caller).map(w -> later(() -> explainQueued(publicId, w, reasons)));
                        }));
        return read.emitOn(io.smallrye.mutiny.infrastructure.Infrastructure.getDefaultWorkerPool())
                .map(java.util.function.Supplier::get);
    }

    private static java.util.function.Supplier<JobViews.Wait> later(java.util.function.Supplier<JobViews.Wait> s) {
        return s;
    }

    private JobViews.Wait explainQueued(String publicId, World w, List<Reason> reasons) {
        Instant now = clock.instant();
        List<NodeCapacity> nodes = new ArrayList<>(cache.capacities());
        List<Forecast.Holder> holders = holders(w, nodes, now);
        List<Forecast.Candidate> candidates = new ArrayList<>();
        JobRow target = null;
        JobSpecs.Checked targetChecked = null;
        for (JobRow row : w.waiting()) {
            JobSpecs.Checked c = specs.checked(row);
            if (c == null) {
                continue;
            }
            candidates.add(candidate(row, c, w.submitted().get(row.publicId())));
            if (row.publicId().equals(publicId)) {
                target = row;
                targetChecked = c;
            }
        }
        if (target == null) {
            return new JobViews.Wait("Queued", List.of(), null, null, List.of());
        }
        // holders() placed the admitted jobs whose pods are not bound yet onto the nodes, as admission reserves them.
        Forecast.Snapshot snapshot = new Forecast.Snapshot(nodes, w.accounts(), w.limits(), w.usage());
        // Capacity and quota say nothing of when money comes: a job held back by its budget has no start time.
        Reason money = waitsForMoney(reasons);
        Forecast.Estimate e = money != null
                ? new Forecast.Estimate(null, List.of(), money)
                : Forecast.estimate(
                        now, snapshot, holders, candidates, publicId, HORIZON, MAX_DECISIONS, config.agingTolerance());
        List<Reason> all = new ArrayList<>(reasons);
        if (reasons.stream().anyMatch(r -> r.code().equals("InsufficientCapacity"))) {
            Reason f = clusterReasons.fragmentation(targetChecked.pods());
            if (f != null) {
                all.add(f);
            }
            // Room a cordoned node would have: named with the platform admin's reason (docs/nodes.md).
            all.addAll(io.crater.policy.NodeCordons.explain(cache.cordoned(), targetChecked.pods()));
            // Room on nodes it may not use: taints it does not tolerate, others' exclusive nodes, its target nodes.
            all.addAll(io.crater.policy.NodeLimits.explain(nodes, targetChecked.pods()));
        }
        return new JobViews.Wait(
                "Queued",
                all,
                position(target, w),
                estimate(e, w),
                advice.suggest(target, targetChecked, snapshot, reasons));
    }

    /**
     * Why a job held back by its account's budget or its owner's allotment has no start time ({@code WaitsForBudget}
     * or {@code WaitsForAllotment}, with the numbers of the reason), or null.
     */
    static Reason waitsForMoney(List<Reason> reasons) {
        for (Reason r : reasons) {
            if (r.code().equals("BudgetExhausted")) {
                return io.crater.policy.ReasonCode.WaitsForBudget.reason(
                        "it starts when the account's budget allows it: after a top-up, a larger budget or"
                                + " the next period",
                        r.numbers(),
                        r.args());
            }
        }
        for (Reason r : reasons) {
            if (r.code().equals("AllotmentExhausted")) {
                return io.crater.policy.ReasonCode.WaitsForAllotment.reason(
                        "it starts when its owner's allotment allows it: a larger allotment, none, or the next"
                                + " period",
                        r.numbers(),
                        r.args());
            }
        }
        return null;
    }

    /**
     * The estimate, with the jobs it waits for named for those who may see them (members of that job's account and
     * platform admins, docs/governance.md); others get the entry without id or name.
     */
    private static JobViews.WaitEstimate estimate(Forecast.Estimate e, World w) {
        Map<String, JobRow> known = new HashMap<>();
        w.waiting().forEach(r -> known.put(r.publicId(), r));
        w.active().forEach(r -> known.put(r.job().publicId(), r.job()));
        List<String> ids =
                e.waitsFor().stream().map(Forecast.Release::job).distinct().toList();
        return new JobViews.WaitEstimate(e.startBy(), ids, e.unknown(), named(ids, known, w.viewerAccounts()));
    }

    /** One entry per job waited for: its id and name when the viewer may see it ({@code viewer} null: all). */
    static List<JobViews.WaitsForJob> named(List<String> ids, Map<String, JobRow> known, Set<Long> viewer) {
        return ids.stream()
                .map(id -> {
                    JobRow row = known.get(id);
                    boolean visible = row != null && (viewer == null || viewer.contains(row.accountId()));
                    return visible ? new JobViews.WaitsForJob(id, row.name()) : new JobViews.WaitsForJob(null, null);
                })
                .toList();
    }

    /** Jobs holding resources, with what they take of each node and when their time limit ends them. */
    private List<Forecast.Holder> holders(World w, List<NodeCapacity> nodes, Instant now) {
        List<Forecast.Holder> out = new ArrayList<>();
        Set<String> bound = cache.jobsWithBoundPods();
        for (Timed r : w.active()) {
            JobRow row = r.job();
            JobSpecs.Checked c = specs.checked(row);
            if (c == null) {
                continue;
            }
            Instant started = r.at();
            Duration limit = c.spec().timeLimit();
            Instant endsBy = row.state().equals("Stopping")
                    ? now.plusSeconds(60)
                    : limit == null ? null : (started == null ? now : started).plus(limit);
            Map<String, Resources> perNode = new HashMap<>();
            if (bound.contains(row.publicId())) {
                perNode.putAll(cache.boundRequests(row.publicId()));
            } else {
                // Admitted but not bound: its pods are placed now, as admission's reservation does.
                GangPlacement placement = Placement.placeGang(nodes, c.pods());
                if (placement.placed()) {
                    c.pods()
                            .forEach(p ->
                                    perNode.merge(placement.assignments().get(p.name()), p.request(), Resources::plus));
                    for (int i = 0; i < nodes.size(); i++) {
                        NodeCapacity n = nodes.get(i);
                        if (perNode.containsKey(n.name())) {
                            nodes.set(i, n.withUsed(n.used().plus(perNode.get(n.name()))));
                        }
                    }
                }
            }
            out.add(new Forecast.Holder(
                    row.publicId(),
                    row.accountId(),
                    row.accountId() + "/" + row.userId(),
                    c.backfill() ? Resources.NONE : c.quotaRequest(),
                    row.interactive(),
                    perNode,
                    endsBy));
        }
        return out;
    }

    static Forecast.Candidate candidate(JobRow row, JobSpecs.Checked c, Instant submittedAt) {
        return new Forecast.Candidate(
                row.publicId(),
                row.accountId(),
                row.accountId() + "/" + row.userId(),
                // A backfill job counts against no quota: only room decides.
                c.backfill() ? Resources.NONE : c.quotaRequest(),
                row.interactive(),
                c.pods(),
                c.spec().timeLimit(),
                row.priority(),
                submittedAt,
                c.backfill());
    }

    /** Place in the account's line and the cluster's, and the jobs ahead as far as the viewer may see them. */
    private Position position(JobRow target, World w) {
        int inCluster = 0;
        int inAccount = 0;
        int accountWaiting = 0;
        List<JobRow> ahead = new ArrayList<>();
        boolean passed = false;
        for (JobRow row : w.waiting()) {
            boolean same = row.accountId() == target.accountId();
            if (same) {
                accountWaiting++;
            }
            if (row.publicId().equals(target.publicId())) {
                passed = true;
                inCluster++;
                if (same) {
                    inAccount++;
                }
                continue;
            }
            if (!passed) {
                inCluster++;
                if (same) {
                    inAccount++;
                }
                ahead.add(row);
            }
        }
        List<AheadJob> shown = new ArrayList<>();
        for (JobRow row : ahead.subList(Math.max(0, ahead.size() - AHEAD_SHOWN), ahead.size())) {
            boolean visible = w.viewerAccounts() == null || w.viewerAccounts().contains(row.accountId());
            JobSpecs.Checked c = specs.checked(row);
            Map<String, String> requests = new TreeMap<>();
            if (c != null) {
                c.quotaRequest().amounts().forEach((k, val) -> requests.put(k, Quantities.format(val)));
            }
            shown.add(new AheadJob(
                    visible ? row.publicId() : null,
                    visible ? row.name() : null,
                    visible ? w.owners().get(row.userId()) : null,
                    row.accountId() == target.accountId(),
                    switch (row.priority()) {
                        case 0 -> "low";
                        case 2 -> "high";
                        default -> "normal";
                    },
                    requests));
        }
        return new Position(inAccount, accountWaiting, inCluster, w.waiting().size(), shown);
    }

    /** Reads the waiting line, the holders, and the quota, limits and usage of every account and member in them. */
    private Uni<World> world(Caller caller) {
        return Sql.rows("SELECT " + JobRow.COLUMNS
                        + ", j.created_at FROM jobs j WHERE j.state = 'Queued' ORDER BY j.priority DESC, j.id")
                .map(rows -> rows.stream().map(Timed::of).toList())
                .flatMap(waitingRows -> Sql.rows("SELECT " + JobRow.COLUMNS
                                + ", j.started_at FROM jobs j WHERE j.state IN ('Admitted', 'Pending', 'Running', 'Stopping')"
                                + " ORDER BY j.id")
                        .map(rows -> rows.stream().map(Timed::of).toList())
                        .flatMap(active -> users.usernames(waitingRows.stream()
                                        .map(w -> w.job().userId())
                                        .collect(java.util.stream.Collectors.toSet()))
                                .flatMap(owners -> {
                                    List<JobRow> waiting =
                                            waitingRows.stream().map(Timed::job).toList();
                                    Set<Long> accountIds = new HashSet<>();
                                    Set<String> members = new HashSet<>();
                                    waiting.forEach(j -> {
                                        accountIds.add(j.accountId());
                                        members.add(j.accountId() + "/" + j.userId());
                                    });
                                    active.forEach(a -> {
                                        JobRow j = a.job();
                                        accountIds.add(j.accountId());
                                        members.add(j.accountId() + "/" + j.userId());
                                    });
                                    return load(caller, waitingRows, active, accountIds, members, owners);
                                })));
    }

    private Uni<World> load(
            Caller caller,
            List<Timed> waitingRows,
            List<Timed> active,
            Set<Long> accountIds,
            Set<String> members,
            Map<Long, String> owners) {
        Map<Long, Map<String, QuotaLine>> accounts = new LinkedHashMap<>();
        Map<String, MemberLimits> limits = new HashMap<>();
        Map<String, QuotaMath.MemberUsage> usage = new HashMap<>();
        // Read for every account and member at once (a handful of queries, not a few per account).
        Uni<Void> chain = quotas.snapshots()
                .flatMap(all -> quotas.limitBook()
                        .flatMap(book -> quotas.memberUsages().invoke(used -> {
                            accountIds.forEach(a -> accounts.put(a, all.getOrDefault(a, quotas.emptyLines())));
                            members.forEach(m -> {
                                long a = Long.parseLong(m.substring(0, m.indexOf('/')));
                                long u = Long.parseLong(m.substring(m.indexOf('/') + 1));
                                limits.put(m, book.effective(a, u));
                                usage.put(m, used.getOrDefault(m, QuotaMath.MemberUsage.NONE));
                            });
                        })))
                .replaceWithVoid();
        Uni<Set<Long>> viewer = caller.platformAdmin()
                ? Uni.createFrom().nullItem()
                : accountService.accountIdsOf(caller.userId()).map(HashSet::new);
        return chain.flatMap(x -> viewer).map(v -> {
            // The waiting line in the order admission considers it.
            Map<String, JobRow> byId = new HashMap<>();
            waitingRows.forEach(r -> byId.put(r.job().publicId(), r.job()));
            List<JobRow> waiting =
                    AdmissionRound.order(
                                    waitingRows.stream()
                                            .map(r -> specs.job(r.job(), r.at(), null))
                                            .toList(),
                                    accounts)
                            .stream()
                            .map(o -> byId.get(o.job()))
                            .toList();
            Map<String, Instant> submitted = new HashMap<>();
            waitingRows.forEach(r -> submitted.put(r.job().publicId(), r.at()));
            return new World(waiting, active, accounts, limits, usage, v, owners, submitted);
        });
    }
}
