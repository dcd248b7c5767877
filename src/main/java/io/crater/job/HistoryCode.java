package io.crater.job;

import java.util.Arrays;
import java.util.List;

/**
 * The codes of a job's history entries besides reason codes (a rejection's entry carries its reason's code), with
 * the arguments each carries. The console renders each from its code and arguments; the English message stays for
 * API clients and the CLI. src/main/webui/src/i18n/reasonCodes.json lists them, checked by a test.
 */
public enum HistoryCode {
    /** Entered the queue. */
    Submitted,
    /** Admitted; {@code borrowing}: the resources it borrows, comma-separated, empty when within the guarantee. */
    Admitted,
    /** A stop was asked for; {@code by}: the username. */
    StopRequested,
    /** Stopped on request ({@code queued}: 1 when before admission). */
    Stopped,
    /** Taken back for a claimant; {@code claimant}, {@code account}, {@code backfill} (1 or 0) when known. */
    Reclaimed,
    /** Stopped for idle accelerators; {@code model}, {@code accelerators}, {@code peakPercent}, {@code meanPercent}. */
    IdleReclaimed,
    /** The Volcano Job was deleted outside Crater. */
    VolcanoJobDeleted,
    /** The Volcano Job was gone when Crater looked. */
    VolcanoJobVanished,
    /** Volcano's reasons, with {@code running}, {@code pending}, {@code succeeded}, {@code failed}, {@code minAvailable}. */
    PodGroupPending,
    PodPending,
    PodRunning,
    PodFailed,
    TaskCompleted,
    /** Stopped because its account was archived; {@code account}, {@code by} (the platform admin's username). */
    AccountArchived,
    /** Stopped because its account's budget (stop policy) stayed spent past the grace period; {@code grace}. */
    BudgetStopped,
    /** Stopped because a platform admin drained its node; {@code node}, {@code by}, {@code reason}. */
    NodeDrained,
    /** A copy of a job drained off its node, in its place in line; {@code from} (the drained job), {@code node}. */
    Requeued,
    /** A TensorBoard panel's server stopped because nobody used it; {@code panel}, {@code name}, {@code idleSeconds}. */
    TensorboardIdle;

    /** Every code, in declaration order. */
    public static List<String> codes() {
        return Arrays.stream(values()).map(Enum::name).toList();
    }
}
