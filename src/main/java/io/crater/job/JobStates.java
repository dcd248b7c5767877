package io.crater.job;

import io.crater.platform.Sql;
import io.smallrye.mutiny.Uni;

/** Writes a job's state change with its history row, in the caller's transaction. */
public final class JobStates {

    /**
     * Reasons of stops Crater decided itself (taking capacity back, idle accelerators): a job stopped for one of them
     * ends Stopped with that reason and its message rather than a plain {@code Stopped}.
     */
    static final java.util.Set<String> CRATER_STOPS =
            java.util.Set.of("Reclaimed", "IdleReclaimed", "BudgetStopped", "NodeDrained", "TensorboardIdle");

    /**
     * The channel that wakes the admission leader on any replica: notified in the transaction that submits a job
     * and in every one that moves a job to a terminal state.
     */
    public static final String ADMISSION_CHANNEL = "crater_admission";

    /** The channel every replica hears a job end on (its id as payload): settlement charges it at once. */
    public static final String ENDED_CHANNEL = "crater_job_ended";

    private JobStates() {}

    /**
     * Moves the job from {@code from} to {@code to}, only if it is still in {@code from}: false, and nothing written,
     * when another transaction moved it first (a stop that committed while an admission round was deciding must
     * not be turned back into an admission).
     */
    static Uni<Boolean> move(long jobId, String from, String to, String reason, String message) {
        return move(jobId, from, to, reason, message, null);
    }

    /**
     * The same, with the entry's arguments (numbers and names, see {@link HistoryCode}) stored beside its English
     * message so the console can render it in the reader's language.
     */
    static Uni<Boolean> move(
            long jobId, String from, String to, String reason, String message, java.util.Map<String, ?> args) {
        String stamps = switch (to) {
            case "Running" -> ", started_at = COALESCE(started_at, now())";
            case "Succeeded", "Failed", "Stopped", "Rejected" -> ", finished_at = COALESCE(finished_at, now())";
            default -> "";
        };
        return Sql.update(
                        "UPDATE jobs SET state = ?2, updated_at = now()" + stamps
                                // A card fault read before the job failed is its failure reason (JobFaults).
                                + ", state_reason = CASE WHEN ?2 = 'Failed' AND gpu_fault IS NOT NULL THEN '"
                                + JobFaults.GPU_FAULT + "' ELSE ?3 END"
                                + ", state_message = CASE WHEN ?2 = 'Failed' AND gpu_fault IS NOT NULL"
                                + " THEN (gpu_fault->>'message') || CASE WHEN ?4 = '' THEN '' ELSE '; ' || ?4 END"
                                + " ELSE ?4 END WHERE id = ?1 AND state = ?5",
                        jobId,
                        to,
                        reason == null ? "" : reason,
                        message == null ? "" : message,
                        from)
                .flatMap(n -> n == 0 ? Uni.createFrom().item(false) : written(jobId, from, to, reason, message, args));
    }

    /** The history row, the usage intervals and the wake-up that follow a move that took place. */
    private static Uni<Boolean> written(
            long jobId, String from, String to, String reason, String message, java.util.Map<String, ?> args) {
        return Sql.update(
                        "INSERT INTO job_transitions (job_id, from_state, to_state, reason, message, args)"
                                + " VALUES (?1, ?2, ?3, ?4, ?5, CAST(NULLIF(CAST(?6 AS text), '') AS jsonb))",
                        jobId,
                        from,
                        to,
                        reason == null ? "" : reason,
                        message == null ? "" : message,
                        args == null || args.isEmpty() ? "" : io.crater.platform.Json.write(args))
                .flatMap(n -> JobNotices.owed(jobId, to))
                .flatMap(n -> JobHoldings.follow(jobId, to))
                .flatMap(n -> JobRow.terminal(to)
                        ? Sql.count(
                                "SELECT count(*) FROM (SELECT pg_notify('" + ADMISSION_CHANNEL + "', ?1),"
                                        + " pg_notify('" + ENDED_CHANNEL + "', ?1)) AS n",
                                Long.toString(jobId))
                        : Uni.createFrom().item(0L))
                .replaceWith(true);
    }
}
