package io.crater.job;

import io.crater.account.AccountService;
import io.crater.audit.AuditService;
import io.crater.cluster.AcceleratorCatalogue;
import io.crater.cluster.ClusterCache;
import io.crater.notify.NotificationService;
import io.crater.platform.Actor;
import io.crater.platform.Json;
import io.crater.platform.Sql;
import io.crater.platform.Unis;
import io.crater.policy.Admission;
import io.crater.policy.AdmissionRound;
import io.crater.policy.DecisionMemo;
import io.crater.policy.Reclaim;
import io.crater.policy.Resources;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The jobs' side of admission: what the admission leader reads of the jobs (the waiting line, the reservations of
 * admitted jobs not bound yet, the jobs that may be taken back) and the writes of its decisions (admissions,
 * rejections, waiting reasons, reclaims). The jobs tables are this feature's; admission reaches them only here.
 * The reads and writes run in the caller's transaction; {@link #apply} and {@link #takeBack} call Kubernetes and
 * run after its commit.
 */
@ApplicationScoped
public class JobAdmissions {

    /** The channel that wakes the admission leader ({@link JobStates#ADMISSION_CHANNEL}). */
    public static final String CHANNEL = JobStates.ADMISSION_CHANNEL;

    @Inject
    AcceleratorCatalogue catalogue;

    @Inject
    CheckedSpecs specs;

    @Inject
    java.time.Clock clock;

    @Inject
    ClusterCache cache;

    @Inject
    JobApplier applier;

    @Inject
    JobLogs logs;

    @Inject
    JobReconciler reconciler;

    @Inject
    AuditService audit;

    @Inject
    AccountService accounts;

    @Inject
    NotificationService notifications;

    /** Admitted jobs whose pods are not bound yet: their room is taken before a round decides. */
    public Uni<List<AdmissionRound.Reservation>> reservations() {
        return Sql.rows("SELECT " + JobRow.COLUMNS
                        + " FROM jobs j WHERE j.state IN ('Admitted', 'Pending') ORDER BY j.priority DESC, j.id")
                .map(rows -> {
                    Set<String> bound = cache.jobsWithBoundPods();
                    List<AdmissionRound.Reservation> out = new ArrayList<>();
                    for (Object[] r : rows) {
                        JobRow job = JobRow.of(r);
                        JobSpecs.Checked c = bound.contains(job.publicId()) ? null : specs.checked(job);
                        if (c != null) {
                            out.add(new AdmissionRound.Reservation(job.publicId(), c.pods()));
                        }
                    }
                    return out;
                });
    }

    /** Writes what a round decided: admissions and rejections in decision order, then the reasons of the rest. */
    public Uni<Void> write(AdmissionRound.Outcome outcome, long epoch) {
        return decisions(outcome, epoch).flatMap(v -> writeReasons(worthWriting(outcome.waiting())));
    }

    /** Forgets which reasons were written: a round rolled back, so the next one writes them all again. */
    public void forgetWritten() {
        written.clear();
    }

    /** The states counted by {@link #activeCounts()}: Crater's queue and the states that hold quota. */
    public static final List<String> ACTIVE = List.of("Queued", "Admitted", "Pending", "Running", "Stopping");

    /** One account's jobs in one active state. */
    public record Count(long account, String state, long jobs) {
        static Count of(Object[] r) {
            return new Count(Sql.longOf(r[0]), (String) r[1], Sql.longOf(r[2]));
        }
    }

    /** How many jobs each account has in each active state: one GROUP BY over the jobs' (account, state) index. */
    public Uni<List<Count>> activeCounts() {
        return Sql.rows(
                        "SELECT account_id, state, count(*) FROM jobs WHERE state IN ("
                                + Sql.placeholders(ACTIVE.size()) + ") GROUP BY account_id, state",
                        ACTIVE.toArray())
                .map(rows -> rows.stream().map(Count::of).toList());
    }

    /**
     * Admitted jobs still without their Volcano Job after {@code before}: the repair step creates their objects again.
     * A job whose Volcano Job the reconciler's informer holds is only waiting for its state to be recorded (creating
     * the objects of every such job again, round after round, tripled the API's requests under load).
     */
    public Uni<List<Long>> admittedBefore(Instant before) {
        return Sql.rows(
                        "SELECT id, public_id FROM jobs WHERE state = 'Admitted' AND NOT stop_requested AND admitted_at < ?1",
                        before)
                .map(rows -> rows.stream()
                        .map(Unmade::of)
                        .filter(u -> !reconciler.holds(u.publicId()))
                        .map(Unmade::id)
                        .toList());
    }

    /** An admitted job that may have no objects yet. */
    record Unmade(long id, String publicId) {
        static Unmade of(Object[] r) {
            return new Unmade(Sql.longOf(r[0]), (String) r[1]);
        }
    }

    /** Creates an admitted job's Kubernetes objects (blocking: call after the commit, off the event loop). */
    public void apply(long jobId) throws Throwable {
        var ctx = applier.load(jobId);
        if (ctx.isPresent()) {
            applier.apply(ctx.get());
            // A stop that committed while the objects were being created deleted nothing yet: delete them now.
            if (applier.stopRequested(jobId)) {
                applier.delete(ctx.get().job().publicId());
            }
        }
    }

    /** Archives a reclaimed job's logs and deletes its Volcano Job (blocking: after the commit). */
    public void takeBack(String publicId) throws Throwable {
        logs.archive(publicId);
        applier.delete(publicId);
    }

    /**
     * The running jobs that may be taken back: backfill jobs, and borrowing ones too when {@code borrowingToo}
     * (only then are those read: a round with waiting jobs runs this each time). None asked to stop yet.
     */
    public Uni<List<Reclaim.Running>> takeable(boolean borrowingToo) {
        String takeable = "j.state IN ('Pending', 'Running') AND NOT j.stop_requested AND "
                + (borrowingToo ? "(j.backfill OR j.borrowing)" : "j.backfill");
        return Sql.rows("SELECT " + Takeable.COLUMNS + " FROM jobs j WHERE " + takeable)
                .flatMap(rows -> rows.isEmpty()
                        ? Uni.createFrom().item(List.<Reclaim.Running>of())
                        : Sql.rows(
                                        "SELECT r.job_id, r.resource, r.milli FROM job_requests r JOIN jobs j ON j.id = r.job_id"
                                                + " WHERE " + takeable)
                                .map(requests -> {
                                    Map<Long, Map<String, Long>> quota = new HashMap<>();
                                    requests.stream()
                                            .map(JobQueries.RequestRow::of)
                                            .forEach(q -> quota.computeIfAbsent(q.jobId(), k -> new HashMap<>())
                                                    .put(q.resource(), q.milli()));
                                    List<Reclaim.Running> running = new ArrayList<>();
                                    for (Takeable r :
                                            rows.stream().map(Takeable::of).toList()) {
                                        running.add(new Reclaim.Running(
                                                r.publicId(),
                                                r.accountId(),
                                                new Resources(quota.getOrDefault(r.id(), Map.of())),
                                                cache.boundRequests(r.publicId()),
                                                r.borrowing(),
                                                r.startedAt(),
                                                r.backfill()));
                                    }
                                    return running;
                                }));
    }

    /** A running job that a reclaim may take back. */
    record Takeable(long id, String publicId, long accountId, boolean borrowing, Instant startedAt, boolean backfill) {
        static final String COLUMNS = "j.id, j.public_id, j.account_id, j.borrowing, j.started_at, j.backfill";

        static Takeable of(Object[] r) {
            return new Takeable(
                    Sql.longOf(r[0]), (String) r[1], Sql.longOf(r[2]), (Boolean) r[3], Sql.instant(r[4]), (Boolean)
                            r[5]);
        }
    }

    /**
     * What jobs being stopped (stop asked for, pods not gone yet) still hold, per node: earlier reclaims free it
     * soon, so a later round must not pick more victims for the same claim.
     */
    public Uni<Map<String, Resources>> releasing() {
        return Sql.strings(
                        "SELECT public_id FROM jobs WHERE stop_requested AND state IN ('Admitted', 'Pending', 'Running', 'Stopping')")
                .map(rows -> {
                    Map<String, Resources> out = new HashMap<>();
                    rows.forEach(publicId ->
                            cache.boundRequests(publicId).forEach((n, res) -> out.merge(n, res, Resources::plus)));
                    return out;
                });
    }

    /**
     * Moves the victims of a reclaim to {@code Stopping} with the reason {@code Reclaimed} naming the claimant,
     * notifies their owners and audits it; their public ids ({@link #takeBack} them after the commit).
     */
    public Uni<List<String>> markReclaimed(AdmissionRound.Reclaiming reclaiming) {
        AdmissionRound.Job claim = reclaiming.claimant();
        return accounts.slugs(List.of(claim.account()))
                .flatMap(a ->
                        Unis.sequentially(reclaiming.plan().victims(), v -> mark(v, claim, a.get(claim.account()))))
                .map(v -> reclaiming.plan().victims().stream()
                        .map(Reclaim.Running::job)
                        .toList());
    }

    /** A job taken back: whose it is and the state it leaves. */
    record Victim(long id, long userId, String state) {
        static Victim of(Object[] r) {
            return new Victim(Sql.longOf(r[0]), Sql.longOf(r[1]), (String) r[2]);
        }
    }

    private Uni<Void> mark(Reclaim.Running victim, AdmissionRound.Job claim, String slug) {
        String message = "reclaimed for job " + claim.job() + " of account '" + slug + "'"
                + (victim.backfill()
                        ? ": this backfill job ran on idle capacity"
                        : ", which is within its guarantee; this job was borrowing");
        return Sql.rows("SELECT id, user_id, state FROM jobs WHERE public_id = ?1 FOR UPDATE", victim.job())
                .flatMap(rows -> {
                    Victim r = Victim.of(rows.get(0));
                    long id = r.id();
                    return Sql.update("UPDATE jobs SET stop_requested = TRUE WHERE id = ?1", id)
                            .flatMap(x -> JobStates.move(
                                    id,
                                    r.state(),
                                    "Stopping",
                                    "Reclaimed",
                                    message,
                                    Map.of(
                                            "claimant",
                                            claim.job(),
                                            "account",
                                            slug,
                                            "backfill",
                                            victim.backfill() ? 1L : 0L)))
                            .flatMap(x -> notifications.notify(
                                    r.userId(),
                                    "job.reclaimed",
                                    "Your job " + victim.job() + " is being stopped: " + message,
                                    "/jobs/" + victim.job(),
                                    Map.of("job", victim.job(), "claimant", claim.job(), "account", slug)))
                            .flatMap(x -> audit.record(
                                    Actor.system(),
                                    "job.reclaim",
                                    "job",
                                    victim.job(),
                                    null,
                                    Map.of("claimant", claim.job(), "account", slug)));
                })
                .replaceWithVoid();
    }

    /** The round's admissions and rejections, written in decision order. */
    private Uni<Void> decisions(AdmissionRound.Outcome outcome, long epoch) {
        // A round's decisions are written with a fixed number of statements, however many it made: one after another,
        // the moves of the tens of jobs a busy round admits held the round (and the next) for hundreds of milliseconds.
        List<AdmissionRound.Decided> admitted = new ArrayList<>();
        List<AdmissionRound.Decided> rejected = new ArrayList<>();
        List<JobStates.Change> moves = new ArrayList<>();
        for (AdmissionRound.Decided d : outcome.decided()) {
            if (d.kind() == Admission.Kind.ADMIT) {
                admitted.add(d);
                moves.add(new JobStates.Change(
                        d.job().sequence(),
                        "Queued",
                        "Admitted",
                        "Admitted",
                        d.borrowing().isEmpty()
                                ? "within the account's quota"
                                : "borrowing " + String.join(", ", d.borrowing()),
                        Map.of("borrowing", d.borrowing().isEmpty() ? 0L : 1L)));
            } else {
                rejected.add(d);
                moves.add(new JobStates.Change(
                        d.job().sequence(),
                        "Queued",
                        "Rejected",
                        d.reasons().get(0).code(),
                        d.reasons().get(0).message(),
                        JobHistory.argsOf(d.reasons().get(0))));
            }
        }
        return admittedColumns(admitted, epoch)
                .flatMap(x -> rejectedReasons(rejected))
                .flatMap(x -> JobStates.moveAll(moves))
                .replaceWithVoid();
    }

    /** Whether each admitted job borrows, when and by which epoch it was admitted: one statement for the round. */
    private static Uni<Integer> admittedColumns(List<AdmissionRound.Decided> admitted, long epoch) {
        if (admitted.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        return Sql.update(
                "UPDATE jobs SET borrowing = v.borrowing, reasons = NULL, admitted_at = now(), admitted_epoch = ?3"
                        + " FROM unnest(CAST(string_to_array(?1, ',') AS bigint[]),"
                        + " CAST(string_to_array(?2, ',') AS boolean[])) AS v (id, borrowing)"
                        + " WHERE jobs.id = v.id AND jobs.state = 'Queued'",
                Sql.commaList(admitted.stream().map(d -> d.job().sequence()).toList()),
                Sql.commaList(
                        admitted.stream().map(d -> !d.borrowing().isEmpty()).toList()),
                epoch);
    }

    /** The reasons of each rejected job: one statement for the round. */
    private static Uni<Integer> rejectedReasons(List<AdmissionRound.Decided> rejected) {
        if (rejected.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        List<Map<String, Object>> rows = new ArrayList<>();
        for (AdmissionRound.Decided d : rejected) {
            rows.add(Map.of("id", d.job().sequence(), "reasons", d.reasons()));
        }
        return Sql.update(
                "UPDATE jobs SET reasons = v.reasons FROM jsonb_to_recordset(CAST(CAST(?1 AS text) AS jsonb))"
                        + " AS v (id bigint, reasons jsonb) WHERE jobs.id = v.id AND jobs.state = 'Queued'",
                Json.write(rows));
    }

    /**
     * A queued job as admission keeps it between rounds: its row, when it was submitted, and the round's view of
     * it (from its checked spec, until the catalogue changes).
     */
    static final class Queued {
        final JobRow row;
        final java.time.Instant submittedAt;
        private List<?> checkedAgainst;
        private AdmissionRound.Job job;

        Queued(JobRow row, java.time.Instant submittedAt) {
            this.row = row;
            this.submittedAt = submittedAt;
        }

        /** A job read with {@link JobRow#COLUMNS} and its submission time. */
        static Queued of(Object[] r) {
            return new Queued(JobRow.of(r), Sql.instant(r[12]));
        }
    }

    /** The round's view of a queued job, computed once per catalogue. */
    private AdmissionRound.Job job(Queued q) {
        List<?> models = catalogue.models();
        if (q.checkedAgainst != models || q.job == null) {
            q.job = specs.job(q.row, q.submittedAt, keys);
            q.checkedAgainst = models;
            if (keys.size() > CheckedSpecs.CHECKED_CACHE) {
                keys.clear();
            }
        }
        return q.job;
    }

    /**
     * The queued jobs by id, kept between rounds: a queued job's row does not change until it leaves the queue, so a
     * round reads only the ids of the queued jobs and loads the rows it has not seen (with thousands waiting, reading
     * and parsing every row each round was most of a round's time). Touched by one round at a time.
     */
    private final Map<Long, Queued> line = new HashMap<>();

    /**
     * The time limit of every queued job as {@link #queued} last loaded them (empty: it runs until stopped), by
     * public id: what a budget check projects a job's cost over.
     */
    public Map<String, java.util.Optional<java.time.Duration>> timeLimits() {
        Map<String, java.util.Optional<java.time.Duration>> out = new HashMap<>();
        line.values().forEach(q -> {
            JobSpecs.Checked c = specs.checked(q.row);
            out.put(
                    q.row.publicId(),
                    java.util.Optional.ofNullable(c == null ? null : c.spec().timeLimit()));
        });
        return out;
    }

    /** One instance per distinct decision key among the queued jobs, so memo lookups compare by identity. */
    private final Map<DecisionMemo.Key, DecisionMemo.Key> keys = new java.util.concurrent.ConcurrentHashMap<>();

    /** The queued jobs as a round sees them, from {@link #line} brought up to date with the database. */
    public Uni<List<AdmissionRound.Job>> queued() {
        // Jobs of an archived account never start (archiving stops them; this covers a submission racing it).
        return Sql.longs("SELECT j.id FROM jobs j JOIN accounts a ON a.id = j.account_id"
                        + " WHERE j.state = 'Queued' AND a.archived_at IS NULL")
                .flatMap(ids -> {
                    Set<Long> current = new java.util.HashSet<>(ids);
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
                                            .invoke(rows -> rows.stream()
                                                    .map(Queued::of)
                                                    .forEach(q -> line.put(q.row.id(), q))))
                            .map(v -> line.values().stream().map(this::job).toList());
                });
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
        long now = clock.millis();
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
}
