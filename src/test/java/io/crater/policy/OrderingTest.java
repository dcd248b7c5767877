package io.crater.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The order of the waiting line: priority within an account, fair shares across accounts. */
class OrderingTest {

    static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");
    static final String A100 = "nvidia-a100-80gb";

    static Ordering.Waiting job(String id, long account, long seq, int priority, int gpus) {
        return new Ordering.Waiting(
                id, account, seq, priority, Resources.of(A100, gpus * 1000L), NOW.minusSeconds(seq));
    }

    static Map<String, QuotaLine> lines(long guaranteed, long used) {
        return Map.of(A100, new QuotaLine(A100, guaranteed * 1000, guaranteed * 2000, 0, used * 1000));
    }

    static List<String> ids(List<Ordering.Waiting> order) {
        return order.stream().map(Ordering.Waiting::job).toList();
    }

    @Test
    void withinAnAccountPriorityThenSubmission() {
        var order = Ordering.order(
                List.of(job("a1", 1, 1, 1, 1), job("a2", 1, 2, 2, 1), job("a3", 1, 3, 0, 1), job("a4", 1, 4, 2, 1)),
                Map.of(1L, lines(8, 0)));
        assertThat(ids(order)).containsExactly("a2", "a4", "a1", "a3");
    }

    @Test
    void acrossAccountsTheSmallestShareOfItsGuaranteeGoesFirstAndSharesInterleave() {
        // Account 1 uses 4 of 8 (0.5); account 2 uses 0 of 8. Each job adds 2 GPUs to its account's share.
        var order = Ordering.order(
                List.of(
                        job("a1", 1, 1, 1, 2),
                        job("a2", 1, 2, 1, 2),
                        job("b1", 2, 3, 1, 2),
                        job("b2", 2, 4, 1, 2),
                        job("b3", 2, 5, 1, 2)),
                Map.of(1L, lines(8, 4), 2L, lines(8, 0)));
        // b1 (0) → b2 (0.25) → a1 (0.5, earlier than b3 at 0.5) → b3 (0.5) → a2 (0.75)
        assertThat(ids(order)).containsExactly("b1", "b2", "a1", "b3", "a2");
    }

    @Test
    void anAccountWithoutAGuaranteeComesAfterThoseWithOne() {
        var order = Ordering.order(
                List.of(job("none", 3, 1, 2, 1), job("some", 1, 2, 0, 1)), Map.of(1L, lines(8, 7), 3L, Map.of()));
        assertThat(ids(order)).containsExactly("some", "none");
    }

    @Test
    void aJobIsAgedOnceItHasWaitedPastTheTolerance() {
        var waited = new Ordering.Waiting("x", 1, 1, 1, Resources.NONE, NOW.minus(Duration.ofMinutes(61)));
        var fresh = new Ordering.Waiting("y", 1, 2, 1, Resources.NONE, NOW.minus(Duration.ofMinutes(59)));
        assertThat(Ordering.aged(waited, NOW, Duration.ofHours(1))).isTrue();
        assertThat(Ordering.aged(fresh, NOW, Duration.ofHours(1))).isFalse();
    }
}
