package io.crater.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Start-time estimates on hand-built clusters: exact where the answer is known, unknown where it is not. */
class ForecastTest {

    static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");
    static final String A100 = "nvidia-a100-80gb";
    static final String GPU = "nvidia.com/gpu";
    static final Map<String, String> SEL = Map.of("nvidia.com/gpu.product", "A100");

    static NodeCapacity node(String name, int gpus, int used) {
        return new NodeCapacity(name, SEL, Resources.of(GPU, gpus * 1000L), Resources.of(GPU, used * 1000L), true);
    }

    static Map<String, QuotaLine> quota(long max, long used) {
        return Map.of(A100, new QuotaLine(A100, max * 1000, max * 1000, 0, used * 1000));
    }

    static Forecast.Holder holder(String job, long account, String node, int gpus, Duration left) {
        return new Forecast.Holder(
                job,
                account,
                account + "/1",
                Resources.of(A100, gpus * 1000L),
                false,
                Map.of(node, Resources.of(GPU, gpus * 1000L)),
                left == null ? null : NOW.plus(left));
    }

    static Forecast.Candidate candidate(String job, long account, int gpus, Duration limit) {
        return new Forecast.Candidate(
                job,
                account,
                account + "/1",
                Resources.of(A100, gpus * 1000L),
                false,
                List.of(new PodDemand(job + "-0", Resources.of(GPU, gpus * 1000L), SEL)),
                limit);
    }

    static Forecast.Snapshot snapshot(List<NodeCapacity> nodes, Map<Long, Map<String, QuotaLine>> accounts) {
        return new Forecast.Snapshot(nodes, accounts, Map.of(), Map.of());
    }

    @Test
    void startsWhenTheHolderReachesItsTimeLimit() {
        var e = Forecast.estimate(
                NOW,
                snapshot(List.of(node("n1", 8, 8)), Map.of(1L, quota(16, 8))),
                List.of(holder("running", 1, "n1", 8, Duration.ofHours(2))),
                List.of(candidate("me", 1, 4, Duration.ofHours(1))),
                "me",
                Duration.ofDays(30));

        assertThat(e.known()).isTrue();
        assertThat(e.startBy()).isEqualTo(NOW.plus(Duration.ofHours(2)));
        assertThat(e.waitsFor()).extracting(Forecast.Release::job).containsExactly("running");
    }

    @Test
    void theJobsAheadGoFirstAndTheirOwnLimitsCount() {
        // One 8-GPU node, busy for 1 h. Ahead: a job needing all 8 for 3 h. Then mine.
        var e = Forecast.estimate(
                NOW,
                snapshot(List.of(node("n1", 8, 8)), Map.of(1L, quota(16, 8), 2L, quota(16, 0))),
                List.of(holder("running", 1, "n1", 8, Duration.ofHours(1))),
                List.of(candidate("ahead", 2, 8, Duration.ofHours(3)), candidate("me", 1, 2, Duration.ofHours(1))),
                "me",
                Duration.ofDays(30));

        assertThat(e.startBy()).isEqualTo(NOW.plus(Duration.ofHours(4)));
        assertThat(e.waitsFor()).extracting(Forecast.Release::job).containsExactly("running", "ahead");
    }

    @Test
    void aSmallJobPassesABlockedLargeOne() {
        // 4 GPUs free: the 8-GPU job ahead cannot start, mine (2) can, now.
        var e = Forecast.estimate(
                NOW,
                snapshot(List.of(node("n1", 8, 4)), Map.of(1L, quota(16, 4))),
                List.of(holder("running", 1, "n1", 4, Duration.ofHours(5))),
                List.of(candidate("big", 1, 8, null), candidate("me", 1, 2, null)),
                "me",
                Duration.ofDays(30));

        assertThat(e.startBy()).isEqualTo(NOW);
    }

    @Test
    void theAccountsQuotaIsWaitedForEvenOnAnIdleCluster() {
        // The cluster is free but the account's max (4) is used until its job ends in 30 min.
        var e = Forecast.estimate(
                NOW,
                snapshot(List.of(node("n1", 8, 4), node("n2", 8, 0)), Map.of(1L, quota(4, 4))),
                List.of(holder("mine-running", 1, "n1", 4, Duration.ofMinutes(30))),
                List.of(candidate("me", 1, 2, null)),
                "me",
                Duration.ofDays(30));

        assertThat(e.startBy()).isEqualTo(NOW.plus(Duration.ofMinutes(30)));
    }

    @Test
    void unknownWhenItWaitsForJobsWithoutATimeLimit() {
        var e = Forecast.estimate(
                NOW,
                snapshot(List.of(node("n1", 8, 8)), Map.of(1L, quota(16, 8))),
                List.of(
                        holder("server", 1, "n1", 4, null),
                        holder("notebook", 1, "n1", 2, null),
                        holder("short", 1, "n1", 2, Duration.ofMinutes(10))),
                List.of(candidate("me", 1, 4, null)),
                "me",
                Duration.ofDays(30));

        assertThat(e.known()).isFalse();
        assertThat(e.unknown().code()).isEqualTo("WaitsForJobsWithoutTimeLimit");
        assertThat(e.unknown().numbers()).containsEntry("jobs", 2L);
    }

    @Test
    void unknownWhenItCannotStartEvenOnAnIdleCluster() {
        var e = Forecast.estimate(
                NOW,
                snapshot(List.of(node("n1", 8, 0)), Map.of(1L, quota(2, 0))),
                List.of(),
                List.of(candidate("me", 1, 4, null)),
                "me",
                Duration.ofDays(30));

        assertThat(e.unknown().code()).isEqualTo("CannotStartOnIdleCluster");
        assertThat(e.unknown().numbers()).containsEntry("effectiveMax", 2000L);
        // The exact reason in the way, for the console to say: the account's quota of that model.
        assertThat(e.unknown().args())
                .containsEntry("cause", "AccountQuotaExceeded")
                .containsKey("resource");
        assertThat(e.unknown().numbers()).containsEntry("requested", 4000L);
    }

    @Test
    void unknownBeyondTheHorizon() {
        var e = Forecast.estimate(
                NOW,
                snapshot(List.of(node("n1", 8, 8)), Map.of(1L, quota(16, 8))),
                List.of(holder("long", 1, "n1", 8, Duration.ofDays(40))),
                List.of(candidate("me", 1, 8, null)),
                "me",
                Duration.ofDays(30));

        assertThat(e.unknown().code()).isEqualTo("BeyondHorizon");
    }

    @Test
    void aLineTooLongToPlayWithinTheBudgetIsUnknownWithItsLength() {
        // One 8-GPU node busy for 1 h; 300 one-hour 8-GPU jobs ahead: 300 releases, each trying every waiting job.
        List<Forecast.Candidate> line = new java.util.ArrayList<>();
        for (int i = 0; i < 300; i++) {
            line.add(candidate("ahead-" + i, 1, 8, Duration.ofHours(1)));
        }
        line.add(candidate("me", 1, 8, Duration.ofHours(1)));
        var snapshot = snapshot(List.of(node("n1", 8, 8)), Map.of(1L, quota(16, 8)));
        var running = List.of(holder("running", 1, "n1", 8, Duration.ofHours(1)));

        var bounded = Forecast.estimate(NOW, snapshot, running, line, "me", Duration.ofDays(30), 1_000);
        assertThat(bounded.known()).isFalse();
        assertThat(bounded.unknown().code()).isEqualTo("TooManyJobsAhead");
        assertThat(bounded.unknown().numbers()).containsEntry("jobsAhead", 300L).containsEntry("decisions", 1_000L);

        var full = Forecast.estimate(NOW, snapshot, running, line, "me", Duration.ofDays(30), Integer.MAX_VALUE);
        assertThat(full.startBy()).isEqualTo(NOW.plus(Duration.ofHours(301)));
    }

    @Test
    void anAgedJobAheadHoldsItsNodesInTheEstimateAsAdmissionDoes() {
        // 4 GPUs free; the 8-GPU job ahead has waited 45 min, past the 30-min tolerance: admission no longer lets
        // the small job pass it, so the small job starts only after the big one has run its hour.
        var big = new Forecast.Candidate(
                "big",
                1,
                "1/1",
                Resources.of(A100, 8000),
                false,
                List.of(new PodDemand("pod-0", Resources.of(GPU, 8000), SEL)),
                Duration.ofHours(1),
                1,
                NOW.minus(Duration.ofMinutes(45)),
                false);
        var snapshot = snapshot(List.of(node("n1", 8, 4)), Map.of(1L, quota(16, 4)));
        var running = List.of(holder("running", 1, "n1", 4, Duration.ofHours(2)));
        var line = List.of(big, candidate("me", 1, 2, null));

        var held = Forecast.estimate(
                NOW, snapshot, running, line, "me", Duration.ofDays(30), 1_000, Duration.ofMinutes(30));
        assertThat(held.startBy()).isEqualTo(NOW.plus(Duration.ofHours(3)));
        assertThat(held.waitsFor()).extracting(Forecast.Release::job).containsExactly("running", "big");

        var notAged =
                Forecast.estimate(NOW, snapshot, running, line, "me", Duration.ofDays(30), 1_000, Duration.ofHours(1));
        assertThat(notAged.startBy()).isEqualTo(NOW);
    }
}
