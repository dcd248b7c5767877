package io.crater.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.crater.policy.BudgetCheck.Policy;
import io.crater.policy.BudgetCheck.Verdict;
import io.crater.policy.PriceBook.Price;
import io.crater.policy.Settlement.Holding;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A job against what is left of its budget, and when the budget runs out at the rate it is spent. */
class BudgetCheckTest {

    static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");
    static final String A100 = "A100-80GB";

    @ParameterizedTest(name = "{0}: remaining {1}, projected {2} → admit {3}, warn {4}")
    @CsvSource({
        "HARD, 10000000, 7500000, true, false",
        "HARD, 7500000, 7500000, true, false",
        "HARD, 7499999, 7500000, false, false",
        "HARD, 0, 0, true, false",
        "HARD, -5, 0, false, false",
        "STOP, 10000000, 7500000, true, false",
        "STOP, 1, 7500000, false, false",
        "SOFT, 10000000, 7500000, true, false",
        "SOFT, 1, 7500000, true, true",
        "SOFT, -5, 0, true, true"
    })
    void aJobIsAdmittedWhenItFitsAndUnderSoftAlsoWhenItDoesNot(
            Policy policy, long remaining, long projected, boolean admit, boolean warn) {
        assertThat(BudgetCheck.check(policy, remaining, projected))
                .isEqualTo(new Verdict(admit, warn, remaining, projected));
    }

    @Test
    void aPolicyIsHardSoftOrStop() {
        assertThat(Policy.of("hard")).isEqualTo(Policy.HARD);
        assertThat(Policy.of("Soft")).isEqualTo(Policy.SOFT);
        assertThat(Policy.of("stop")).isEqualTo(Policy.STOP);
        assertThat(Policy.STOP.key()).isEqualTo("stop");
        assertThatThrownBy(() -> Policy.of("strict"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a budget policy is one of: hard, soft, stop (was 'strict')");
        assertThatThrownBy(() -> Policy.of(null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theProjectedCostIsTheWholeTimeLimitAtThePricesInForce() {
        PriceBook book = new PriceBook(List.of(
                new Price(A100, 2_500_000, NOW.minusSeconds(86_400)),
                new Price(A100, 3_000_000, NOW.plusSeconds(3600)),
                new Price("cpu", 40_000, NOW.minusSeconds(86_400))));
        List<Holding> job =
                List.of(new Holding(A100, 2000), new Holding("cpu", 8000), new Holding("memory", 68_719_476_736_000L));
        // 2 A100: 1 h at 2.50 and 1 h at 3.00 = 11.00; 8 cores × 2 h × 0.04 = 0.64; memory has no price.
        assertThat(BudgetCheck.projected(job, NOW, Duration.ofHours(2), book, 1000))
                .isEqualTo(11_640_000);
        assertThat(BudgetCheck.projected(job, NOW, Duration.ofHours(2), book, 500))
                .isEqualTo(5_820_000);
        assertThat(BudgetCheck.projected(job, NOW, Duration.ZERO, book, 1000)).isZero();
        assertThat(BudgetCheck.projected(List.of(), NOW, Duration.ofHours(2), book, 1000))
                .isZero();
    }

    @Test
    void aProjectionNeedsANonNegativeTimeLimitAndFactor() {
        List<Holding> job = List.of(new Holding(A100, 1000));
        assertThatThrownBy(() -> BudgetCheck.projected(job, NOW, Duration.ofHours(-1), PriceBook.empty(), 1000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a time limit must not be negative (was PT-1H)");
        assertThatThrownBy(() -> BudgetCheck.projected(job, NOW, Duration.ofHours(1), PriceBook.empty(), -1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aProjectionBeyondALongIsSaidNotWrapped() {
        PriceBook book = new PriceBook(List.of(new Price(A100, 5_000_000_000L, NOW)));
        Holding fleet = new Holding(A100, 100_000_000L);
        // 1e5 devices × 8760 h × 5000.00/h is 4.38e18 µ, within a long; three such holdings are not.
        List<Holding> job = List.of(fleet, fleet, fleet);
        assertThat(BudgetCheck.projected(List.of(fleet), NOW, Duration.ofDays(365), book, 1000))
                .isEqualTo(4_380_000_000_000_000_000L);
        assertThatThrownBy(() -> BudgetCheck.projected(job, NOW, Duration.ofDays(365), book, 1000))
                .isInstanceOf(ArithmeticException.class);
    }

    @Test
    void atTheRateOfTheLastHourTheBudgetRunsOutWhenWhatRemainsIsSpent() {
        // 5.00 spent in the last hour, 10.00 left: two more hours.
        assertThat(BudgetCheck.runsOut(10_000_000, 5_000_000, Duration.ofHours(1), NOW))
                .contains(NOW.plus(Duration.ofHours(2)));
        // 3 µ over 1 h leaves 1 µ for 20 minutes; 1 µ over 3 ns is a rate of one per 3 ns.
        assertThat(BudgetCheck.runsOut(1, 3, Duration.ofHours(1), NOW)).contains(NOW.plusSeconds(1200));
        assertThat(BudgetCheck.runsOut(1, 3, Duration.ofNanos(1), NOW)).contains(NOW);
        assertThat(BudgetCheck.runsOut(2, 3, Duration.ofNanos(2), NOW)).contains(NOW.plusNanos(1));
    }

    @Test
    void aBudgetWithNothingLeftRunsOutNow() {
        assertThat(BudgetCheck.runsOut(0, 5_000_000, Duration.ofHours(1), NOW)).contains(NOW);
        assertThat(BudgetCheck.runsOut(-1, 0, Duration.ofHours(1), NOW)).contains(NOW);
    }

    @Test
    void nothingSpentMeansNoForecast() {
        assertThat(BudgetCheck.runsOut(10_000_000, 0, Duration.ofHours(1), NOW)).isEmpty();
        assertThat(BudgetCheck.runsOut(10_000_000, -3, Duration.ofHours(1), NOW))
                .isEmpty();
        assertThat(BudgetCheck.runsOut(10_000_000, 5, Duration.ZERO, NOW)).isEmpty();
        assertThat(BudgetCheck.runsOut(10_000_000, 5, Duration.ofHours(-1), NOW))
                .isEmpty();
    }

    @Test
    void hugeAmountsNeitherOverflowNorRunPastTheEndOfTime() {
        // remaining × over overflows a long here; the forecast is still exact.
        assertThat(BudgetCheck.runsOut(Long.MAX_VALUE, Long.MAX_VALUE, Duration.ofDays(7), NOW))
                .contains(NOW.plus(Duration.ofDays(7)));
        assertThat(BudgetCheck.runsOut(Long.MAX_VALUE, Long.MAX_VALUE / 2, Duration.ofDays(7), NOW))
                .contains(NOW.plus(Duration.ofDays(14)));
        // 9.2e18 µ at 1 µ a day is 2.5e16 years away: beyond any instant, so no forecast.
        assertThat(BudgetCheck.runsOut(Long.MAX_VALUE, 1, Duration.ofDays(1), NOW))
                .isEqualTo(Optional.empty());
        assertThat(BudgetCheck.runsOut(Long.MAX_VALUE, 1, Duration.ofSeconds(Long.MAX_VALUE), NOW))
                .isEmpty();
    }
}
