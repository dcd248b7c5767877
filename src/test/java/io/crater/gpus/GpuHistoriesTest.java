package io.crater.gpus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.crater.accounting.AcceleratorHours;
import io.crater.platform.ApiException;
import io.crater.platform.Problem;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class GpuHistoriesTest {

    static final Instant NOW = Instant.parse("2026-12-01T10:15:00Z");
    static final long HOUR_MS = 3_600_000L;

    static AcceleratorHours.Hour hour(String model, String at, long heldMs, long measuredMs, long usedMs) {
        return new AcceleratorHours.Hour(model, Instant.parse(at), heldMs, measuredMs, usedMs);
    }

    static final Map<String, GpuHistories.Cards> CARDS = Map.of(
            "nvidia-a100", new GpuHistories.Cards("NVIDIA A100", 8),
            "nvidia-h100", new GpuHistories.Cards("NVIDIA H100", 0));

    @Test
    void everyHourOfTheSpanIsThereOldestFirstWithZerosWhereNothingWasHeld() {
        GpuHistoryViews.History h = GpuHistories.build(
                4, NOW, CARDS, List.of(hour("nvidia-a100", "2026-12-01T08:00:00Z", 3 * HOUR_MS, 2 * HOUR_MS, HOUR_MS)));

        assertThat(h.from()).isEqualTo(Instant.parse("2026-12-01T07:00:00Z"));
        assertThat(h.to()).isEqualTo(NOW);
        assertThat(h.models()).extracting(GpuHistoryViews.ModelHistory::model).containsExactly("nvidia-a100");
        GpuHistoryViews.ModelHistory a100 = h.models().get(0);
        assertThat(a100.displayName()).isEqualTo("NVIDIA A100");
        assertThat(a100.total()).isEqualTo(8);
        assertThat(a100.points())
                .extracting(p -> p.hour().toString())
                .containsExactly(
                        "2026-12-01T07:00:00Z", "2026-12-01T08:00:00Z", "2026-12-01T09:00:00Z", "2026-12-01T10:00:00Z");
        assertThat(a100.points().get(0))
                .isEqualTo(new GpuHistoryViews.Point(Instant.parse("2026-12-01T07:00:00Z"), 0, 0, 0, null, false));
        assertThat(a100.points().get(1))
                .as("3 device-hours held in an hour: 3 GPUs on average; 2 measured, 1 used: efficiency 0.5")
                .isEqualTo(new GpuHistoryViews.Point(Instant.parse("2026-12-01T08:00:00Z"), 3, 2, 1, 0.5, false));
        assertThat(a100.points().get(3).partial()).isTrue();
        assertThat(a100.points().subList(0, 3)).noneMatch(GpuHistoryViews.Point::partial);
    }

    @Test
    void aModelWithoutCardsNowShowsOnlyWhenItWasHeldInTheSpan() {
        List<AcceleratorHours.Hour> rows = List.of(
                hour("nvidia-h100", "2026-12-01T09:00:00Z", HOUR_MS / 2, 0, 0),
                hour("gone-model", "2026-12-01T09:00:00Z", HOUR_MS, HOUR_MS, HOUR_MS / 4),
                hour("old-model", "2026-12-01T05:00:00Z", HOUR_MS, 0, 0));

        GpuHistoryViews.History h = GpuHistories.build(3, NOW, CARDS, rows);

        assertThat(h.models())
                .extracting(GpuHistoryViews.ModelHistory::model)
                .as("old-model was held before the span only")
                .containsExactly("gone-model", "nvidia-a100", "nvidia-h100");
        GpuHistoryViews.ModelHistory gone = h.models().get(0);
        assertThat(gone.displayName())
                .as("not in the catalogue: named by its key")
                .isEqualTo("gone-model");
        assertThat(gone.total()).isZero();
        assertThat(gone.points().get(1).used()).isEqualTo(0.25);
        assertThat(gone.points().get(1).efficiency()).isEqualTo(0.25);
        GpuHistoryViews.Point h100 = h.models().get(2).points().get(1);
        assertThat(h100.allocated()).isEqualTo(0.5);
        assertThat(h100.efficiency()).as("nothing measured: no efficiency").isNull();
    }

    @Test
    void theCurrentHourIsAMeanOverItsPartSoFar() {
        // 10:00 to 10:15: 2 GPUs held for the 15 minutes are 30 device-minutes, one of them measured at half use.
        GpuHistoryViews.Point p = GpuHistories.point(
                Instant.parse("2026-12-01T10:00:00Z"),
                NOW,
                hour("nvidia-a100", "2026-12-01T10:00:00Z", 30 * 60_000L, 15 * 60_000L, 7 * 60_000L + 30_000L));

        assertThat(p).isEqualTo(new GpuHistoryViews.Point(Instant.parse("2026-12-01T10:00:00Z"), 2, 1, 0.5, 0.5, true));
    }

    @Test
    void measuredNeverExceedsHeldNorUsedMeasured() {
        GpuHistoryViews.Point p = GpuHistories.point(
                Instant.parse("2026-12-01T08:00:00Z"),
                NOW,
                hour("nvidia-a100", "2026-12-01T08:00:00Z", HOUR_MS, 2 * HOUR_MS, 3 * HOUR_MS));

        assertThat(p.allocated()).isEqualTo(1);
        assertThat(p.measured()).isEqualTo(1);
        assertThat(p.used()).isEqualTo(1);
        assertThat(p.efficiency()).isEqualTo(1.0);
    }

    @ParameterizedTest
    @CsvSource({"2026-12-01T10:15:00Z,1,2026-12-01T10:00:00Z", "2026-12-01T10:00:00Z,48,2026-11-29T11:00:00Z"})
    void theSpanEndsWithTheCurrentHour(String now, int hours, String first) {
        assertThat(GpuHistories.firstHour(Instant.parse(now), hours)).isEqualTo(Instant.parse(first));
    }

    @ParameterizedTest
    @CsvSource({"1,1", "720,720", "' 24 ',24"})
    void hoursFromOneTo720(String text, int want) {
        assertThat(GpuHistoryService.hours(text)).isEqualTo(want);
    }

    @ParameterizedTest
    @NullAndEmptySource
    void hoursDefaultTo48(String text) {
        assertThat(GpuHistoryService.hours(text)).isEqualTo(48);
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "721", "-3", "2.5", "week"})
    void otherHoursAreAFieldError(String text) {
        assertThatThrownBy(() -> GpuHistoryService.hours(text))
                .isInstanceOfSatisfying(
                        ApiException.class,
                        e -> assertThat(e.errors())
                                .extracting(Problem.FieldError::field)
                                .containsExactly("hours"));
    }
}
