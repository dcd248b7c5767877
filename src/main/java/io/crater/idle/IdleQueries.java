package io.crater.idle;

import io.crater.account.AccountService;
import io.crater.identity.Caller;
import io.crater.identity.UserDirectory;
import io.crater.job.AcceleratorJobs;
import io.crater.job.JobService;
import io.crater.platform.ApiException;
import io.crater.platform.Problem;
import io.crater.platform.Sql;
import io.crater.policy.IdlePolicy;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/** Reading idle reclamation: a job's utilisation with the decision about it now, an account's reclaims. */
@ApplicationScoped
class IdleQueries {

    /** How far back a utilisation chart reaches. */
    static final Duration LONGEST = Duration.ofDays(7);
    /** Points per accelerator a chart gets at most. */
    static final int POINTS = 500;

    @Inject
    JobService jobs;

    @Inject
    AccountService accounts;

    @Inject
    IdleService idle;

    @Inject
    IdleConfig config;

    @Inject
    GpuMetricsSource source;

    @Inject
    Clock clock;

    @Inject
    UserDirectory people;

    @Inject
    AcceleratorJobs held;

    /**
     * A job's samples per pod and accelerator since {@code since} (default: its model's window), at most
     * {@value #POINTS} per accelerator, and the decision the idle check would take now; for whoever may see the job.
     */
    public Uni<IdleViews.Utilisation> utilisation(String publicId, String since, Caller caller) {
        Instant now = clock.instant();
        Instant from = since(since, now, LONGEST);
        return Panache.withSession(() -> jobs.visible(publicId, caller).flatMap(ref -> idle.candidate(ref.id())))
                .flatMap(c -> {
                    if (c == null) {
                        IdlePolicy.Rule rule = config.rules().defaults();
                        return Uni.createFrom()
                                .item(new IdleViews.Utilisation(
                                        publicId,
                                        null,
                                        0,
                                        rule.metric(),
                                        rule.threshold(),
                                        rule.window().toSeconds(),
                                        rule.grace().toSeconds(),
                                        from == null ? now.minus(rule.window()) : from,
                                        now,
                                        List.of(),
                                        null,
                                        null));
                    }
                    return measured(c, from, now);
                });
    }

    private Uni<IdleViews.Utilisation> measured(IdleService.Candidate c, Instant since, Instant now) {
        IdlePolicy.Rule rule = idle.rule(c.model());
        Instant from = since == null ? now.minus(rule.window()) : since;
        Optional<GpuMetrics> metrics = source.get();
        if (metrics.isEmpty()) {
            IdleViews.Decision none =
                    c.subject() ? IdleViews.Decision.of(IdleService.unavailable(source.whyNone())) : null;
            return Uni.createFrom().item(view(c, rule, from, now, List.of(), source.whyNone(), none));
        }
        Duration range = Duration.between(from, now).dividedBy(POINTS);
        Duration step = range.compareTo(Duration.ofMillis(100)) < 0 ? Duration.ofMillis(100) : range;
        Uni<IdleViews.Decision> decision = c.subject()
                ? idle.decide(c, metrics.get(), now).map(IdleViews.Decision::of)
                : Uni.createFrom().nullItem();
        return metrics.get()
                .utilisation(idle.query(c, from, now, step))
                .map(Measured::of)
                .onFailure()
                .recoverWithItem(e -> new Measured(List.of(), String.valueOf(e.getMessage())))
                .flatMap(m -> decision.map(d -> view(c, rule, from, now, m.series(), m.unavailable(), d)));
    }

    /** Samples, or why there are none. */
    private record Measured(List<IdlePolicy.Series> series, String unavailable) {
        static Measured of(List<IdlePolicy.Series> series) {
            return new Measured(series, null);
        }
    }

    private static IdleViews.Utilisation view(
            IdleService.Candidate c,
            IdlePolicy.Rule rule,
            Instant from,
            Instant now,
            List<IdlePolicy.Series> series,
            String unavailable,
            IdleViews.Decision decision) {
        return new IdleViews.Utilisation(
                c.publicId(),
                c.model(),
                c.accelerators(),
                rule.metric(),
                rule.threshold(),
                rule.window().toSeconds(),
                rule.grace().toSeconds(),
                from,
                now,
                series,
                unavailable,
                decision);
    }

    /** {@code since} as an instant before now and at most {@code longest} ago (null: any); null when not given. */
    private static Instant since(String since, Instant now, Duration longest) {
        if (since == null || since.isBlank()) {
            return null;
        }
        String within = longest == null ? "" : ", at most " + longest.toDays() + " days ago";
        try {
            Instant t = Instant.parse(since.trim());
            if (!t.isBefore(now) || (longest != null && t.isBefore(now.minus(longest)))) {
                throw invalidSince(within);
            }
            return t;
        } catch (DateTimeParseException e) {
            throw invalidSince(within);
        }
    }

    private static ApiException invalidSince(String within) {
        return ApiException.badRequest(
                "InvalidRequest",
                "since is an ISO instant before now" + within,
                List.of(new Problem.FieldError("since", "an ISO instant such as 2026-11-30T10:00:00Z" + within)));
    }

    /**
     * What idle reclamation stopped in an account (for its admins and platform admins): sums per member and in all,
     * and the latest 50 stops, since {@code since} (default: ever).
     */
    public Uni<IdleViews.Reclaims> reclaims(String slug, String since, Caller caller) {
        Instant from = since(since, clock.instant(), null);
        Instant after = from == null ? Instant.EPOCH : from;
        return Panache.withSession(() -> accounts.administeredId(slug, caller)
                .flatMap(id -> Sql.rows(
                                "SELECT r.user_id, count(*), sum(r.gpu_hours),"
                                        + " round(sum(r.accelerators * EXTRACT(EPOCH FROM (r.stopped_at - r.idle_since))) / 3600, 3)"
                                        + " FROM idle_reclaims r WHERE r.account_id = ?1 AND r.stopped_at >= ?2"
                                        + " GROUP BY r.user_id",
                                id,
                                after)
                        .map(rows -> rows.stream().map(MemberSums::of).toList())
                        .flatMap(sums -> Sql.rows(
                                        "SELECT r.job_id, r.user_id, r.model, r.accelerators, r.idle_since, r.stopped_at,"
                                                + " r.gpu_hours FROM idle_reclaims r WHERE r.account_id = ?1 AND r.stopped_at >= ?2"
                                                + " ORDER BY r.stopped_at DESC, r.id DESC LIMIT 50",
                                        id,
                                        after)
                                .map(rows -> rows.stream().map(Stop::of).toList())
                                .flatMap(stops -> named(slug, from, sums, stops)))));
    }

    /** One member's sums in an account, as stored. */
    record MemberSums(long userId, long reclaims, BigDecimal gpuHours, BigDecimal idleGpuHours) {
        static MemberSums of(Object[] r) {
            return new MemberSums(Sql.longOf(r[0]), Sql.longOf(r[1]), (BigDecimal) r[2], (BigDecimal) r[3]);
        }
    }

    /** One stop for idleness, as stored. */
    record Stop(
            long jobId,
            long userId,
            String model,
            int accelerators,
            Instant idleSince,
            Instant stoppedAt,
            BigDecimal gpuHours) {
        static Stop of(Object[] r) {
            return new Stop(
                    Sql.longOf(r[0]),
                    Sql.longOf(r[1]),
                    (String) r[2],
                    ((Number) r[3]).intValue(),
                    Sql.instant(r[4]),
                    Sql.instant(r[5]),
                    (BigDecimal) r[6]);
        }
    }

    /** The report with the members' and jobs' names, read through their features. */
    private Uni<IdleViews.Reclaims> named(String slug, Instant from, List<MemberSums> sums, List<Stop> stops) {
        Set<Long> userIds = new HashSet<>();
        sums.forEach(m -> userIds.add(m.userId()));
        stops.forEach(s -> userIds.add(s.userId()));
        return people.people(userIds)
                .flatMap(names -> held.named(stops.stream().map(Stop::jobId).collect(Collectors.toSet()))
                        .map(jobs -> reclaims(
                                slug,
                                from,
                                perMember(sums, names),
                                stops.stream()
                                        .map(s -> new IdleViews.Reclaim(
                                                jobs.containsKey(s.jobId())
                                                        ? jobs.get(s.jobId()).publicId()
                                                        : null,
                                                jobs.containsKey(s.jobId())
                                                        ? jobs.get(s.jobId()).name()
                                                        : null,
                                                username(names.get(s.userId())),
                                                s.model(),
                                                s.accelerators(),
                                                s.idleSince(),
                                                s.stoppedAt(),
                                                s.gpuHours()))
                                        .toList())));
    }

    /** The members' sums, most GPU-hours reclaimed first, then by username. */
    private static List<IdleViews.UserTotals> perMember(List<MemberSums> sums, Map<Long, UserDirectory.Person> names) {
        return sums.stream()
                .map(m -> {
                    UserDirectory.Person p = names.get(m.userId());
                    return new IdleViews.UserTotals(
                            username(p),
                            p == null ? null : p.displayName(),
                            m.reclaims(),
                            m.gpuHours(),
                            m.idleGpuHours());
                })
                .sorted(Comparator.comparing(IdleViews.UserTotals::gpuHours, Comparator.reverseOrder())
                        .thenComparing(IdleViews.UserTotals::username, Comparator.nullsLast(Comparator.naturalOrder())))
                .toList();
    }

    private static String username(UserDirectory.Person p) {
        return p == null ? null : p.username();
    }

    private static IdleViews.Reclaims reclaims(
            String slug, Instant from, List<IdleViews.UserTotals> perUser, List<IdleViews.Reclaim> recent) {
        IdleViews.Totals total = new IdleViews.Totals(
                perUser.stream().mapToLong(IdleViews.UserTotals::reclaims).sum(),
                perUser.stream().map(IdleViews.UserTotals::gpuHours).reduce(BigDecimal.ZERO, BigDecimal::add),
                perUser.stream().map(IdleViews.UserTotals::idleGpuHours).reduce(BigDecimal.ZERO, BigDecimal::add));
        return new IdleViews.Reclaims(slug, from, total, perUser, recent);
    }
}
