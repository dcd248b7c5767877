package io.crater.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Idle detection: when an interactive job is busy, unknown, exempt, warned, waiting or stopped, with the numbers. */
class IdlePolicyTest {

    static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");
    static final String A100 = "nvidia-a100-80gb";
    static final String RTX = "nvidia-rtx-4090";
    /** The platform's rule: below 5 % for 2 h, 30 min of grace, gaps up to 5 min. */
    static final IdlePolicy.Rule DEFAULT = new IdlePolicy.Rule(
            "*", "DCGM_FI_DEV_GPU_UTIL", 5, Duration.ofHours(2), Duration.ofMinutes(30), Duration.ofMinutes(5));
    /** A100s count as idle below 10 % over 1 h. */
    static final IdlePolicy.Rules RULES = new IdlePolicy.Rules(
            DEFAULT,
            Map.of(
                    A100,
                    new IdlePolicy.Rule(
                            A100,
                            "DCGM_FI_DEV_GPU_UTIL",
                            10,
                            Duration.ofHours(1),
                            Duration.ofMinutes(30),
                            Duration.ofMinutes(5))));

    /** A job and the samples of its accelerators, built fluently. */
    static final class Case {
        String model = RTX;
        int accelerators = 1;
        Instant startedAt = NOW.minus(Duration.ofHours(5));
        Instant warnedAt;
        Instant lockUntil;
        final List<IdlePolicy.Series> series = new ArrayList<>();

        Case model(String m) {
            model = m;
            return this;
        }

        Case accelerators(int n) {
            accelerators = n;
            return this;
        }

        Case startedMinutesAgo(long m) {
            startedAt = NOW.minus(Duration.ofMinutes(m));
            return this;
        }

        Case warnedMinutesAgo(long m) {
            warnedAt = NOW.minus(Duration.ofMinutes(m));
            return this;
        }

        Case lockedFor(Duration d) {
            lockUntil = NOW.plus(d);
            return this;
        }

        /** An accelerator sampled every minute from {@code fromMinutesAgo} to now at {@code percent}. */
        Case sampled(String accelerator, long fromMinutesAgo, double percent) {
            return samples(accelerator, fromMinutesAgo, 0, percent);
        }

        /** An accelerator sampled every minute from {@code fromMinutesAgo} to {@code toMinutesAgo}. */
        Case samples(String accelerator, long fromMinutesAgo, long toMinutesAgo, double percent) {
            List<IdlePolicy.Sample> s = new ArrayList<>();
            for (long m = fromMinutesAgo; m >= toMinutesAgo; m--) {
                s.add(new IdlePolicy.Sample(NOW.minus(Duration.ofMinutes(m)), percent));
            }
            IdlePolicy.Series existing = series.stream()
                    .filter(x -> x.accelerator().equals(accelerator))
                    .findFirst()
                    .orElse(null);
            if (existing != null) {
                series.remove(existing);
                s.addAll(existing.samples());
            }
            series.add(new IdlePolicy.Series("c-j1-main-0", accelerator, s));
            return this;
        }

        /** One sample of an accelerator, {@code minutesAgo}, at {@code percent}. */
        Case spike(String accelerator, long minutesAgo, double percent) {
            return samples(accelerator, minutesAgo, minutesAgo, percent);
        }

        IdlePolicy.Decision decide() {
            return IdlePolicy.decide(
                    new IdlePolicy.Job(accelerators, startedAt, warnedAt, lockUntil), series, RULES.of(model), NOW);
        }
    }

    static Case aJob() {
        return new Case();
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("idle over the whole window: warned", aJob().sampled("0", 120, 1), "Warn"),
                Arguments.of(
                        "7 % is idle on an A100 (threshold 10 % over 1 h)",
                        aJob().model(A100).sampled("0", 60, 7), "Warn"),
                Arguments.of("7 % is busy on an RTX 4090 (the platform's 5 %)", aJob().sampled("0", 120, 7), "Busy"),
                Arguments.of("exactly the threshold is busy", aJob().sampled("0", 120, 5), "Busy"),
                Arguments.of(
                        "samples of the last hour only do not cover the 2 h window",
                        aJob().sampled("0", 60, 0),
                        "Unknown:SampleGap"),
                Arguments.of(
                        "a gap of 10 min in the samples",
                        aJob().samples("0", 120, 70, 0).samples("0", 60, 0, 0),
                        "Unknown:SampleGap"),
                Arguments.of("samples stopped 10 min ago", aJob().samples("0", 120, 10, 0), "Unknown:SampleGap"),
                Arguments.of("no samples at all", aJob(), "Unknown:NoSamples"),
                Arguments.of(
                        "no samples in the window, only older ones",
                        aJob().samples("0", 300, 130, 0),
                        "Unknown:NoSamples"),
                Arguments.of(
                        "one of two accelerators has no samples",
                        aJob().accelerators(2).sampled("0", 120, 0),
                        "Unknown:AcceleratorsWithoutSamples"),
                Arguments.of(
                        "one of two accelerators busy",
                        aJob().accelerators(2).sampled("0", 120, 0).sampled("1", 120, 60),
                        "Busy"),
                Arguments.of(
                        "one busy sample on an accelerator whose other samples are missing",
                        aJob().accelerators(2).sampled("0", 120, 0).spike("1", 30, 80),
                        "Busy"),
                Arguments.of(
                        "a busy spike older than the window does not count",
                        aJob().sampled("0", 120, 0).spike("0", 150, 95),
                        "Warn"),
                Arguments.of(
                        "an approved lock exempts",
                        aJob().sampled("0", 120, 0).lockedFor(Duration.ofHours(1)),
                        "Exempt"),
                Arguments.of(
                        "a lock that has ended does not",
                        aJob().sampled("0", 120, 0).lockedFor(Duration.ofHours(-1)),
                        "Warn"),
                Arguments.of(
                        "warned 10 min ago, still idle: waits for the 30 min grace",
                        aJob().sampled("0", 120, 0).warnedMinutesAgo(10),
                        "Waiting"),
                Arguments.of(
                        "warned 30 min ago, still idle: stopped",
                        aJob().sampled("0", 120, 0).warnedMinutesAgo(30),
                        "Stop"),
                Arguments.of(
                        "warned 40 min ago, busy again since: busy, not stopped",
                        aJob().sampled("0", 120, 0).spike("0", 5, 70).warnedMinutesAgo(40),
                        "Busy"),
                Arguments.of(
                        "warned 40 min ago, samples missing since: unknown, not stopped",
                        aJob().samples("0", 120, 20, 0).warnedMinutesAgo(40),
                        "Unknown:SampleGap"),
                Arguments.of(
                        "started 90 min ago: younger than the 2 h window, not judged",
                        aJob().startedMinutesAgo(90).sampled("0", 90, 0),
                        "Unknown:YoungerThanWindow"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void decides(String name, Case c, String expected) {
        IdlePolicy.Decision d = c.decide();
        String got = d instanceof IdlePolicy.Unknown u ? "Unknown:" + u.why() : d.kind();
        assertThat(got).as(name + ": " + d.message()).isEqualTo(expected);
    }

    @Test
    void aWarningCarriesPeakMeanThresholdWindowAndWhenItStops() {
        IdlePolicy.Decision d = aJob().sampled("0", 120, 1).spike("0", 30, 3).decide();
        assertThat(d).isInstanceOf(IdlePolicy.Warn.class);
        IdlePolicy.Warn w = (IdlePolicy.Warn) d;
        assertThat(w.peak()).isEqualTo(3.0);
        assertThat(w.mean()).isBetween(1.0, 1.1);
        assertThat(w.threshold()).isEqualTo(5.0);
        assertThat(w.window()).isEqualTo(Duration.ofHours(2));
        assertThat(w.stopAt()).isEqualTo(NOW.plus(Duration.ofMinutes(30)));
        assertThat(w.message())
                .contains("at most 3.0 %")
                .contains("below the 5.0 % threshold")
                .contains("2 h")
                .contains(NOW.plus(Duration.ofMinutes(30)).toString());
    }

    @Test
    void waitingSaysWhenTheGracePeriodEnds() {
        IdlePolicy.Waiting w = (IdlePolicy.Waiting)
                aJob().sampled("0", 120, 0).warnedMinutesAgo(10).decide();
        assertThat(w.stopAt()).isEqualTo(NOW.plus(Duration.ofMinutes(20)));
    }

    @Test
    void aStopSaysSinceWhenTheJobWasIdle() {
        IdlePolicy.Stop s = (IdlePolicy.Stop)
                aJob().sampled("0", 120, 2).warnedMinutesAgo(35).decide();
        assertThat(s.idleSince()).isEqualTo(NOW.minus(Duration.ofMinutes(35)).minus(Duration.ofHours(2)));
        assertThat(s.peak()).isEqualTo(2.0);
        assertThat(s.mean()).isEqualTo(2.0);
        assertThat(s.message()).contains("idle since");
    }

    @Test
    void unknownCarriesItsNumbers() {
        IdlePolicy.Unknown gap = (IdlePolicy.Unknown)
                aJob().samples("0", 120, 70, 0).samples("0", 60, 0, 0).decide();
        assertThat(gap.numbers()).containsEntry("gapSeconds", 600L).containsEntry("maxGapSeconds", 300L);
        IdlePolicy.Unknown young =
                (IdlePolicy.Unknown) aJob().startedMinutesAgo(90).decide();
        assertThat(young.numbers()).containsEntry("ageSeconds", 5400L).containsEntry("windowSeconds", 7200L);
        IdlePolicy.Unknown partial =
                (IdlePolicy.Unknown) aJob().accelerators(4).sampled("0", 120, 0).decide();
        assertThat(partial.numbers()).containsEntry("accelerators", 4L).containsEntry("withSamples", 1L);
    }

    @Test
    void aStopFreesTheAcceleratorHoursLeftOfTheTimeLimit() {
        Instant limitEnd = NOW.plus(Duration.ofMinutes(90));
        assertThat(IdlePolicy.freedMilliGpuHours(2, NOW, limitEnd)).isEqualTo(3000);
        assertThat(IdlePolicy.freedMilliGpuHours(1, NOW, NOW.plusSeconds(36))).isEqualTo(10);
        assertThat(IdlePolicy.freedMilliGpuHours(4, NOW, NOW.minusSeconds(60))).isZero();
        assertThat(IdlePolicy.freedMilliGpuHours(4, NOW, null)).isZero();
    }

    @Test
    void aModelWithoutItsOwnRuleGetsThePlatformsUnderItsName() {
        IdlePolicy.Rule r = RULES.of("ascend-910b");
        assertThat(r.model()).isEqualTo("ascend-910b");
        assertThat(r.threshold()).isEqualTo(5.0);
        assertThat(RULES.of(A100).threshold()).isEqualTo(10.0);
        assertThat(RULES.of(A100).window()).isEqualTo(Duration.ofHours(1));
    }
}
