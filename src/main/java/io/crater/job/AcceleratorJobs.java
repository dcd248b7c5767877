package io.crater.job;

import io.crater.platform.Sql;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The jobs' side of idle detection: the jobs that hold accelerators as it reads them, its warning mark on a job,
 * and jobs' names by id for its reports. Every method runs in the caller's session (or transaction).
 */
@ApplicationScoped
public class AcceleratorJobs {

    /**
     * A job with accelerators.
     *
     * @param milli the milli-units of its accelerator model it requests
     * @param subject running, interactive and not being stopped: the jobs idle detection judges
     * @param limitEndsAt when its time limit ends it, or null
     */
    public record Holding(
            long id,
            String publicId,
            String name,
            long accountId,
            long userId,
            String model,
            long milli,
            boolean subject,
            Instant startedAt,
            Instant idleWarnedAt,
            Instant limitEndsAt) {
        static final String SELECT = "SELECT j.id, j.public_id, j.name, j.account_id, j.user_id, r.resource, r.milli,"
                + " j.state = 'Running' AND j.interactive AND NOT j.stop_requested, j.started_at, j.idle_warned_at,"
                + " j.started_at + j.time_limit_s * interval '1 second' FROM jobs j"
                + " JOIN job_requests r ON r.job_id = j.id AND r.resource NOT IN ('cpu', 'memory') AND r.milli > 0";

        static Holding of(Object[] r) {
            return new Holding(
                    Sql.longOf(r[0]),
                    (String) r[1],
                    (String) r[2],
                    Sql.longOf(r[3]),
                    Sql.longOf(r[4]),
                    (String) r[5],
                    Sql.longOf(r[6]),
                    (Boolean) r[7],
                    Sql.instant(r[8]),
                    Sql.instant(r[9]),
                    Sql.instant(r[10]));
        }
    }

    /** The running interactive jobs that hold accelerators and are not being stopped. */
    public Uni<List<Holding>> interactive() {
        return Sql.rows(Holding.SELECT + " WHERE j.state = 'Running' AND j.interactive AND NOT j.stop_requested")
                .map(rows -> rows.stream().map(Holding::of).toList());
    }

    /** The job if it holds accelerators (in any state). */
    public Uni<Optional<Holding>> holding(long jobId) {
        return Sql.rows(Holding.SELECT + " WHERE j.id = ?1", jobId)
                .map(rows -> rows.stream().findFirst().map(Holding::of));
    }

    /** Marks a running job not being stopped as warned at {@code at}, once; true when this call marked it. */
    public Uni<Boolean> markIdleWarned(long jobId, Instant at) {
        return Sql.update(
                        "UPDATE jobs SET idle_warned_at = ?2 WHERE id = ?1 AND idle_warned_at IS NULL"
                                + " AND state = 'Running' AND NOT stop_requested",
                        jobId,
                        at)
                .map(n -> n > 0);
    }

    /** Forgets a job's idle warning. */
    public Uni<Void> clearIdleWarning(long jobId) {
        return Sql.update("UPDATE jobs SET idle_warned_at = NULL WHERE id = ?1 AND idle_warned_at IS NOT NULL", jobId)
                .replaceWithVoid();
    }

    /** A job as a report names it. */
    public record Named(long id, String publicId, String name) {
        static Named of(Object[] r) {
            return new Named(Sql.longOf(r[0]), (String) r[1], (String) r[2]);
        }
    }

    /** The jobs with these ids (unknown ids are left out). */
    public Uni<Map<Long, Named>> named(Collection<Long> ids) {
        if (ids.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return Sql.rows(
                        "SELECT id, public_id, name FROM jobs WHERE id IN (SELECT unnest(string_to_array(?1, ','))::bigint)",
                        Sql.commaList(ids))
                .map(rows -> {
                    Map<Long, Named> out = new HashMap<>();
                    rows.stream().map(Named::of).forEach(j -> out.put(j.id(), j));
                    return out;
                });
    }
}
