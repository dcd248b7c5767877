package io.crater.accounting;

import static org.assertj.core.api.Assertions.assertThat;

import io.crater.job.JobHoldings;
import io.crater.policy.IdlePolicy;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which stretch of each interval a meter run measures, and what the points add per interval, hour and day. */
class UsageMeasuresTest {

    static final Instant T0 = Instant.parse("2026-12-01T09:59:00Z");
    static final Duration STEP = Duration.ofSeconds(30);

    static JobHoldings.Unmeasured interval(long id, String job, Instant measured, Instant ended) {
        return new JobHoldings.Unmeasured(id, job, 7, 9, "nvidia-a100", 2000, T0, ended, measured);
    }

    @Test
    void openIntervalsAreMeasuredToTheLastWholeStepAndClosedOnesToTheirEnd() {
        Instant horizon = T0.plusSeconds(95); // whole steps of the epoch end at T0 + 90 s
        List<UsageMeasures.Window> windows = UsageMeasures.windows(
                List.of(
                        interval(1, "ja1", T0, null),
                        interval(2, "ja2", T0, null),
                        interval(3, "ja3", T0, T0.plusSeconds(40)),
                        interval(4, "ja4", T0, T0.plusSeconds(100)),
                        interval(5, "ja5", T0.plusSeconds(90), null),
                        interval(6, "ja6", T0.minus(Duration.ofHours(20)), null)),
                horizon,
                STEP);
        assertThat(windows)
                .extracting(
                        w -> w.intervals().stream()
                                .map(JobHoldings.Unmeasured::id)
                                .toList(),
                        w -> w.from(),
                        w -> w.to())
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(List.of(1L, 2L, 4L), T0, T0.plusSeconds(90)),
                        org.assertj.core.groups.Tuple.tuple(List.of(3L), T0, T0.plusSeconds(40)),
                        org.assertj.core.groups.Tuple.tuple(
                                List.of(6L), T0.minus(Duration.ofHours(20)), T0.minus(Duration.ofHours(14))));
        // The window of a source that was down is cut into at most 720 equal steps.
        assertThat(windows.get(2).step(STEP)).isEqualTo(Duration.ofSeconds(30));
        assertThat(new UsageMeasures.Window("x", T0, T0.plus(Duration.ofHours(12)), List.of()).step(STEP))
                .isEqualTo(Duration.ofMinutes(1));
    }

    @Test
    void pointsAreAddedPerIntervalHourAndDayAndOnlyForIntervalsRecorded() {
        // Two cards at 50 % and 100 % over four minutes across ten o'clock.
        Instant from = T0.minusSeconds(60);
        Instant to = T0.plusSeconds(180);
        List<IdlePolicy.Sample> half = new ArrayList<>();
        List<IdlePolicy.Sample> full = new ArrayList<>();
        for (int s = 30; s <= 240; s += 30) {
            half.add(new IdlePolicy.Sample(from.plusSeconds(s), 50));
            full.add(new IdlePolicy.Sample(from.plusSeconds(s), 100));
        }
        List<IdlePolicy.Series> series = List.of(
                new IdlePolicy.Series("c-ja1-main-0", "0", half),
                new IdlePolicy.Series("c-ja1-main-0", "1", full),
                new IdlePolicy.Series("c-other-main-0", "0", full));
        UsageMeasures.Window w = new UsageMeasures.Window(
                "nvidia-a100", from, to, List.of(interval(1, "ja1", from, null), interval(2, "jb2", from, null)));
        UsageMeasures.Added added = new UsageMeasures.Added();
        UsageMeasures.add(w, STEP, series, ZoneId.of("UTC"), added);

        assertThat(added.measures)
                .containsExactly(
                        new JobHoldings.Measure(1, from, to, 480_000, 360_000),
                        new JobHoldings.Measure(2, from, to, 0, 0));
        Rollups rows = added.rollups(Set.of(1L));
        assertThat(rows.hours).hasSize(2);
        assertThat(figures(rows.hours.get(new Rollups.Key(7, 9, "nvidia-a100", Instant.parse("2026-12-01T09:00:00Z")))))
                .containsExactly(240_000, 180_000);
        assertThat(figures(rows.hours.get(new Rollups.Key(7, 9, "nvidia-a100", Instant.parse("2026-12-01T10:00:00Z")))))
                .containsExactly(240_000, 180_000);
        assertThat(rows.days.values())
                .singleElement()
                .satisfies(v -> assertThat(figures(v)).containsExactly(480_000, 360_000));
        assertThat(rows.days.values()).allSatisfy(v -> {
            assertThat(v.heldMilliS).as("the meter adds nothing held").isZero();
            assertThat(v.costMicros).isZero();
        });
        assertThat(added.rollups(Set.<Long>of()).hours)
                .as("an interval another replica measured adds nothing")
                .isEmpty();
    }

    static long[] figures(Rollups.Figures f) {
        return new long[] {f.measuredMs, f.usedMs};
    }

    @Test
    void aPodNamesItsJob() {
        assertThat(UsageMeasures.jobOf("c-j7k3f9a-worker-3")).isEqualTo("j7k3f9a");
        assertThat(UsageMeasures.jobOf("jupyter-x")).isNull();
        assertThat(UsageMeasures.jobOf("c-")).isNull();
    }
}
