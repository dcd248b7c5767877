package io.crater.accounting;

import static org.assertj.core.api.Assertions.assertThat;

import io.crater.policy.BudgetPeriod;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The months and ISO weeks statements cover: their names, their days, and which are over. */
class StatementPeriodTest {

    @ParameterizedTest(name = "{0} is {1} from {2} to {3}")
    @CsvSource({
        "2026-11, MONTH, 2026-11-01, 2026-12-01",
        "2024-02, MONTH, 2024-02-01, 2024-03-01",
        "2026-W48, WEEK, 2026-11-23, 2026-11-30",
        "2026-W01, WEEK, 2025-12-29, 2026-01-05",
        "2020-W53, WEEK, 2020-12-28, 2021-01-04",
        "2026-W53, WEEK, 2026-12-28, 2027-01-04",
        "' 2026-W49 ', WEEK, 2026-11-30, 2026-12-07",
    })
    void aNameGivesItsDaysAndTheDaysGiveTheName(String text, BudgetPeriod.Kind kind, LocalDate first, LocalDate end) {
        StatementPeriod p = StatementPeriod.parse(text).orElseThrow();
        assertThat(p).isEqualTo(new StatementPeriod(kind, first, end));
        assertThat(p.name()).isEqualTo(text.trim());
        assertThat(kind == BudgetPeriod.Kind.WEEK ? StatementPeriod.week(first.plusDays(6)) : p)
                .isEqualTo(p);
    }

    @ParameterizedTest(name = "''{0}'' is no period")
    @ValueSource(strings = {"", "last-month", "2026-13", "2026-W00", "2025-W53", "2026-W7", "2026-w48", "26-11"})
    void anythingElseIsNoPeriod(String text) {
        assertThat(StatementPeriod.parse(text)).isEmpty();
    }

    @Test
    void onlyPeriodsOverByTheDelayAreClosedOldestFirst() {
        ZoneId utc = ZoneId.of("UTC");
        Instant now = Instant.parse("2026-12-07T00:10:00Z"); // a Monday, ten minutes into week 50
        Duration delay = Duration.ofMinutes(15);
        List<StatementPeriod> weeks = StatementPeriod.closable(BudgetPeriod.Kind.WEEK, now, utc, delay);
        assertThat(weeks).hasSize(StatementPeriod.LOOKBACK_WEEKS - 1);
        assertThat(weeks.get(weeks.size() - 1).name())
                .as("week 49 ended 10 minutes ago: not yet")
                .isEqualTo("2026-W48");
        assertThat(StatementPeriod.closable(BudgetPeriod.Kind.WEEK, now.plus(Duration.ofMinutes(5)), utc, delay))
                .last()
                .extracting(StatementPeriod::name)
                .isEqualTo("2026-W49");
        List<StatementPeriod> months = StatementPeriod.closable(BudgetPeriod.Kind.MONTH, now, utc, delay);
        assertThat(months).hasSize(StatementPeriod.LOOKBACK_MONTHS);
        assertThat(months.get(0).name()).isEqualTo("2025-11");
        assertThat(months.get(months.size() - 1).name()).isEqualTo("2026-11");
    }

    @Test
    void aWeekStartsAtLocalMidnightOfItsMonday() {
        StatementPeriod w = StatementPeriod.parse("2026-W48").orElseThrow();
        ZoneId kolkata = ZoneId.of("Asia/Kolkata");
        assertThat(w.start(kolkata)).isEqualTo(Instant.parse("2026-11-22T18:30:00Z"));
        assertThat(w.endsAt(kolkata)).isEqualTo(Instant.parse("2026-11-29T18:30:00Z"));
    }
}
