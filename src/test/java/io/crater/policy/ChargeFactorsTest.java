package io.crater.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What share of the price a job pays for being backfill and for its priority. */
class ChargeFactorsTest {

    @ParameterizedTest(name = "backfill {0}, low {1}, high {2}: backfill job {3}, priority {4} → {5}")
    @CsvSource({
        "500, 1000, 1000, false, 1, 1000",
        "500, 1000, 1000, true, 1, 500",
        "500, 500, 1500, false, 0, 500",
        "500, 500, 1500, false, 2, 1500",
        "500, 500, 1500, true, 0, 250",
        "500, 500, 1500, true, 2, 750",
        "0, 500, 1500, true, 2, 0",
        "500, 0, 1500, false, 0, 0",
        "333, 333, 1000, true, 0, 110",
        "10000, 10000, 10000, true, 2, 100000",
    })
    void theBackfillFactorAndThePrioritysMultiply(
            int backfill, int low, int high, boolean backfillJob, int priority, int perMille) {
        assertThat(new ChargeFactors(backfill, low, high).perMille(backfillJob, priority))
                .isEqualTo(perMille);
    }

    @ParameterizedTest(name = "backfill {0}, low {1}, high {2} is refused")
    @CsvSource({"-1, 1000, 1000", "500, -1, 1000", "500, 1000, 10001", "10001, 1000, 1000"})
    void aFactorBelowZeroOrAboveTenTimesThePriceIsRefused(int backfill, int low, int high) {
        assertThatThrownBy(() -> new ChargeFactors(backfill, low, high))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("between 0 and 10000 per mille");
    }

    @ParameterizedTest(name = "priority {0} is refused")
    @CsvSource({"-1", "3"})
    void anUnknownPriorityIsRefused(int priority) {
        assertThatThrownBy(() -> ChargeFactors.NONE.perMille(false, priority))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no priority " + priority);
    }
}
