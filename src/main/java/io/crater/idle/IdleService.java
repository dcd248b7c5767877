package io.crater.idle;

import io.crater.approval.JobLocks;
import io.crater.audit.AuditService;
import io.crater.cluster.AcceleratorCatalogue;
import io.crater.cluster.AcceleratorModel;
import io.crater.cluster.ClusterCache;
import io.crater.cluster.ClusterConfig;
import io.crater.job.AcceleratorJobs;
import io.crater.job.JobStops;
import io.crater.notify.NotificationService;
import io.crater.platform.Actor;
import io.crater.platform.Sql;
import io.crater.policy.IdlePolicy;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Idle decisions about interactive jobs and what follows from them: the owner warned (and the warning recorded), the
 * warning cleared when the job is busy again or locked, the job stopped with the reason {@code IdleReclaimed} and
 * what the stop freed recorded in {@code idle_reclaims}. Every write is conditional on the job's current state, so a
 * check repeated by another replica changes nothing twice.
 */
@ApplicationScoped
class IdleService {

    /** The reason a job stopped for idleness ends with. */
    static final String REASON = "IdleReclaimed";

    @Inject
    IdleConfig config;

    @Inject
    ClusterConfig cluster;

    @Inject
    ClusterCache cache;

    @Inject
    AcceleratorCatalogue catalogue;

    @Inject
    JobStops jobs;

    @Inject
    AcceleratorJobs held;

    @Inject
    JobLocks locks;

    @Inject
    NotificationService notifications;

    @Inject
    AuditService audit;

    /**
     * A job with accelerators as idle detection sees it.
     *
     * @param subject running, interactive and not being stopped: the jobs idle detection judges
     * @param lockUntil the latest end of its approved job locks, or null
     * @param limitEndsAt when its time limit ends it, or null
     */
    record Candidate(
            long id,
            String publicId,
            String name,
            long accountId,
            long userId,
            String model,
            int accelerators,
            boolean subject,
            Instant startedAt,
            Instant warnedAt,
            Instant lockUntil,
            Instant limitEndsAt) {}

    /** The running interactive jobs that hold accelerators, in the caller's session. */
    Uni<List<Candidate>> candidates() {
        return held.interactive().flatMap(this::withLocks);
    }

    /** One job with accelerators (in any state), or null when it holds none, in the caller's session. */
    Uni<Candidate> candidate(long jobId) {
        return held.holding(jobId)
                .flatMap(h -> h.isEmpty()
                        ? Uni.createFrom().nullItem()
                        : withLocks(List.of(h.get())).map(c -> c.get(0)));
    }

    /** The holdings with the ends of their jobs' approved locks. */
    private Uni<List<Candidate>> withLocks(List<AcceleratorJobs.Holding> holdings) {
        return locks.until(holdings.stream()
                        .map(AcceleratorJobs.Holding::publicId)
                        .collect(java.util.stream.Collectors.toSet()))
                .map(until -> holdings.stream()
                        .map(h -> new Candidate(
                                h.id(),
                                h.publicId(),
                                h.name(),
                                h.accountId(),
                                h.userId(),
                                h.model(),
                                (int) (h.milli() / 1000),
                                h.subject(),
                                h.startedAt(),
                                h.idleWarnedAt(),
                                until.get(h.publicId()),
                                h.limitEndsAt()))
                        .toList());
    }

    /** The rule of a job's accelerator model. */
    IdlePolicy.Rule rule(String model) {
        return config.rules().of(model);
    }

    /** The names of a job's pods, as the cluster cache knows them. */
    List<String> pods(String publicId) {
        return cache.podsOfJob(publicId).stream()
                .map(p -> p.getMetadata().getName())
                .sorted()
                .toList();
    }

    /** A query of a job's samples in [from, to] at most one per {@code step}. */
    GpuMetrics.Query query(Candidate c, Instant from, Instant to, Duration step) {
        return new GpuMetrics.Query(
                cluster.namespace(),
                pods(c.publicId()),
                rule(c.model()).metric(),
                config.ratio(c.model()),
                from,
                to,
                step);
    }

    /**
     * The decision about a job now: its samples over the last window (a point per fifth of the longest allowed gap)
     * judged by {@link IdlePolicy}. A source that fails gives {@code Unknown} with {@code MetricsUnavailable}.
     */
    Uni<IdlePolicy.Decision> decide(Candidate c, GpuMetrics metrics, Instant now) {
        IdlePolicy.Rule rule = rule(c.model());
        Duration step = max(rule.maxGap().dividedBy(5), max(rule.window().dividedBy(10_000), Duration.ofMillis(100)));
        return metrics.utilisation(query(c, now.minus(rule.window()), now, step))
                .map(series -> IdlePolicy.decide(
                        new IdlePolicy.Job(c.accelerators(), c.startedAt(), c.warnedAt(), c.lockUntil()),
                        series,
                        rule,
                        now))
                .onFailure()
                .recoverWithItem(e -> unavailable(String.valueOf(e.getMessage())));
    }

    /** The decision when utilisation cannot be read: unknown, so nothing is done. */
    static IdlePolicy.Unknown unavailable(String why) {
        return new IdlePolicy.Unknown(
                "MetricsUnavailable", "GPU utilisation could not be read (" + why + "): not judged", Map.of());
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    /**
     * Does what a decision asks, in the caller's transaction; true when the job was marked to stop (its Volcano Job
     * is then deleted with {@link JobStops#release} after the commit).
     */
    Uni<Boolean> act(Candidate c, IdlePolicy.Decision d, Instant now) {
        if (d instanceof IdlePolicy.Warn w) {
            return warn(c, w, now).replaceWith(false);
        }
        if (d instanceof IdlePolicy.Stop s) {
            return stop(c, s, now);
        }
        if (d instanceof IdlePolicy.Busy || d instanceof IdlePolicy.Exempt) {
            return clear(c).replaceWith(false);
        }
        return Uni.createFrom().item(false); // Waiting keeps the warning; Unknown changes nothing
    }

    private Uni<Void> warn(Candidate c, IdlePolicy.Warn w, Instant now) {
        return held.markIdleWarned(c.id(), now)
                .flatMap(marked -> !marked
                        ? Uni.createFrom().voidItem()
                        : notifications.notify(
                                c.userId(),
                                "job.idle-warning",
                                "Your job " + c.name() + " (" + c.publicId() + ") holds " + held(c) + ", " + w.message()
                                        + ". To keep it, use it or ask for a job lock (Approvals, kind job-lock)"
                                        + " before then.",
                                "/jobs/" + c.publicId(),
                                args(c, w.peak(), w.mean(), w.threshold(), w.window(), Map.of("stopAt", w.stopAt()))));
    }

    /** The arguments of an idle notification or history entry: the job, what it holds and how idle it was. */
    static Map<String, Object> args(
            Candidate c, double peak, double mean, double threshold, Duration window, Map<String, Object> more) {
        Map<String, Object> out = new java.util.LinkedHashMap<>();
        out.put("job", c.publicId());
        out.put("name", c.name());
        out.put("model", c.model());
        out.put("accelerators", (long) c.accelerators());
        out.put("peakPercent", peak);
        out.put("meanPercent", mean);
        out.put("thresholdPercent", threshold);
        out.put("windowSeconds", window.toSeconds());
        more.forEach((k, v) -> out.put(k, v instanceof Instant i ? i.toString() : v));
        return out;
    }

    /** A warned job that is busy again, or locked, starts over: a later idle spell gets a new warning and grace. */
    private Uni<Void> clear(Candidate c) {
        return c.warnedAt() == null ? Uni.createFrom().voidItem() : held.clearIdleWarning(c.id());
    }

    private Uni<Boolean> stop(Candidate c, IdlePolicy.Stop s, Instant now) {
        IdlePolicy.Rule rule = rule(c.model());
        String message = "stopped because its " + held(c) + " stayed " + s.message() + "; its owner was warned at "
                + c.warnedAt() + " (grace " + IdlePolicy.describe(rule.grace()) + ")";
        long freed = IdlePolicy.freedMilliGpuHours(c.accelerators(), now, c.limitEndsAt());
        Map<String, Object> args =
                args(c, s.peak(), s.mean(), s.threshold(), s.window(), Map.of("idleSince", s.idleSince()));
        return jobs.markStopping(c.id(), REASON, message, args)
                .flatMap(stopped -> !stopped
                        ? Uni.createFrom().item(false)
                        : Sql.update(
                                        "INSERT INTO idle_reclaims (job_id, account_id, user_id, model, accelerators, idle_since,"
                                                + " stopped_at, gpu_hours) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, CAST(?8 AS numeric) / 1000)"
                                                + " ON CONFLICT (job_id) DO NOTHING",
                                        c.id(),
                                        c.accountId(),
                                        c.userId(),
                                        c.model(),
                                        c.accelerators(),
                                        s.idleSince(),
                                        now,
                                        freed)
                                .flatMap(n -> notifications.notify(
                                        c.userId(),
                                        "job.idle-reclaimed",
                                        "Your job " + c.name() + " (" + c.publicId() + ") was " + message + ".",
                                        "/jobs/" + c.publicId(),
                                        args))
                                .flatMap(v -> audit.record(
                                        Actor.system(),
                                        "job.idle-reclaim",
                                        "job",
                                        c.publicId(),
                                        null,
                                        Map.of(
                                                "model", c.model(),
                                                "accelerators", c.accelerators(),
                                                "peakPercent", s.peak(),
                                                "meanPercent", s.mean())))
                                .replaceWith(true));
    }

    /** {@code 1 × NVIDIA RTX 4090}: the job's accelerators by their catalogue name. */
    private String held(Candidate c) {
        String name = catalogue.models().stream()
                .filter(m -> m.key().equals(c.model()))
                .map(AcceleratorModel::displayName)
                .findFirst()
                .orElse(c.model());
        return c.accelerators() + " × " + name;
    }
}
