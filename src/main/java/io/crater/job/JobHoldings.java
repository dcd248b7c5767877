package io.crater.job;

import io.crater.platform.Sql;
import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What jobs held, and when: one usage interval per job and resource from the moment the job enters a holding state
 * (its quota is taken) to the moment it leaves them, written with the state change itself, so a replayed change
 * opens nothing twice and a restart loses nothing. Settlement reads them here and records here how far each is
 * charged; nothing else about an interval ever changes once it is closed.
 */
public final class JobHoldings {

    /** The states in which a job holds its quota. */
    public static final Set<String> HOLDING = Set.of("Admitted", "Pending", "Running", "Stopping");

    private JobHoldings() {}

    /** One interval as settlement sees it; {@code endedAt} null while the job still holds it. */
    public record Interval(
            long id,
            long job,
            String jobPublicId,
            long account,
            long user,
            String resource,
            long milli,
            boolean backfill,
            int priority,
            Instant startedAt,
            Instant endedAt,
            Instant chargedUntil,
            long chargedMicros) {

        /** What {@link #of} reads, the job's priority last. */
        static final String COLUMNS = "u.id, u.job_id, j.public_id, u.account_id, u.user_id, u.resource, u.milli,"
                + " u.backfill, u.started_at, u.ended_at, u.charged_until, u.charged_micros, j.priority";

        static Interval of(Object[] r) {
            return new Interval(
                    Sql.longOf(r[0]),
                    Sql.longOf(r[1]),
                    (String) r[2],
                    Sql.longOf(r[3]),
                    Sql.longOf(r[4]),
                    (String) r[5],
                    Sql.longOf(r[6]),
                    (Boolean) r[7],
                    ((Number) r[12]).intValue(),
                    Sql.instant(r[8]),
                    Sql.instant(r[9]),
                    Sql.instant(r[10]),
                    Sql.longOf(r[11]));
        }

        /** The same interval charged up to {@code until}, {@code micros} in all. */
        public Interval charged(Instant until, long micros) {
            return new Interval(
                    id,
                    job,
                    jobPublicId,
                    account,
                    user,
                    resource,
                    milli,
                    backfill,
                    priority,
                    startedAt,
                    endedAt,
                    until,
                    micros);
        }
    }

    /**
     * Opens the intervals of the jobs that enter a holding state, closes those of the jobs that leave them: one
     * statement for each, however many jobs moved.
     */
    static Uni<Integer> follow(List<JobStates.Change> moves) {
        List<Long> holding = moves.stream()
                .filter(m -> HOLDING.contains(m.to()))
                .map(JobStates.Change::jobId)
                .sorted()
                .toList();
        List<Long> released = moves.stream()
                .filter(m -> !HOLDING.contains(m.to()))
                .map(JobStates.Change::jobId)
                .sorted()
                .toList();
        Uni<Integer> opened = holding.isEmpty()
                ? Uni.createFrom().item(0)
                : Sql.update(
                        "INSERT INTO usage_intervals (job_id, account_id, user_id, resource, milli, backfill, started_at,"
                                + " charged_until) SELECT j.id, j.account_id, j.user_id, r.resource, r.milli, j.backfill,"
                                + " now(), now() FROM jobs j JOIN job_requests r ON r.job_id = j.id"
                                + " WHERE j.id = ANY(string_to_array(?1, ',')::bigint[]) AND r.milli > 0"
                                + " ORDER BY j.id, r.resource"
                                + " ON CONFLICT (job_id, resource) WHERE ended_at IS NULL DO NOTHING",
                        Sql.commaList(holding));
        return opened.flatMap(n -> released.isEmpty()
                ? Uni.createFrom().item(n)
                : Sql.update(
                                // Locked in id order: two writers of several jobs' intervals never wait on each other
                                // in a circle.
                                "UPDATE usage_intervals SET ended_at = now() WHERE id IN (SELECT id FROM usage_intervals"
                                        + " WHERE job_id = ANY(string_to_array(?1, ',')::bigint[]) AND ended_at IS NULL"
                                        + " ORDER BY id FOR UPDATE)",
                                Sql.commaList(released))
                        .map(m -> n + m));
    }

    /**
     * Intervals settlement has to look at, in id order after {@code afterId}, at most {@code limit}: every open one,
     * and every closed one not charged exactly to its end.
     */
    public static Uni<List<Interval>> unsettled(long afterId, int limit) {
        return Sql.rows(
                        "SELECT " + Interval.COLUMNS + " FROM usage_intervals u JOIN jobs j ON j.id = u.job_id"
                                + " WHERE u.charged_until IS DISTINCT FROM u.ended_at AND u.id > ?1"
                                + " ORDER BY u.id LIMIT ?2",
                        afterId,
                        limit)
                .map(rows -> {
                    List<Interval> out = new ArrayList<>(rows.size());
                    for (Object[] r : rows) {
                        out.add(Interval.of(r));
                    }
                    return out;
                });
    }

    /** Records how far each interval is charged, in the caller's transaction (the one writing the ledger). */
    public static Uni<Void> recordCharged(List<Interval> charged) {
        if (charged.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return Sql.update(
                        "UPDATE usage_intervals u SET charged_until = TIMESTAMPTZ 'epoch' + v.until * INTERVAL '1 microsecond',"
                                + " charged_micros = v.micros FROM (SELECT unnest(string_to_array(?1, ',')::bigint[]) AS id,"
                                + " unnest(string_to_array(?2, ',')::bigint[]) AS until,"
                                + " unnest(string_to_array(?3, ',')::bigint[]) AS micros) v WHERE u.id = v.id",
                        join(charged.stream().map(i -> i.id())),
                        join(charged.stream().map(i -> epochMicros(i.chargedUntil()))),
                        join(charged.stream().map(i -> i.chargedMicros())))
                .replaceWithVoid();
    }

    /**
     * An accelerator interval as the meter sees it: measured from {@code measuredUntil} (its start when never
     * measured) on.
     */
    public record Unmeasured(
            long id,
            String jobPublicId,
            long account,
            long user,
            String resource,
            long milli,
            Instant startedAt,
            Instant endedAt,
            Instant measuredUntil) {

        /** What {@link #of} reads: the mark is the start when never measured. */
        static final String COLUMNS = "u.id, j.public_id, u.account_id, u.user_id, u.resource, u.milli, u.started_at,"
                + " u.ended_at, COALESCE(u.measured_until, u.started_at)";

        static Unmeasured of(Object[] r) {
            return new Unmeasured(
                    Sql.longOf(r[0]),
                    (String) r[1],
                    Sql.longOf(r[2]),
                    Sql.longOf(r[3]),
                    (String) r[4],
                    Sql.longOf(r[5]),
                    Sql.instant(r[6]),
                    Sql.instant(r[7]),
                    Sql.instant(r[8]));
        }
    }

    /** What measuring an interval from {@code from} up to {@code until} added: device-milliseconds measured and used. */
    public record Measure(long id, Instant from, Instant until, long measuredMs, long usedMs) {}

    /**
     * Accelerator intervals the meter has to look at, in id order after {@code afterId}, at most {@code limit}:
     * every open one, and every closed one not measured to its end.
     */
    public static Uni<List<Unmeasured>> unmeasured(long afterId, int limit) {
        return Sql.rows(
                        "SELECT " + Unmeasured.COLUMNS + " FROM usage_intervals u JOIN jobs j ON j.id = u.job_id"
                                + " WHERE (u.ended_at IS NULL OR u.measured_until IS NULL OR u.measured_until < u.ended_at)"
                                + " AND u.resource NOT IN ('cpu', 'memory') AND u.id > ?1 ORDER BY u.id LIMIT ?2",
                        afterId,
                        limit)
                .map(rows -> rows.stream().map(Unmeasured::of).toList());
    }

    /**
     * Adds what was measured to each interval still measured up to the measure's {@code from}, and moves its mark, in
     * the caller's transaction (the rollups'); the ids of the intervals it changed. An interval another replica
     * measured meanwhile is left as it is, so each stretch of time is counted once.
     */
    public static Uni<Set<Long>> recordMeasured(List<Measure> measures) {
        if (measures.isEmpty()) {
            return Uni.createFrom().item(Set.of());
        }
        return Sql.longs(
                        "UPDATE usage_intervals u SET measured_until = TIMESTAMPTZ 'epoch' + v.until * INTERVAL '1 microsecond',"
                                + " measured_ms = u.measured_ms + v.measured, used_ms = u.used_ms + v.used"
                                + " FROM (SELECT unnest(string_to_array(?1, ',')::bigint[]) AS id,"
                                + " unnest(string_to_array(?2, ',')::bigint[]) AS since,"
                                + " unnest(string_to_array(?3, ',')::bigint[]) AS until,"
                                + " unnest(string_to_array(?4, ',')::bigint[]) AS measured,"
                                + " unnest(string_to_array(?5, ',')::bigint[]) AS used) v WHERE u.id = v.id"
                                + " AND COALESCE(u.measured_until, u.started_at)"
                                + " = TIMESTAMPTZ 'epoch' + v.since * INTERVAL '1 microsecond' RETURNING u.id",
                        join(measures.stream().map(Measure::id)),
                        join(measures.stream().map(m -> epochMicros(m.from()))),
                        join(measures.stream().map(m -> epochMicros(m.until()))),
                        join(measures.stream().map(Measure::measuredMs)),
                        join(measures.stream().map(Measure::usedMs)))
                .map(ids -> ids.stream().collect(Collectors.toSet()));
    }

    /** Milli-units of a resource held now by an account's running jobs of one kind (backfill or not, priority). */
    public record Held(String resource, long milli, boolean backfill, int priority) {
        static Held of(Object[] r) {
            return new Held((String) r[0], ((Number) r[1]).longValue(), (Boolean) r[2], ((Number) r[3]).intValue());
        }
    }

    /** What the account's running jobs hold now, summed per resource and kind of job (what it pays differs). */
    public static Uni<List<Held>> openHoldings(long accountId) {
        return Sql.rows(
                        "SELECT u.resource, sum(u.milli), u.backfill, j.priority FROM usage_intervals u"
                                + " JOIN jobs j ON j.id = u.job_id WHERE u.account_id = ?1 AND u.ended_at IS NULL"
                                + " GROUP BY u.resource, u.backfill, j.priority ORDER BY u.resource",
                        accountId)
                .map(rows -> rows.stream().map(Held::of).toList());
    }

    /** Milli-units of a resource held now by an account's running jobs. */
    public record AccountHeld(long account, String resource, long milli) {
        static AccountHeld of(Object[] r) {
            return new AccountHeld(Sql.longOf(r[0]), (String) r[1], Sql.longOf(r[2]));
        }
    }

    /** What every account's running jobs hold now, in account and resource order. */
    public static Uni<List<AccountHeld>> openHoldingsByAccount() {
        return Sql.rows("SELECT account_id, resource, sum(milli) FROM usage_intervals WHERE ended_at IS NULL"
                        + " GROUP BY account_id, resource ORDER BY account_id, resource")
                .map(rows -> rows.stream().map(AccountHeld::of).toList());
    }

    /** A running job by its id and its public id. */
    public record Running(long id, String publicId) {
        static Running of(Object[] r) {
            return new Running(Sql.longOf(r[0]), (String) r[1]);
        }
    }

    /** The running jobs of an account not asked to stop yet, in id order. */
    public static Uni<List<Running>> running(long accountId) {
        return Sql.rows(
                        "SELECT id, public_id FROM jobs WHERE account_id = ?1 AND state = 'Running' AND NOT stop_requested"
                                + " ORDER BY id",
                        accountId)
                .map(rows -> rows.stream().map(Running::of).toList());
    }

    /** Microseconds since the epoch: PostgreSQL's own precision, so a stored time reads back equal. */
    public static long epochMicros(Instant t) {
        return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1000);
    }

    private static String join(java.util.stream.Stream<?> values) {
        return values.map(String::valueOf).collect(Collectors.joining(","));
    }
}
