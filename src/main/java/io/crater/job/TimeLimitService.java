package io.crater.job;

import io.crater.account.AccountTargets;
import io.crater.audit.AuditService;
import io.crater.identity.Caller;
import io.crater.platform.ApiException;
import io.crater.platform.Problem;
import io.crater.platform.Sql;
import io.crater.platform.Unis;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Per-account time limits: the default and longest run time of interactive and batch jobs, each either the
 * account's own (within the platform's maximum) or the platform's.
 */
@ApplicationScoped
public class TimeLimitService {

    private static final Pattern DURATION = Pattern.compile("^([0-9]{1,6})(s|m|h|d)$");

    @Inject
    JobsConfig config;

    @Inject
    AuditService audit;

    @Inject
    io.crater.notify.NotificationService notices;

    @Inject
    java.time.Clock clock;

    @Inject
    AccountTargets accounts;

    /**
     * Warns the owners of running jobs whose time limit ends within {@code crater.jobs.time-limit-warning}, once
     * per job (the kubelet's {@code activeDeadlineSeconds} then ends it). The admission leader calls it each round.
     */
    public Uni<Void> warnEnding() {
        return Panache.withTransaction(() -> Sql.rows(
                                "UPDATE jobs j SET limit_warned_at = now() WHERE j.state = 'Running' AND j.time_limit_s IS NOT NULL"
                                        + " AND j.limit_warned_at IS NULL"
                                        + " AND j.started_at + j.time_limit_s * interval '1 second' < now() + ?1 * interval '1 second'"
                                        + " RETURNING " + Ending.COLUMNS,
                                config.timeLimitWarning().toSeconds())
                        .flatMap(rows ->
                                Unis.sequentially(rows.stream().map(Ending::of).toList(), r -> {
                                    java.time.Instant end = r.end();
                                    long minutes = Math.max(
                                            0,
                                            Duration.between(clock.instant(), end)
                                                    .toMinutes());
                                    return notices.notify(
                                            r.userId(),
                                            "job.time-limit",
                                            "Your job " + r.name() + " (" + r.publicId()
                                                    + ") reaches its time limit at " + end + " (in " + minutes
                                                    + " min) and is stopped then: save your work.",
                                            "/jobs/" + r.publicId(),
                                            java.util.Map.of(
                                                    "job",
                                                    r.publicId(),
                                                    "name",
                                                    r.name(),
                                                    "at",
                                                    end.toString(),
                                                    "minutes",
                                                    minutes));
                                })))
                .replaceWithVoid();
    }

    /** A running job whose time limit ends soon, warned once. */
    record Ending(String publicId, long userId, String name, java.time.Instant end) {
        static final String COLUMNS =
                "j.public_id, j.user_id, j.name, j.started_at + j.time_limit_s * interval '1 second'";

        static Ending of(Object[] r) {
            return new Ending((String) r[0], Sql.longOf(r[1]), (String) r[2], Sql.instant(r[3]));
        }
    }

    /** The account's own settings (null: the platform's) and those in effect. */
    public record TimeLimits(
            String interactiveDefault,
            String interactiveMax,
            String batchDefault,
            String batchMax,
            Map<String, String> effective) {}

    public Uni<TimeLimits> get(String slug, Caller caller) {
        return Panache.withSession(() -> row(slug, caller)).map(this::view);
    }

    /** Sets the account's limits (platform admins); null or empty fields fall back to the platform's. */
    public Uni<TimeLimits> put(String slug, TimeLimits req, Caller caller) {
        if (!caller.platformAdmin()) {
            throw ApiException.forbidden("NotPlatformAdmin", "only platform admins set an account's time limits");
        }
        if (req == null) {
            throw ApiException.badRequest("InvalidTimeLimits", "a body is required", null);
        }
        List<Problem.FieldError> errors = new ArrayList<>();
        Long iDefault = seconds(req.interactiveDefault(), "interactiveDefault", config.interactiveMaxLimit(), errors);
        Long iMax = seconds(req.interactiveMax(), "interactiveMax", config.interactiveMaxLimit(), errors);
        Long bDefault = seconds(req.batchDefault(), "batchDefault", config.batchMaxLimit(), errors);
        Long bMax = seconds(req.batchMax(), "batchMax", config.batchMaxLimit(), errors);
        if (iDefault != null && iMax != null && iDefault > iMax) {
            errors.add(new Problem.FieldError("interactiveDefault", "not longer than interactiveMax"));
        }
        if (bDefault != null && bMax != null && bDefault > bMax) {
            errors.add(new Problem.FieldError("batchDefault", "not longer than batchMax"));
        }
        if (!errors.isEmpty()) {
            throw ApiException.badRequest("InvalidTimeLimits", "the time limits are not valid", errors);
        }
        return Panache.withTransaction(() -> row(slug, caller)
                        .flatMap(before -> accounts.setTimeLimits(before.id(), iDefault, iMax, bDefault, bMax)
                                .flatMap(n -> audit.record(
                                        caller.actor(slug),
                                        "account.time-limits",
                                        "account",
                                        slug,
                                        view(before),
                                        req))))
                .flatMap(v -> get(slug, caller));
    }

    private Uni<AccountTargets.Target> row(String slug, Caller caller) {
        return accounts.visible(slug, caller);
    }

    private TimeLimits view(AccountTargets.Target r) {
        JobSpecs.TimeLimits e = JobSpecs.TimeLimits.of(config)
                .narrowedBy(r.interactiveDefault(), r.interactiveMax(), r.batchDefault(), r.batchMax());
        Map<String, String> effective = new HashMap<>();
        effective.put("interactiveDefault", JobSpecs.format(e.interactiveDefault()));
        effective.put("interactiveMax", JobSpecs.format(e.interactiveMax()));
        effective.put("batchDefault", JobSpecs.format(e.batchDefault()));
        effective.put("batchMax", JobSpecs.format(e.batchMax()));
        return new TimeLimits(
                text(r.interactiveDefault()),
                text(r.interactiveMax()),
                text(r.batchDefault()),
                text(r.batchMax()),
                effective);
    }

    private static String text(Duration d) {
        return d == null ? null : JobSpecs.format(d);
    }

    private static Long seconds(String value, String field, Duration platformMax, List<Problem.FieldError> errors) {
        if (value == null || value.isBlank()) {
            return null;
        }
        var m = DURATION.matcher(value.trim());
        if (!m.matches()) {
            errors.add(new Problem.FieldError(field, "a duration such as 90m, 12h or 3d"));
            return null;
        }
        long n = Long.parseLong(m.group(1));
        long s = switch (m.group(2)) {
            case "s" -> n;
            case "m" -> n * 60;
            case "h" -> n * 3600;
            default -> n * 86_400;
        };
        if (s == 0 || s > platformMax.toSeconds()) {
            errors.add(new Problem.FieldError(field, "between 1s and the platform's " + JobSpecs.format(platformMax)));
            return null;
        }
        return s;
    }
}
