package io.crater.policy;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Every code a {@link Reason} may carry, in one place: the console renders each from its numbers and arguments
 * (src/main/webui/src/i18n/reasonCodes.json lists them, checked against this enumeration by a test).
 */
public enum ReasonCode {
    // Admission: quota, limits, capacity.
    AccountQuotaExceeded,
    MemberLimitReached,
    InsufficientCapacity,
    Unschedulable,
    PodLargerThanAnyNode,
    LargerThanFleet,
    CapacityHeldForOlderJob,
    Fragmentation,
    // Refused at submission or by a round.
    AccountExpired,
    ModelNotApproved,
    ModelRetired,
    InvalidSpec,
    // A kind or feature the account's members may not use (feature, account; docs/governance.md).
    FeatureDisabled,
    // Held back by the account's budget, or by the owner's allotment inside it.
    BudgetExhausted,
    AllotmentExhausted,
    // Admitted, not running yet: translated from the cluster.
    CreatingObjects,
    VolcanoQueueFull,
    GangWaiting,
    ImagePulling,
    ImagePullFailed,
    VolumeMountFailed,
    NodeNotReady,
    // A node that could hold the job is cordoned by a platform admin (node, reason, by).
    NodeCordoned,
    // Nodes with room the job may not use: taints it does not tolerate, another account's exclusive nodes, the
    // target nodes it named (docs/nodes.md).
    NodeTainted,
    NodeExclusive,
    TargetNodesBusy,
    NodesAvoided,
    // Why a start time is unknown.
    WaitsForJobsWithoutTimeLimit,
    CannotStartOnIdleCluster,
    TooManyJobsAhead,
    WaitsForBudget,
    WaitsForAllotment,
    BeyondHorizon,
    // File spaces.
    FileQuotaExceeded,
    // GPU health (io.crater.policy.GpuHealth): why a node is suspect or quarantined, with the card and the code.
    GpuXidFatal,
    GpuXidHardware,
    GpuXidRepeated,
    GpuXidApplication,
    GpuEccUncorrectable,
    JobsFailingOnNode,
    // Downloads from a model hub: the per-user limits (docs/assets.md, downloads).
    DownloadLimitReached;

    /** This code's reason. */
    public Reason reason(String message, Map<String, Long> numbers) {
        return new Reason(name(), message, numbers, Map.of());
    }

    /** This code's reason, with the names it quotes. */
    public Reason reason(String message, Map<String, Long> numbers, Map<String, String> args) {
        return new Reason(name(), message, numbers, args);
    }

    /** Every code, in declaration order. */
    public static List<String> codes() {
        return Arrays.stream(values()).map(Enum::name).toList();
    }
}
