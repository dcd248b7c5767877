package io.crater.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.crater.policy.BudgetPeriod.Kind;
import io.crater.policy.BudgetPeriod.Span;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Months and weeks start at local midnight of the platform's zone, also across daylight-saving changes. */
class BudgetPeriodTest {

    static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    static Span span(String start, String end) {
        return new Span(Instant.parse(start), Instant.parse(end));
    }

    @ParameterizedTest(name = "{0} {1} in {2}: {3} to {4}")
    @CsvSource({
        // Berlin is UTC+1 in winter, UTC+2 from 29 March 2026 02:00 to 25 October 2026 03:00.
        "MONTH, 2026-03-15T12:00:00Z, Europe/Berlin, 2026-02-28T23:00:00Z, 2026-03-31T22:00:00Z",
        "MONTH, 2026-02-28T23:00:00Z, Europe/Berlin, 2026-02-28T23:00:00Z, 2026-03-31T22:00:00Z",
        "MONTH, 2026-02-28T22:59:59.999Z, Europe/Berlin, 2026-01-31T23:00:00Z, 2026-02-28T23:00:00Z",
        "MONTH, 2026-03-31T22:00:00Z, Europe/Berlin, 2026-03-31T22:00:00Z, 2026-04-30T22:00:00Z",
        "MONTH, 2026-10-31T22:30:00Z, Europe/Berlin, 2026-09-30T22:00:00Z, 2026-10-31T23:00:00Z",
        // Shanghai is UTC+8 all year: 30 November 16:30 UTC is already 1 December there.
        "MONTH, 2026-11-30T16:30:00Z, Asia/Shanghai, 2026-11-30T16:00:00Z, 2026-12-31T16:00:00Z",
        "MONTH, 2026-11-30T15:59:59Z, Asia/Shanghai, 2026-10-31T16:00:00Z, 2026-11-30T16:00:00Z",
        // Asunción skipped midnight on 1 October 2023 (00:00 -04 became 01:00 -03): October began at 01:00.
        "MONTH, 2023-10-01T04:00:00Z, America/Asuncion, 2023-10-01T04:00:00Z, 2023-11-01T03:00:00Z",
        "MONTH, 2023-09-30T12:00:00Z, America/Asuncion, 2023-09-01T04:00:00Z, 2023-10-01T04:00:00Z",
        // 29 March 2026 is a Sunday: its week began on Monday the 23rd, in winter time, and ends in summer time.
        "WEEK, 2026-03-29T12:00:00Z, Europe/Berlin, 2026-03-22T23:00:00Z, 2026-03-29T22:00:00Z",
        "WEEK, 2026-03-29T22:00:00Z, Europe/Berlin, 2026-03-29T22:00:00Z, 2026-04-05T22:00:00Z",
        "WEEK, 2026-10-20T08:00:00Z, Europe/Berlin, 2026-10-18T22:00:00Z, 2026-10-25T23:00:00Z",
        // Monday 00:00 local belongs to the new week; the instant before it to the old one.
        "WEEK, 2026-11-29T23:00:00Z, Europe/Berlin, 2026-11-29T23:00:00Z, 2026-12-06T23:00:00Z",
        "WEEK, 2026-11-29T22:59:59Z, Europe/Berlin, 2026-11-22T23:00:00Z, 2026-11-29T23:00:00Z"
    })
    void thePeriodContainingAnInstantRunsFromLocalMidnightToLocalMidnight(
            Kind kind, String t, String zone, String start, String end) {
        Span s = BudgetPeriod.containing(kind, Instant.parse(t), ZoneId.of(zone));
        assertThat(s).isEqualTo(span(start, end));
        assertThat(s.contains(Instant.parse(t))).isTrue();
    }

    @Test
    void aPeriodAcrossADaylightSavingChangeIsAnHourShortOrLong() {
        Span march = BudgetPeriod.containing(Kind.MONTH, Instant.parse("2026-03-10T00:00:00Z"), BERLIN);
        Span october = BudgetPeriod.containing(Kind.MONTH, Instant.parse("2026-10-10T00:00:00Z"), BERLIN);
        Span springWeek = BudgetPeriod.containing(Kind.WEEK, Instant.parse("2026-03-25T00:00:00Z"), BERLIN);
        assertThat(Duration.between(march.start(), march.end())).isEqualTo(Duration.ofHours(31 * 24 - 1));
        assertThat(Duration.between(october.start(), october.end())).isEqualTo(Duration.ofHours(31 * 24 + 1));
        assertThat(Duration.between(springWeek.start(), springWeek.end())).isEqualTo(Duration.ofHours(7 * 24 - 1));
    }

    @Test
    void theNextPeriodStartsWhereThePreviousEnds() {
        Span december = span("2026-11-30T23:00:00Z", "2026-12-31T23:00:00Z");
        assertThat(BudgetPeriod.next(Kind.MONTH, december, BERLIN))
                .isEqualTo(span("2026-12-31T23:00:00Z", "2027-01-31T23:00:00Z"));
        Span february = span("2026-01-31T23:00:00Z", "2026-02-28T23:00:00Z");
        assertThat(BudgetPeriod.next(Kind.MONTH, february, BERLIN))
                .isEqualTo(span("2026-02-28T23:00:00Z", "2026-03-31T22:00:00Z"));
        Span beforeAutumn = span("2026-10-18T22:00:00Z", "2026-10-25T23:00:00Z");
        assertThat(BudgetPeriod.next(Kind.WEEK, beforeAutumn, BERLIN))
                .isEqualTo(span("2026-10-25T23:00:00Z", "2026-11-01T23:00:00Z"));
    }

    @Test
    void aPeriodKindIsMonthWeekOrCustom() {
        assertThat(Kind.of("month")).isEqualTo(Kind.MONTH);
        assertThat(Kind.of(" Week ")).isEqualTo(Kind.WEEK);
        assertThat(Kind.WEEK.key()).isEqualTo("week");
        assertThatThrownBy(() -> Kind.of("day"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a budget period is one of: month, week, custom (was 'day')");
        assertThat(Kind.of("CUSTOM")).isEqualTo(Kind.CUSTOM);
        assertThatThrownBy(() -> Kind.of(null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aSpanEndsAfterItStarts() {
        assertThatThrownBy(() -> span("2026-12-01T00:00:00Z", "2026-12-01T00:00:00Z"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("runs from its start to a later end");
        Span s = span("2026-12-01T00:00:00Z", "2026-12-02T00:00:00Z");
        assertThat(s.contains(s.start())).isTrue();
        assertThat(s.contains(s.end())).isFalse();
    }

    @ParameterizedTest(name = "{0} days set at {1} in {2}: {3} to {4}, then to {5}")
    @CsvSource({
        "1, 2026-12-01T15:00:00Z, UTC, 2026-12-01T00:00:00Z, 2026-12-02T00:00:00Z, 2026-12-03T00:00:00Z",
        "90, 2026-12-01T15:00:00Z, UTC, 2026-12-01T00:00:00Z, 2027-03-01T00:00:00Z, 2027-05-30T00:00:00Z",
        // Set on 20 March in Berlin: the 10 days cross into summer time, so the first period is 239 hours long.
        "10, 2026-03-20T08:00:00Z, Europe/Berlin, 2026-03-19T23:00:00Z, 2026-03-29T22:00:00Z, 2026-04-08T22:00:00Z",
        "366, 2026-11-30T16:30:00Z, Asia/Shanghai, 2026-11-30T16:00:00Z, 2027-12-01T16:00:00Z, 2028-12-01T16:00:00Z"
    })
    void aCustomPeriodRunsItsDaysFromTheDayItWasSetAndThenAgain(
            int days, String t, String zone, String start, String end, String nextEnd) {
        BudgetPeriod.Length length = new BudgetPeriod.Length(Kind.CUSTOM, days);
        Span first = BudgetPeriod.starting(length, Instant.parse(t), ZoneId.of(zone));
        assertThat(first).isEqualTo(span(start, end));
        assertThat(BudgetPeriod.next(length, first, ZoneId.of(zone))).isEqualTo(span(end, nextEnd));
    }

    @Test
    void aMonthOrWeekStartsAsItsCalendarSays() {
        Instant t = Instant.parse("2026-12-03T10:00:00Z");
        assertThat(BudgetPeriod.starting(new BudgetPeriod.Length(Kind.WEEK, 0), t, BERLIN))
                .isEqualTo(BudgetPeriod.containing(Kind.WEEK, t, BERLIN));
        assertThat(BudgetPeriod.starting(new BudgetPeriod.Length(Kind.MONTH, 0), t, BERLIN))
                .isEqualTo(BudgetPeriod.containing(Kind.MONTH, t, BERLIN));
    }

    @ParameterizedTest(name = "{0} with {1} days is refused")
    @CsvSource({"CUSTOM, 0", "CUSTOM, 367", "CUSTOM, -1", "MONTH, 30", "WEEK, 7"})
    void aLengthHasDaysOnlyWhenCustomAndWithinAYear(Kind kind, int days) {
        assertThatThrownBy(() -> new BudgetPeriod.Length(kind, days)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BudgetPeriod.containing(Kind.CUSTOM, Instant.EPOCH, BERLIN))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
