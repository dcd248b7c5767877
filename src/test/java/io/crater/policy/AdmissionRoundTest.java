package io.crater.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Whole admission rounds as a table, in the manner of Kueue's scheduler tests: each case names a fleet, accounts,
 * running and waiting jobs, and states which jobs the round admits, which keep waiting with which reasons and
 * numbers, which it rejects and which it takes back. No database, no API server, no clock: {@code now} is fixed.
 */
class AdmissionRoundTest {

    static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
    static final Instant PERIOD_END = Instant.parse("2027-01-01T00:00:00Z");
    static final Duration TOLERANCE = Duration.ofMinutes(30);
    static final Duration MIN_RUN = Duration.ofMinutes(10);

    // -- the table ------------------------------------------------------------------------------------------------

    static Stream<Case> cases() {
        return Stream.of(
                // quota and borrowing
                aCase("a job within its guarantee on free nodes is admitted, not borrowing")
                        .nodes(aNode("n1").a100(8))
                        .accounts(anAccount(1).a100(8, 8))
                        .queued(aJob("j1").account(1).a100(4))
                        .wantAdmitted("j1")
                        .wantBorrowing("j1"),
                aCase("above its guarantee but within max it is admitted as borrowing")
                        .nodes(aNode("n1").a100(8))
                        .accounts(anAccount(1).a100(2, 8))
                        .queued(aJob("j1").account(1).a100(4))
                        .wantAdmitted("j1")
                        .wantBorrowing("j1", A100),
                aCase("beyond the account's max it waits with the numbers")
                        .nodes(aNode("n1").a100(8))
                        .accounts(anAccount(1).a100(2, 2))
                        .queued(aJob("j1").account(1).a100(4))
                        .wantQueued("j1", "AccountQuotaExceeded", Map.of("requested", 4000L, "effectiveMax", 2000L)),
                aCase("a model with no quota line has a max of 0")
                        .nodes(aNode("n1").a100(8))
                        .accounts(anAccount(1).h100(8, 8))
                        .queued(aJob("j1").account(1).a100(1))
                        .wantQueued("j1", "AccountQuotaExceeded", Map.of("requested", 1000L, "effectiveMax", 0L)),
                aCase("an active grant adds to guarantee and max")
                        .nodes(aNode("n1").a100(8))
                        .accounts(anAccount(1).a100(0, 0).granted(A100, 4))
                        .queued(aJob("j1").account(1).a100(4))
                        .wantAdmitted("j1")
                        .wantBorrowing("j1"),
                aCase("usage of running jobs counts against the max")
                        .nodes(aNode("n1").a100(8))
                        .accounts(anAccount(1).a100(8, 8).used(A100, 6))
                        .queued(aJob("j1").account(1).a100(4))
                        .wantQueued("j1", "AccountQuotaExceeded", Map.of("used", 6000L, "requested", 4000L)),
                aCase("what one admission takes counts for the next job of the round")
                        .nodes(aNode("n1").a100(8), aNode("n2").a100(8))
                        .accounts(anAccount(1).a100(8, 8))
                        .queued(
                                aJob("j1").account(1).a100(6),
                                aJob("j2").account(1).a100(4))
                        .wantAdmitted("j1")
                        .wantQueued("j2", "AccountQuotaExceeded", Map.of("used", 6000L)),
                aCase("a job blocked by quota does not hold back a smaller one behind it")
                        .nodes(aNode("n1").a100(8))
                        .accounts(anAccount(1).a100(4, 4))
                        .queued(
                                aJob("big").account(1).a100(6),
                                aJob("small").account(1).a100(2))
                        .wantAdmitted("small")
                        .wantQueued("big", "AccountQuotaExceeded", Map.of()),
                // member limits
                aCase("a member's cap on a model holds below the account's quota")
                        .nodes(aNode("n1").a100(8))
                        .accounts(anAccount(1).a100(8, 8).memberCap(A100, 2))
                        .queued(aJob("j1").account(1).a100(4))
                        .wantQueued("j1", "MemberLimitReached", Map.of("requested", 4000L, "limit", 2000L)),
                aCase("a member's running-job limit lets the first job in and holds the second")
                        .nodes(aNode("n1").a100(8))
                        .accounts(anAccount(1).a100(8, 8).maxRunningJobs(1))
                        .queued(
                                aJob("j1").account(1).a100(1),
                                aJob("j2").account(1).a100(1))
                        .wantAdmitted("j1")
                        .wantQueued("j2", "MemberLimitReached", Map.of("jobs", 1L, "limit", 1L)),
                aCase("a member's interactive-session limit holds only interactive jobs")
                        .nodes(aNode("n1").a100(8))
                        .accounts(anAccount(1).a100(8, 8).maxInteractive(1))
                        .queued(
                                aJob("nb1").account(1).a100(1).interactive(),
                                aJob("nb2").account(1).a100(1).interactive(),
                                aJob("batch").account(1).a100(1))
                        .wantAdmitted("nb1", "batch")
                        .wantQueued("nb2", "MemberLimitReached", Map.of("sessions", 1L, "limit", 1L)),
                aCase("one member's usage does not count against another member's limit")
                        .nodes(aNode("n1").a100(8))
                        .accounts(anAccount(1).a100(8, 8).maxRunningJobs(1))
                        .queued(
                                aJob("ann").account(1).user(1).a100(1),
                                aJob("bob").account(1).user(2).a100(1))
                        .wantAdmitted("ann", "bob"),
                // fair order across accounts, priorities
                aCase("accounts with the same guarantee take turns")
                        .nodes(aNode("n1").a100(8))
                        .accounts(anAccount(1).a100(4, 8), anAccount(2).a100(4, 8))
                        .queued(
                                aJob("a1").account(1).a100(4).submitted(10),
                                aJob("a2").account(1).a100(4).submitted(9),
                                aJob("b1").account(2).a100(4).submitted(1))
                        .wantAdmitted("a1", "b1")
                        .wantQueued("a2", "InsufficientCapacity", Map.of()),
                aCase("the account furthest below its guarantee goes first, though it submitted later")
                        .nodes(aNode("n1").a100(8).used(4))
                        .accounts(
                                anAccount(1).a100(4, 8).used(A100, 4),
                                anAccount(2).a100(4, 8))
                        .queued(
                                aJob("a1").account(1).a100(4).submitted(10),
                                aJob("b1").account(2).a100(4).submitted(1))
                        .wantAdmitted("b1")
                        .wantQueued("a1", "InsufficientCapacity", Map.of()),
                aCase("an account without a guarantee for the model comes after one with it")
                        .nodes(aNode("n1").a100(4))
                        .accounts(anAccount(1).a100(0, 8), anAccount(2).a100(4, 8))
                        .queued(
                                aJob("a1").account(1).a100(4).submitted(10),
                                aJob("b1").account(2).a100(4).submitted(1))
                        .wantAdmitted("b1")
                        .wantQueued("a1", "InsufficientCapacity", Map.of()),
                aCase("a high-priority job goes before an earlier normal one of its account")
                        .nodes(aNode("n1").a100(4))
                        .accounts(anAccount(1).a100(8, 8))
                        .queued(
                                aJob("normal").account(1).a100(4).submitted(10),
                                aJob("urgent").account(1).a100(4).priority(2).submitted(1))
                        .wantAdmitted("urgent")
                        .wantQueued("normal", "InsufficientCapacity", Map.of()),
                aCase("a low-priority job goes after a later normal one of its account")
                        .nodes(aNode("n1").a100(4))
                        .accounts(anAccount(1).a100(8, 8))
                        .queued(
                                aJob("low").account(1).a100(4).priority(0).submitted(10),
                                aJob("normal").account(1).a100(4).submitted(1))
                        .wantAdmitted("normal")
                        .wantQueued("low", "InsufficientCapacity", Map.of()),
                // aging holds
                aCase("a job waiting past the tolerance holds the nodes it needs against smaller ones")
                        .nodes(aNode("n1").a100(8).used(4))
                        .accounts(anAccount(1).a100(16, 16), anAccount(2).a100(16, 16))
                        .queued(
                                aJob("old").account(1).a100(8).submitted(45),
                                aJob("small").account(2).a100(2).submitted(1))
                        .wantQueued("old", "InsufficientCapacity", Map.of())
                        .wantQueued(
                                "small",
                                "CapacityHeldForOlderJob",
                                Map.of("waitedSeconds", 2700L, "toleranceSeconds", 1800L)),
                aCase("before the tolerance a smaller job passes a blocked one")
                        .nodes(aNode("n1").a100(8).used(4))
                        .accounts(anAccount(1).a100(16, 16), anAccount(2).a100(16, 16))
                        .queued(
                                aJob("old").account(1).a100(8).submitted(20),
                                aJob("small").account(2).a100(2).submitted(1))
                        .wantAdmitted("small")
                        .wantQueued("old", "InsufficientCapacity", Map.of()),
                aCase("a hold covers only the nodes of its own model")
                        .nodes(aNode("n1").a100(8).used(4), aNode("h1").h100(8))
                        .accounts(anAccount(1).a100(16, 16), anAccount(2).h100(16, 16))
                        .queued(
                                aJob("old").account(1).a100(8).submitted(45),
                                aJob("other").account(2).h100(2).submitted(1))
                        .wantAdmitted("other")
                        .wantQueued("old", "InsufficientCapacity", Map.of()),
                aCase("an aged job waiting for its account's quota holds that quota against the account's later jobs")
                        .nodes(aNode("n1").a100(8))
                        .accounts(
                                anAccount(1).a100(4, 4).used(A100, 2),
                                anAccount(2).a100(4, 4))
                        .queued(
                                aJob("old").account(1).a100(4).submitted(45),
                                aJob("later").account(1).a100(2).submitted(1),
                                aJob("theirs").account(2).a100(2).submitted(1))
                        .wantAdmitted("theirs")
                        .wantQueued("old", "AccountQuotaExceeded", Map.of())
                        .wantQueued("later", "CapacityHeldForOlderJob", Map.of("toleranceSeconds", 1800L)),
                aCase("a job asking more than its account's max never holds the quota")
                        .nodes(aNode("n1").a100(8))
                        .accounts(anAccount(1).a100(4, 4))
                        .queued(
                                aJob("huge").account(1).a100(6).submitted(45),
                                aJob("later").account(1).a100(2).submitted(1))
                        .wantAdmitted("later")
                        .wantQueued("huge", "AccountQuotaExceeded", Map.of("requested", 6000L, "effectiveMax", 4000L)),
                // backfill
                aCase("a backfill job starts on idle capacity outside any quota")
                        .nodes(aNode("n1").a100(8))
                        .accounts(anAccount(1))
                        .queued(aJob("bf").account(1).a100(8).backfill())
                        .wantAdmitted("bf"),
                aCase("backfill jobs come after every other job, however early they were submitted")
                        .nodes(aNode("n1").a100(4))
                        .accounts(anAccount(1).a100(8, 8))
                        .queued(
                                aJob("bf").account(1).a100(4).backfill().submitted(60),
                                aJob("j1").account(1).a100(4))
                        .wantAdmitted("j1")
                        .wantQueued("bf", "InsufficientCapacity", Map.of()),
                aCase("a backfill job counts against no quota or member limit")
                        .nodes(aNode("n1").a100(8))
                        .accounts(anAccount(1).a100(4, 4).maxRunningJobs(1))
                        .queued(
                                aJob("j1").account(1).a100(4).submitted(5),
                                aJob("bf").account(1).a100(4).backfill())
                        .wantAdmitted("j1", "bf"),
                // reclaim
                aCase("a job that fits its quota but not the nodes takes back a backfill job")
                        .nodes(aNode("n1").a100(8).used(8))
                        .accounts(anAccount(1).a100(0, 8), anAccount(2))
                        .running(
                                aRunning("bf").account(2).on("n1", 8).backfill().started(60))
                        .queued(aJob("j1").account(1).a100(8))
                        .wantQueued("j1", "InsufficientCapacity", Map.of())
                        .wantReclaimed("j1", "bf"),
                aCase(
                                "within its guarantee it takes back the newest borrowing job of the account furthest above its own")
                        .nodes(aNode("n1").a100(8).used(8))
                        .accounts(
                                anAccount(1).a100(4, 8), anAccount(2).a100(0, 8).used(A100, 8))
                        .running(
                                aRunning("old")
                                        .account(2)
                                        .on("n1", 4)
                                        .borrowing()
                                        .started(120),
                                aRunning("new")
                                        .account(2)
                                        .on("n1", 4)
                                        .borrowing()
                                        .started(20))
                        .queued(aJob("j1").account(1).a100(4))
                        .wantReclaimed("j1", "new"),
                aCase("above its guarantee it takes back only backfill jobs, never borrowing ones")
                        .nodes(aNode("n1").a100(8).used(8))
                        .accounts(
                                anAccount(1).a100(0, 8), anAccount(2).a100(0, 8).used(A100, 8))
                        .running(
                                aRunning("b").account(2).on("n1", 8).borrowing().started(120))
                        .queued(aJob("j1").account(1).a100(4))
                        .wantQueued("j1", "InsufficientCapacity", Map.of())
                        .wantNoReclaim(),
                aCase("a borrowing job younger than the minimum run time is not taken back")
                        .nodes(aNode("n1").a100(8).used(8))
                        .accounts(
                                anAccount(1).a100(4, 8), anAccount(2).a100(0, 8).used(A100, 8))
                        .running(aRunning("young")
                                .account(2)
                                .on("n1", 8)
                                .borrowing()
                                .started(5))
                        .queued(aJob("j1").account(1).a100(4))
                        .wantNoReclaim(),
                aCase("a job that is not borrowing is never taken back")
                        .nodes(aNode("n1").a100(8).used(8))
                        .accounts(
                                anAccount(1).a100(4, 8), anAccount(2).a100(8, 8).used(A100, 8))
                        .running(aRunning("own").account(2).on("n1", 8).started(120))
                        .queued(aJob("j1").account(1).a100(4))
                        .wantNoReclaim(),
                aCase("no new victims while jobs being stopped already free the room")
                        .nodes(aNode("n1").a100(8).used(8))
                        .accounts(anAccount(1).a100(0, 8), anAccount(2))
                        .running(aRunning("bf2")
                                .account(2)
                                .on("n1", 4)
                                .backfill()
                                .started(60))
                        .releasing("n1", 4)
                        .queued(aJob("j1").account(1).a100(4))
                        .wantNoReclaim(),
                aCase("victims are taken only where they make room for the claimant's model")
                        .nodes(aNode("n1").a100(8).used(8), aNode("h1").h100(8).used(8))
                        .accounts(anAccount(1).a100(0, 8), anAccount(2))
                        .running(
                                aRunning("bf").account(2).on("h1", 8).backfill().started(60))
                        .queued(aJob("j1").account(1).a100(4))
                        .wantNoReclaim(),
                aCase("twins asking the same make one claim")
                        .nodes(aNode("n1").a100(8).used(8))
                        .accounts(anAccount(1).a100(0, 16))
                        .queued(
                                aJob("t1").account(1).a100(4),
                                aJob("t2").account(1).a100(4))
                        .wantClaims("t1"),
                // gangs, placement, reservations, what can never run
                aCase("a gang is admitted only when every pod has a node")
                        .nodes(aNode("n1").a100(8), aNode("n2").a100(8))
                        .accounts(anAccount(1).a100(16, 16))
                        .queued(aJob("ddp").account(1).pods(2).a100(8))
                        .wantAdmitted("ddp")
                        .wantPlacement("ddp", Map.of("pod-0", "n1", "pod-1", "n2")),
                aCase("free GPUs scattered over nodes do not make room for one large pod")
                        .nodes(aNode("n1").a100(8).used(4), aNode("n2").a100(8).used(4))
                        .accounts(anAccount(1).a100(16, 16))
                        .queued(aJob("big").account(1).a100(8))
                        .wantQueued("big", "InsufficientCapacity", Map.of()),
                aCase("a pod larger than any node is rejected at once")
                        .nodes(aNode("n1").a100(8))
                        .accounts(anAccount(1).a100(16, 16))
                        .queued(aJob("big").account(1).a100(16))
                        .wantRejected(
                                "big", "PodLargerThanAnyNode", Map.of("requested", 16_000L, "largestNode", 8000L)),
                aCase("a gang larger than the whole fleet is rejected at once")
                        .nodes(aNode("n1").a100(8), aNode("n2").a100(8))
                        .accounts(anAccount(1).a100(32, 32))
                        .queued(aJob("huge").account(1).pods(3).a100(8))
                        .wantRejected("huge", "LargerThanFleet", Map.of("requested", 24_000L, "fleet", 16_000L)),
                aCase("an admitted job whose pods are not bound yet keeps its room")
                        .nodes(aNode("n1").a100(8))
                        .accounts(anAccount(1).a100(16, 16))
                        .reserved("earlier", 6)
                        .queued(aJob("j1").account(1).a100(4))
                        .wantQueued("j1", "InsufficientCapacity", Map.of()),
                aCase("a cordoned node takes no pods")
                        .nodes(aNode("n1").a100(8).cordoned(), aNode("n2").a100(8))
                        .accounts(anAccount(1).a100(16, 16))
                        .queued(aJob("j1").account(1).a100(8))
                        .wantAdmitted("j1")
                        .wantPlacement("j1", Map.of("pod-0", "n2")),
                // taints, exclusive nodes and target nodes (docs/nodes.md): room the job may not use is no room
                aCase("a node tainted NoSchedule is no room for a job that does not tolerate it, and the wait says so")
                        .nodes(
                                aNode("n1").a100(8).tainted("dedicated", "vision", "NoSchedule"),
                                aNode("n2").a100(8).used(8))
                        .accounts(anAccount(1).a100(16, 16))
                        .queued(aJob("j1").account(1).a100(4))
                        .wantQueued("j1", "InsufficientCapacity", Map.of("taintedNodes", 1L, "nodes", 2L))
                        .wantExplained("j1", "NodeTainted", Map.of("nodes", 1L, "free", 8000L)),
                aCase("a NoExecute taint keeps pods off as NoSchedule does")
                        .nodes(aNode("n1").a100(8).tainted("gpu-broken", "", "NoExecute"))
                        .accounts(anAccount(1).a100(16, 16))
                        .queued(aJob("j1").account(1).a100(4))
                        .wantQueued("j1", "InsufficientCapacity", Map.of("taintedNodes", 1L))
                        .wantExplained("j1", "NodeTainted", Map.of("nodes", 1L, "free", 8000L)),
                aCase("a PreferNoSchedule taint only steers: the node is room")
                        .nodes(aNode("n1").a100(8).tainted("dedicated", "vision", "PreferNoSchedule"))
                        .accounts(anAccount(1).a100(16, 16))
                        .queued(aJob("j1").account(1).a100(4))
                        .wantAdmitted("j1")
                        .wantPlacement("j1", Map.of("pod-0", "n1")),
                aCase("a job tolerating the taint is placed on the tainted node")
                        .nodes(
                                aNode("n1").a100(8).tainted("dedicated", "vision", "NoSchedule"),
                                aNode("n2").a100(8).used(8))
                        .accounts(anAccount(1).a100(16, 16))
                        .queued(aJob("j1").account(1).a100(4).tolerates("dedicated", "vision"))
                        .wantAdmitted("j1")
                        .wantPlacement("j1", Map.of("pod-0", "n1")),
                aCase("an exclusive node is room for its account's jobs only; others wait and are told")
                        .nodes(
                                aNode("x1").a100(8).exclusiveTo(2),
                                aNode("n1").a100(8).used(6))
                        .accounts(anAccount(1).a100(16, 16), anAccount(2).a100(16, 16))
                        .queued(
                                aJob("theirs").account(1).a100(4).submitted(10),
                                aJob("ours").account(2).a100(8).submitted(1))
                        .wantAdmitted("ours")
                        .wantPlacement("ours", Map.of("pod-0", "x1"))
                        .wantQueued("theirs", "InsufficientCapacity", Map.of("taintedNodes", 1L)),
                aCase("another account's exclusive node with room is named as exclusive, not as a taint")
                        .nodes(
                                aNode("x1").a100(8).exclusiveTo(2),
                                aNode("n1").a100(8).used(6))
                        .accounts(anAccount(1).a100(16, 16), anAccount(2).a100(16, 16))
                        .queued(aJob("theirs").account(1).a100(4))
                        .wantQueued("theirs", "InsufficientCapacity", Map.of("taintedNodes", 1L))
                        .wantExplained("theirs", "NodeExclusive", Map.of("nodes", 1L, "free", 8000L)),
                aCase("an exclusive node does not keep its own account off shared nodes")
                        .nodes(
                                aNode("x1").a100(8).exclusiveTo(2).used(8),
                                aNode("n1").a100(8))
                        .accounts(anAccount(2).a100(16, 16))
                        .queued(aJob("ours").account(2).a100(4))
                        .wantAdmitted("ours")
                        .wantPlacement("ours", Map.of("pod-0", "n1")),
                aCase("an allow list keeps the job on its nodes though others are free; the wait names them")
                        .nodes(
                                aNode("a").a100(8).used(6),
                                aNode("b").a100(8).used(8),
                                aNode("c").a100(8))
                        .accounts(anAccount(1).a100(16, 16))
                        .queued(aJob("j1").account(1).a100(4).only("a", "b"))
                        .wantQueued("j1", "InsufficientCapacity", Map.of("notTargeted", 1L))
                        .wantExplained(
                                "j1", "TargetNodesBusy", Map.of("targetNodes", 2L, "free", 2000L, "missing", 0L)),
                aCase("an allow list places the job on the node it names, against bin packing")
                        .nodes(aNode("n1").a100(8).used(2), aNode("n2").a100(8))
                        .accounts(anAccount(1).a100(16, 16))
                        .queued(aJob("j1").account(1).a100(4).only("n2"))
                        .wantAdmitted("j1")
                        .wantPlacement("j1", Map.of("pod-0", "n2")),
                aCase("a deny list keeps the job off the nodes it names")
                        .nodes(aNode("n1").a100(8).used(2), aNode("n2").a100(8))
                        .accounts(anAccount(1).a100(16, 16))
                        .queued(aJob("j1").account(1).pods(2).a100(2).avoids("n1"))
                        .wantAdmitted("j1")
                        .wantPlacement("j1", Map.of("pod-0", "n2", "pod-1", "n2")),
                aCase("a deny list that leaves only busy nodes waits, and the wait names the nodes avoided")
                        .nodes(aNode("n1").a100(8), aNode("n2").a100(8).used(8))
                        .accounts(anAccount(1).a100(16, 16))
                        .queued(aJob("j1").account(1).a100(4).avoids("n1"))
                        .wantQueued("j1", "InsufficientCapacity", Map.of("notTargeted", 1L))
                        .wantExplained("j1", "NodesAvoided", Map.of("nodes", 1L, "free", 8000L)),
                aCase("target nodes too small for a pod make the job impossible: rejected with the largest of them")
                        .nodes(aNode("small").a100(4), aNode("big").a100(8))
                        .accounts(anAccount(1).a100(16, 16))
                        .queued(aJob("j1").account(1).a100(8).only("small"))
                        .wantRejected("j1", "PodLargerThanAnyNode", Map.of("requested", 8000L, "largestNode", 4000L)),
                aCase("a taint is lifted some day: it never makes a job impossible")
                        .nodes(aNode("n1").a100(8).tainted("dedicated", "vision", "NoSchedule"))
                        .accounts(anAccount(1).a100(16, 16))
                        .queued(aJob("j1").account(1).a100(8))
                        .wantQueued("j1", "InsufficientCapacity", Map.of("taintedNodes", 1L)),
                // budgets and allotments (1 point = 1,000,000 micro-units; each job's cost up to its time limit)
                aCase("a job costing more than what is left of a hard budget waits with the numbers")
                        .nodes(aNode("n1").a100(8))
                        .accounts(anAccount(1).a100(8, 8))
                        .budget(1, 5_000_000, "hard")
                        .queued(aJob("j1").account(1).a100(1).costs(10_000_000))
                        .wantQueued(
                                "j1",
                                "BudgetExhausted",
                                Map.of(
                                        "remainingMicros", 5_000_000L,
                                        "projectedMicros", 10_000_000L,
                                        "periodEndsEpochSeconds", PERIOD_END.getEpochSecond())),
                aCase("jobs admitted earlier in the round count against the account's budget")
                        .nodes(aNode("n1").a100(8))
                        .accounts(anAccount(1).a100(8, 8))
                        .budget(1, 10_000_000, "hard")
                        .queued(
                                aJob("j1").account(1).a100(1).costs(6_000_000),
                                aJob("j2").account(1).a100(1).costs(6_000_000))
                        .wantAdmitted("j1")
                        .wantQueued("j2", "BudgetExhausted", Map.of("remainingMicros", 4_000_000L)),
                aCase("a soft budget admits a job that does not fit it")
                        .nodes(aNode("n1").a100(8))
                        .accounts(anAccount(1).a100(8, 8))
                        .budget(1, 1_000_000, "soft")
                        .queued(aJob("j1").account(1).a100(1).costs(10_000_000))
                        .wantAdmitted("j1"),
                aCase("a job over what is left of its owner's allotment waits though the account has money")
                        .nodes(aNode("n1").a100(8))
                        .accounts(anAccount(1).a100(8, 8))
                        .budget(1, 100_000_000, "hard")
                        .allotment(1, 1, 10_000_000, 3_000_000)
                        .queued(aJob("j1").account(1).user(1).a100(1).costs(5_000_000))
                        .wantQueued(
                                "j1",
                                "AllotmentExhausted",
                                Map.of(
                                        "remainingMicros", 3_000_000L,
                                        "projectedMicros", 5_000_000L,
                                        "allotmentMicros", 10_000_000L,
                                        "periodEndsEpochSeconds", PERIOD_END.getEpochSecond())),
                aCase("a member's jobs admitted earlier in the round count against their allotment, not another's")
                        .nodes(aNode("n1").a100(8))
                        .accounts(anAccount(1).a100(8, 8))
                        .budget(1, 100_000_000, "hard")
                        .allotment(1, 1, 10_000_000, 10_000_000)
                        .queued(
                                aJob("ann1").account(1).user(1).a100(1).costs(6_000_000),
                                aJob("ann2").account(1).user(1).a100(1).costs(6_000_000),
                                aJob("bob").account(1).user(2).a100(1).costs(6_000_000))
                        .wantAdmitted("ann1", "bob")
                        .wantQueued(
                                "ann2",
                                "AllotmentExhausted",
                                Map.of("remainingMicros", 4_000_000L, "projectedMicros", 6_000_000L)),
                aCase("an overspent allotment holds the member's next job back with a negative rest")
                        .nodes(aNode("n1").a100(8))
                        .accounts(anAccount(1).a100(8, 8))
                        .budget(1, 100_000_000, "stop")
                        .allotment(1, 1, 10_000_000, -2_500_000)
                        .queued(aJob("j1").account(1).user(1).a100(1).costs(1_000_000))
                        .wantQueued("j1", "AllotmentExhausted", Map.of("remainingMicros", -2_500_000L)),
                aCase("under a soft budget a job over its owner's allotment is admitted")
                        .nodes(aNode("n1").a100(8))
                        .accounts(anAccount(1).a100(8, 8))
                        .budget(1, 100_000_000, "soft")
                        .allotment(1, 1, 1_000_000, 1_000_000)
                        .queued(aJob("j1").account(1).user(1).a100(1).costs(5_000_000))
                        .wantAdmitted("j1"),
                aCase("a job over both the budget and its allotment waits with both reasons")
                        .nodes(aNode("n1").a100(8))
                        .accounts(anAccount(1).a100(8, 8))
                        .budget(1, 2_000_000, "hard")
                        .allotment(1, 1, 2_000_000, 1_000_000)
                        .queued(aJob("j1").account(1).user(1).a100(1).costs(5_000_000))
                        .wantQueued("j1", "BudgetExhausted", Map.of("remainingMicros", 2_000_000L))
                        .wantQueued("j1", "AllotmentExhausted", Map.of("remainingMicros", 1_000_000L)),
                aCase("a job that fits its allotment goes on to quota and capacity")
                        .nodes(aNode("n1").a100(8))
                        .accounts(anAccount(1).a100(2, 2))
                        .budget(1, 100_000_000, "hard")
                        .allotment(1, 1, 10_000_000, 10_000_000)
                        .queued(aJob("j1").account(1).user(1).a100(4).costs(5_000_000))
                        .wantQueued("j1", "AccountQuotaExceeded", Map.of("requested", 4000L)),
                aCase("a job whose stored spec no longer passes the checks is rejected")
                        .nodes(aNode("n1").a100(8))
                        .accounts(anAccount(1).a100(8, 8))
                        .queued(
                                aJob("bad").account(1).invalid(),
                                aJob("good").account(1).a100(2))
                        .wantAdmitted("good")
                        .wantRejected("bad", "InvalidSpec", Map.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void round(Case c) {
        AdmissionRound.Outcome out = AdmissionRound.run(c.snapshot());

        assertThat(ids(out.admitted())).as("admitted").containsExactlyInAnyOrderElementsOf(c.wantAdmitted);
        assertThat(ids(out.rejected())).as("rejected").containsExactlyInAnyOrderElementsOf(c.wantRejected.keySet());
        Map<String, List<Reason>> waiting = new HashMap<>();
        out.waiting().forEach((seq, reasons) -> waiting.put(c.nameOf(seq), reasons));
        assertThat(waiting.keySet()).as("waiting").containsExactlyInAnyOrderElementsOf(c.expectedWaiting());
        c.wantQueued.forEach((job, wants) -> wants.forEach(want -> assertReason(waiting.get(job), want, job)));
        out.rejected()
                .forEach(d -> assertReason(
                        d.reasons(), c.wantRejected.get(d.job().job()), d.job().job()));
        c.wantBorrowing.forEach((job, want) -> assertThat(decided(out, job).borrowing())
                .as("borrowing of " + job)
                .containsExactlyElementsOf(want));
        // The wait explanation, against the nodes as the round left them.
        c.wantExplained.forEach((job, wants) -> wants.forEach(
                want -> assertReason(NodeLimits.explain(out.nodes(), c.job(job).pods()), want, job)));
        c.wantPlacement.forEach((job, want) -> assertThat(decided(out, job).placement())
                .as("placement of " + job)
                .isEqualTo(want));
        if (c.wantClaims != null) {
            assertThat(out.claims().stream().map(AdmissionRound.Job::job))
                    .as("claims")
                    .containsExactlyElementsOf(c.wantClaims);
        }
        if (c.checkReclaim) {
            AdmissionRound.Reclaiming r = AdmissionRound.reclaim(out, c.running, c.releasing, NOW, MIN_RUN);
            if (c.wantReclaimed.isEmpty()) {
                assertThat(r).as("reclaim").isNull();
            } else {
                assertThat(r).as("reclaim").isNotNull();
                assertThat(r.claimant().job()).as("claimant").isEqualTo(c.wantClaimant);
                assertThat(r.plan().victims().stream().map(Reclaim.Running::job))
                        .as("victims")
                        .containsExactlyElementsOf(c.wantReclaimed);
            }
        }
    }

    private static void assertReason(List<Reason> reasons, Want want, String job) {
        assertThat(reasons).as("reasons of " + job).isNotEmpty();
        Reason r = reasons.stream()
                .filter(x -> x.code().equals(want.code()))
                .findFirst()
                .orElseThrow(() -> new AssertionError(job + " has no " + want.code() + ": " + reasons));
        assertThat(r.numbers()).as("numbers of " + job + " " + want.code()).containsAllEntriesOf(want.numbers());
        assertThat(r.message()).as("message of " + job).isNotBlank();
    }

    private static AdmissionRound.Decided decided(AdmissionRound.Outcome out, String job) {
        return out.decided().stream()
                .filter(d -> d.job().job().equals(job))
                .findFirst()
                .orElseThrow(() -> new AssertionError(job + " was not decided"));
    }

    private static List<String> ids(List<AdmissionRound.Decided> decided) {
        return decided.stream().map(d -> d.job().job()).toList();
    }

    // -- fixtures -------------------------------------------------------------------------------------------------

    static final String A100 = "nvidia-a100-80gb";
    static final String H100 = "nvidia-h100-80gb";
    static final String GPU = "nvidia.com/gpu";
    static final String PRODUCT = "nvidia.com/gpu.product";
    static final Map<String, String> ON_A100 = Map.of(PRODUCT, "NVIDIA-A100-SXM4-80GB");
    static final Map<String, String> ON_H100 = Map.of(PRODUCT, "NVIDIA-H100-80GB-HBM3");

    record Want(String code, Map<String, Long> numbers) {}

    static Case aCase(String name) {
        return new Case(name);
    }

    static NodeFx aNode(String name) {
        return new NodeFx(name);
    }

    static AccountFx anAccount(long id) {
        return new AccountFx(id);
    }

    static JobFx aJob(String name) {
        return new JobFx(name);
    }

    static RunningFx aRunning(String name) {
        return new RunningFx(name);
    }

    static final class Case {
        final String name;
        final List<NodeCapacity> nodes = new ArrayList<>();
        final List<AccountFx> accounts = new ArrayList<>();
        final List<JobFx> queued = new ArrayList<>();
        final List<AdmissionRound.Reservation> reserved = new ArrayList<>();
        final List<Reclaim.Running> running = new ArrayList<>();
        final Map<String, Resources> releasing = new HashMap<>();
        final List<String> wantAdmitted = new ArrayList<>();
        final Map<String, List<Want>> wantQueued = new LinkedHashMap<>();
        final Map<Long, AdmissionRound.Budget> budgets = new HashMap<>();
        final Map<String, AdmissionRound.Allotment> allotments = new HashMap<>();
        final Map<String, Want> wantRejected = new LinkedHashMap<>();
        final Map<String, List<String>> wantBorrowing = new LinkedHashMap<>();
        final Map<String, Map<String, String>> wantPlacement = new LinkedHashMap<>();
        final Map<String, List<Want>> wantExplained = new LinkedHashMap<>();
        List<String> wantClaims;
        boolean checkReclaim;
        String wantClaimant;
        List<String> wantReclaimed = List.of();

        Case(String name) {
            this.name = name;
        }

        Case nodes(NodeFx... n) {
            for (NodeFx f : n) {
                nodes.add(f.build());
            }
            return this;
        }

        Case accounts(AccountFx... a) {
            accounts.addAll(List.of(a));
            return this;
        }

        Case queued(JobFx... j) {
            for (int i = 0; i < j.length; i++) {
                j[i].sequence = queued.size() + i + 1;
            }
            queued.addAll(List.of(j));
            return this;
        }

        Case reserved(String job, int a100) {
            reserved.add(new AdmissionRound.Reservation(
                    job, List.of(new PodDemand(job + "-0", Resources.of(GPU, a100 * 1000L), ON_A100))));
            return this;
        }

        Case running(RunningFx... r) {
            for (RunningFx f : r) {
                running.add(f.build());
            }
            return this;
        }

        Case releasing(String node, int gpus) {
            releasing.put(node, Resources.of(GPU, gpus * 1000L));
            return this;
        }

        Case wantAdmitted(String... jobs) {
            wantAdmitted.addAll(List.of(jobs));
            return this;
        }

        Case wantQueued(String job, String code, Map<String, Long> numbers) {
            wantQueued.computeIfAbsent(job, j -> new ArrayList<>()).add(new Want(code, numbers));
            return this;
        }

        Case budget(long account, long remaining, String policy) {
            budgets.put(
                    account, new AdmissionRound.Budget(remaining, BudgetCheck.Policy.of(policy), PERIOD_END, "points"));
            return this;
        }

        Case allotment(long account, long user, long amount, long remaining) {
            allotments.put(account + "/" + user, new AdmissionRound.Allotment(amount, remaining));
            return this;
        }

        Case wantRejected(String job, String code, Map<String, Long> numbers) {
            wantRejected.put(job, new Want(code, numbers));
            return this;
        }

        Case wantBorrowing(String job, String... resources) {
            wantBorrowing.put(job, List.of(resources));
            return this;
        }

        Case wantExplained(String job, String code, Map<String, Long> numbers) {
            wantExplained.computeIfAbsent(job, j -> new ArrayList<>()).add(new Want(code, numbers));
            return this;
        }

        AdmissionRound.Job job(String name) {
            return queued.stream()
                    .filter(j -> j.name.equals(name))
                    .findFirst()
                    .orElseThrow()
                    .build();
        }

        Case wantPlacement(String job, Map<String, String> placement) {
            wantPlacement.put(job, placement);
            return this;
        }

        Case wantClaims(String... jobs) {
            wantClaims = List.of(jobs);
            return this;
        }

        Case wantReclaimed(String claimant, String... victims) {
            checkReclaim = true;
            wantClaimant = claimant;
            wantReclaimed = List.of(victims);
            return this;
        }

        Case wantNoReclaim() {
            checkReclaim = true;
            wantReclaimed = List.of();
            return this;
        }

        /** Every queued job neither admitted nor rejected keeps waiting; the table names the reasons that matter. */
        List<String> expectedWaiting() {
            return queued.stream()
                    .map(j -> j.name)
                    .filter(n -> !wantAdmitted.contains(n) && !wantRejected.containsKey(n))
                    .toList();
        }

        String nameOf(long sequence) {
            return queued.stream()
                    .filter(j -> j.sequence == sequence)
                    .findFirst()
                    .orElseThrow()
                    .name;
        }

        AdmissionRound.Snapshot snapshot() {
            Map<Long, Map<String, QuotaLine>> lines = new HashMap<>();
            Map<Long, MemberLimits> defaults = new HashMap<>();
            for (AccountFx a : accounts) {
                lines.put(a.id, a.lines());
                defaults.put(a.id, new MemberLimits(a.memberCaps, a.maxRunningJobs, a.maxInteractive));
            }
            return new AdmissionRound.Snapshot(
                    NOW,
                    TOLERANCE,
                    nodes,
                    reserved,
                    lines,
                    new AdmissionRound.Limits(defaults, Map.of()),
                    Map.of(),
                    queued.stream().map(JobFx::build).toList(),
                    new AdmissionRound.Budgets(budgets, projected(), allotments));
        }

        /** What each job that names a cost would cost up to its time limit. */
        Map<String, Long> projected() {
            Map<String, Long> out = new HashMap<>();
            queued.stream().filter(j -> j.cost != null).forEach(j -> out.put(j.name, j.cost));
            return out;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static final class NodeFx {
        final String name;
        Map<String, String> labels = Map.of();
        long gpus;
        long used;
        boolean schedulable = true;

        NodeFx(String name) {
            this.name = name;
        }

        NodeFx a100(int n) {
            labels = ON_A100;
            gpus = n;
            return this;
        }

        NodeFx h100(int n) {
            labels = ON_H100;
            gpus = n;
            return this;
        }

        NodeFx used(int n) {
            used = n;
            return this;
        }

        final List<Taints.Taint> taints = new ArrayList<>();

        NodeFx tainted(String key, String value, String effect) {
            taints.add(new Taints.Taint(key, value, effect));
            return this;
        }

        NodeFx exclusiveTo(long account) {
            taints.add(Taints.exclusive(account));
            return this;
        }

        NodeFx cordoned() {
            schedulable = false;
            return this;
        }

        NodeCapacity build() {
            return new NodeCapacity(
                    name,
                    labels,
                    new Resources(Map.of(GPU, gpus * 1000, "cpu", 64_000L)),
                    Resources.of(GPU, used * 1000),
                    schedulable,
                    taints);
        }
    }

    static final class AccountFx {
        final long id;
        final Map<String, QuotaLimit> limits = new HashMap<>();
        final Map<String, Long> granted = new HashMap<>();
        final Map<String, Long> used = new HashMap<>();
        final Map<String, Long> memberCaps = new HashMap<>();
        Integer maxRunningJobs;
        Integer maxInteractive;

        AccountFx(long id) {
            this.id = id;
        }

        AccountFx a100(int guaranteed, int max) {
            limits.put(A100, new QuotaLimit(A100, guaranteed * 1000L, max * 1000L));
            return this;
        }

        AccountFx h100(int guaranteed, int max) {
            limits.put(H100, new QuotaLimit(H100, guaranteed * 1000L, max * 1000L));
            return this;
        }

        AccountFx granted(String model, int n) {
            granted.put(model, n * 1000L);
            return this;
        }

        AccountFx used(String model, int n) {
            used.put(model, n * 1000L);
            return this;
        }

        AccountFx memberCap(String model, int n) {
            memberCaps.put(model, n * 1000L);
            return this;
        }

        AccountFx maxRunningJobs(int n) {
            maxRunningJobs = n;
            return this;
        }

        AccountFx maxInteractive(int n) {
            maxInteractive = n;
            return this;
        }

        Map<String, QuotaLine> lines() {
            List<Grant> grants = new ArrayList<>();
            granted.forEach(
                    (res, amount) -> grants.add(new Grant(res, amount, NOW.minusSeconds(60), NOW.plusSeconds(3600))));
            return QuotaMath.lines(limits, grants, new Resources(used), NOW);
        }
    }

    static final class JobFx {
        final String name;
        long sequence;
        long account = 1;
        long user = 1;
        int priority = 1;
        int pods = 1;
        String model = A100;
        Map<String, String> selector = ON_A100;
        long gpusPerPod;
        int minutesAgo;
        boolean interactive;
        boolean backfill;
        boolean invalid;
        Long cost;

        JobFx(String name) {
            this.name = name;
        }

        JobFx account(long a) {
            account = a;
            return this;
        }

        JobFx user(long u) {
            user = u;
            return this;
        }

        JobFx a100(int perPod) {
            model = A100;
            selector = ON_A100;
            gpusPerPod = perPod;
            return this;
        }

        JobFx h100(int perPod) {
            model = H100;
            selector = ON_H100;
            gpusPerPod = perPod;
            return this;
        }

        final List<Taints.Toleration> tolerations = new ArrayList<>();
        TargetNodes target = TargetNodes.ANY;

        JobFx tolerates(String key, String value) {
            tolerations.add(new Taints.Toleration(key, "Equal", value, "NoSchedule"));
            return this;
        }

        JobFx only(String... nodes) {
            target = new TargetNodes(java.util.Set.of(nodes), java.util.Set.of());
            return this;
        }

        JobFx avoids(String... nodes) {
            target = new TargetNodes(java.util.Set.of(), java.util.Set.of(nodes));
            return this;
        }

        JobFx pods(int n) {
            pods = n;
            return this;
        }

        JobFx priority(int p) {
            priority = p;
            return this;
        }

        JobFx submitted(int minutes) {
            minutesAgo = minutes;
            return this;
        }

        JobFx interactive() {
            interactive = true;
            return this;
        }

        JobFx backfill() {
            backfill = true;
            return this;
        }

        JobFx invalid() {
            invalid = true;
            return this;
        }

        JobFx costs(long micros) {
            cost = micros;
            return this;
        }

        AdmissionRound.Job build() {
            Instant submitted = NOW.minus(Duration.ofMinutes(minutesAgo));
            String member = account + "/" + user;
            if (invalid) {
                return new AdmissionRound.Job(
                        name, sequence, account, member, priority, submitted, interactive, false, null, null, null);
            }
            List<PodDemand> demands = new ArrayList<>();
            for (int i = 0; i < pods; i++) {
                // As the stored spec gives them, with the toleration of its account's exclusive nodes every job has.
                List<Taints.Toleration> tolerating = new ArrayList<>(tolerations);
                tolerating.add(Taints.exclusiveTo(account));
                demands.add(
                        new PodDemand("pod-" + i, Resources.of(GPU, gpusPerPod * 1000), selector, tolerating, target));
            }
            Resources quota = Resources.of(model, pods * gpusPerPod * 1000);
            return new AdmissionRound.Job(
                    name, sequence, account, member, priority, submitted, interactive, backfill, quota, demands, null);
        }
    }

    static final class RunningFx {
        final String name;
        long account;
        final Map<String, Resources> perNode = new HashMap<>();
        long gpus;
        boolean borrowing;
        boolean backfill;
        int minutesAgo;

        RunningFx(String name) {
            this.name = name;
        }

        RunningFx account(long a) {
            account = a;
            return this;
        }

        RunningFx on(String node, int n) {
            perNode.put(node, Resources.of(GPU, n * 1000L));
            gpus += n;
            return this;
        }

        RunningFx borrowing() {
            borrowing = true;
            return this;
        }

        RunningFx backfill() {
            backfill = true;
            return this;
        }

        RunningFx started(int minutes) {
            minutesAgo = minutes;
            return this;
        }

        Reclaim.Running build() {
            return new Reclaim.Running(
                    name,
                    account,
                    backfill ? Resources.NONE : Resources.of(A100, gpus * 1000),
                    perNode,
                    borrowing,
                    NOW.minus(Duration.ofMinutes(minutesAgo)),
                    backfill);
        }
    }
}
