package io.crater.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.crater.policy.GpuUse.Measured;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Used and measured device-time from utilisation points, as a table of named cases and a property. */
class GpuUseTest {

    static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    static final Duration MINUTE = Duration.ofMinutes(1);

    static Instant at(int minutes) {
        return T0.plus(Duration.ofMinutes(minutes));
    }

    /** One accelerator's points: minute → percent, as pairs. */
    static IdlePolicy.Series card(String name, double... minuteAndPercent) {
        List<IdlePolicy.Sample> samples = new ArrayList<>();
        for (int i = 0; i < minuteAndPercent.length; i += 2) {
            samples.add(new IdlePolicy.Sample(
                    T0.plus(Duration.ofSeconds(Math.round(minuteAndPercent[i] * 60))), minuteAndPercent[i + 1]));
        }
        return new IdlePolicy.Series("c-j1-main-0", name, samples);
    }

    static long minutes(double m) {
        return Math.round(m * 60_000);
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of(
                        "a card busy half the time, sampled every minute, is half used and wholly measured",
                        List.of(card("0", 1, 50, 2, 50, 3, 50, 4, 50)),
                        1,
                        0,
                        4,
                        minutes(2),
                        minutes(4)),
                Arguments.of(
                        "a step without a point is unknown, neither idle nor busy",
                        List.of(card("0", 1, 100, 2, 100, 4, 100)),
                        1,
                        0,
                        4,
                        minutes(3),
                        minutes(3)),
                Arguments.of("no points at all: nothing used, nothing measured", List.of(card("0")), 2, 0, 4, 0L, 0L),
                Arguments.of(
                        "two cards: each counts for its own time",
                        List.of(card("0", 1, 100, 2, 100), card("1", 1, 0, 2, 20)),
                        2,
                        0,
                        2,
                        minutes(2.2),
                        minutes(4)),
                Arguments.of(
                        "a window cuts the points at its edges: only its own time counts",
                        List.of(card("0", 1, 60, 2, 60, 3, 60)),
                        1,
                        1.5,
                        2.5,
                        minutes(0.6),
                        minutes(1)),
                Arguments.of(
                        "points that overlap (an irregular source) count their shared time once",
                        List.of(card("0", 1, 100, 1.5, 100, 2, 100)),
                        1,
                        0,
                        2,
                        minutes(2),
                        minutes(2)),
                Arguments.of(
                        "a series more than the devices held is scaled down to the devices",
                        List.of(card("0", 1, 100, 2, 100), card("0-again", 1, 100, 2, 100)),
                        1,
                        0,
                        2,
                        minutes(2),
                        minutes(2)),
                Arguments.of(
                        "values outside 0-100 are clamped, NaN dropped",
                        List.of(card("0", 1, 140, 2, -5, 3, Double.NaN)),
                        1,
                        0,
                        3,
                        minutes(1),
                        minutes(2)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void usedAndMeasured(
            String name,
            List<IdlePolicy.Series> series,
            int devices,
            double fromMinute,
            double toMinute,
            long wantUsedMs,
            long wantMeasuredMs) {
        Instant from = T0.plusMillis(minutes(fromMinute));
        Instant to = T0.plusMillis(minutes(toMinute));
        List<List<GpuUse.Piece>> pieces = GpuUse.pieces(series, MINUTE, T0, at(10));
        assertThat(GpuUse.within(pieces, devices, from, to)).isEqualTo(new Measured(wantUsedMs, wantMeasuredMs));
    }

    @org.junit.jupiter.api.Test
    void efficiencyIsUsedOverMeasuredAndUnknownWithoutMeasurement() {
        assertThat(GpuUse.efficiency(1, 4)).isEqualTo(0.25);
        assertThat(GpuUse.efficiency(0, 0)).isNull();
        assertThatThrownBy(() -> GpuUse.pieces(List.of(), Duration.ZERO, T0, at(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Provide
    Arbitrary<List<IdlePolicy.Series>> fleets() {
        Arbitrary<IdlePolicy.Sample> sample = Combinators.combine(
                        Arbitraries.longs().between(-60_000, 700_000),
                        Arbitraries.oneOf(
                                Arbitraries.doubles().between(-50, 150),
                                Arbitraries.just(Double.NaN),
                                Arbitraries.just(Double.POSITIVE_INFINITY)))
                .as((ms, pct) -> new IdlePolicy.Sample(T0.plusMillis(ms), pct));
        Arbitrary<IdlePolicy.Series> series =
                sample.list().ofMaxSize(30).map(s -> new IdlePolicy.Series("c-j1-main-0", "0", s));
        return series.list().ofMaxSize(6);
    }

    @Property
    void neverMoreUsedThanMeasuredNorMeasuredThanHeld(
            @ForAll("fleets") List<IdlePolicy.Series> fleet,
            @ForAll @IntRange(min = 1, max = 8) int devices,
            @ForAll @IntRange(min = 1, max = 120) int stepSeconds,
            @ForAll @IntRange(min = 0, max = 600) int cutSeconds) {
        Instant from = T0;
        Instant to = T0.plusSeconds(600);
        Instant cut = T0.plusSeconds(cutSeconds);
        List<List<GpuUse.Piece>> pieces = GpuUse.pieces(fleet, Duration.ofSeconds(stepSeconds), from, to);
        Measured whole = GpuUse.within(pieces, devices, from, to);
        assertThat(whole.usedMs()).isBetween(0L, whole.measuredMs());
        assertThat(whole.measuredMs()).isLessThanOrEqualTo(devices * 600_000L);
        // Cut in two, the halves add up to the whole when nothing had to be scaled down.
        Measured halves = GpuUse.within(pieces, devices, from, cut).plus(GpuUse.within(pieces, devices, cut, to));
        if (fleet.size() <= devices) {
            assertThat(halves.measuredMs()).isEqualTo(whole.measuredMs());
            assertThat(Math.abs(halves.usedMs() - whole.usedMs())).isLessThanOrEqualTo(1);
        }
    }
}
