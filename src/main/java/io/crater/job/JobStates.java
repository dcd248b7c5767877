package io.crater.job;

import io.crater.platform.Json;
import io.crater.platform.Sql;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Writes jobs' state changes with their history rows, in the caller's transaction: one job's or a batch's. */
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

    /** The states a move stamps {@code finished_at} on, as an SQL list. */
    private static final String ENDS = "('Succeeded', 'Failed', 'Stopped', 'Rejected')";

    /** The changes of a batch as one parameter ({@link #records}), a row each in their order. */
    private static final String RECORDS = "jsonb_to_recordset(CAST(CAST(?1 AS text) AS jsonb)) AS m(id bigint,"
            + " from_state text, to_state text, reason text, message text, args jsonb, ord int)";

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
    static Uni<Boolean> move(long jobId, String from, String to, String reason, String message, Map<String, ?> args) {
        return moveAll(List.of(new Change(jobId, from, to, reason, message, args)))
                .map(moved -> !moved.isEmpty());
    }

    /** One job's move: from which state to which, with the history entry's reason, message and arguments. */
    record Change(long jobId, String from, String to, String reason, String message, Map<String, ?> args) {}

    /**
     * Moves every job that is still in its change's {@code from} state, in the caller's transaction, and writes what
     * follows the moves that took place (history rows, owed notices, usage intervals, wake-ups): a fixed number of
     * statements however many jobs move. A job another transaction moved first is left as it is. At most one change
     * per job. Gives the ids of the jobs moved.
     */
    static Uni<Set<Long>> moveAll(List<Change> changes) {
        if (changes.isEmpty()) {
            return Uni.createFrom().item(Set.of());
        }
        if (changes.stream().map(Change::jobId).distinct().count() != changes.size()) {
            return Uni.createFrom().failure(new IllegalArgumentException("a job moves at most once per batch"));
        }
        return Sql.longs(
                        "UPDATE jobs j SET state = m.to_state, updated_at = now(),"
                                + " started_at = CASE WHEN m.to_state = 'Running' THEN COALESCE(j.started_at, now())"
                                + " ELSE j.started_at END,"
                                + " finished_at = CASE WHEN m.to_state IN " + ENDS
                                + " THEN COALESCE(j.finished_at, now()) ELSE j.finished_at END"
                                // A card fault read before the job failed is its failure reason (JobFaults).
                                + ", state_reason = CASE WHEN m.to_state = 'Failed' AND j.gpu_fault IS NOT NULL THEN '"
                                + JobFaults.GPU_FAULT + "' ELSE m.reason END"
                                + ", state_message = CASE WHEN m.to_state = 'Failed' AND j.gpu_fault IS NOT NULL"
                                + " THEN (j.gpu_fault->>'message') || CASE WHEN m.message = '' THEN '' ELSE '; '"
                                + " || m.message END ELSE m.message END"
                                + " FROM " + RECORDS + " WHERE j.id = m.id AND j.state = m.from_state RETURNING j.id",
                        records(changes))
                .flatMap(ids -> {
                    Set<Long> moved = Set.copyOf(ids);
                    List<Change> done = changes.stream()
                            .filter(c -> moved.contains(c.jobId()))
                            .toList();
                    return written(done).replaceWith(moved);
                });
    }

    /** The changes as the JSON {@link #RECORDS} reads. */
    private static String records(List<Change> changes) {
        List<Map<String, Object>> out = new ArrayList<>(changes.size());
        for (Change c : changes) {
            Map<String, Object> m = new HashMap<>();
            m.put("id", c.jobId());
            m.put("from_state", c.from());
            m.put("to_state", c.to());
            m.put("reason", c.reason() == null ? "" : c.reason());
            m.put("message", c.message() == null ? "" : c.message());
            m.put("args", c.args() == null || c.args().isEmpty() ? null : c.args());
            m.put("ord", out.size());
            out.add(m);
        }
        return Json.write(out);
    }

    /** The history rows, owed notices, usage intervals and wake-ups that follow the moves that took place. */
    private static Uni<Void> written(List<Change> done) {
        if (done.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        List<String> ended = done.stream()
                .filter(c -> JobRow.terminal(c.to()))
                .map(c -> Long.toString(c.jobId()))
                .toList();
        return Sql.update(
                        "INSERT INTO job_transitions (job_id, from_state, to_state, reason, message, args)"
                                + " SELECT m.id, m.from_state, m.to_state, m.reason, m.message,"
                                + " NULLIF(m.args, 'null'::jsonb) FROM " + RECORDS + " ORDER BY m.ord",
                        records(done))
                .flatMap(n -> JobNotices.owed(done))
                .flatMap(n -> JobHoldings.follow(done))
                .flatMap(n -> ended.isEmpty()
                        ? Uni.createFrom().item(0L)
                        // Identical notifications of one transaction reach listeners once: one wake-up per batch.
                        : Sql.count(
                                "SELECT count(*) FROM (SELECT pg_notify('" + ENDED_CHANNEL + "', x),"
                                        + " pg_notify('" + ADMISSION_CHANNEL + "', ?2)"
                                        + " FROM unnest(string_to_array(?1, ',')) AS x) AS n",
                                String.join(",", ended),
                                ended.get(0)))
                .replaceWithVoid();
    }
}
