package io.crater.accounting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.crater.policy.BudgetCheck;
import io.crater.policy.BudgetPeriod;
import io.crater.policy.Renewal;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What renewing a budget posts to the ledger under each renewal, and the balance the new period opens at: the
 * balance before plus the entries, as the ledger computes it. Amounts are micro-units; the budget's amount is 10.
 */
class BudgetRenewalTest {

    static final long AMOUNT = 10_000_000;

    /** One renewal: the balance at the period's end, the entries (kind and amount on the account's book), the opening. */
    record Case(String renewal, long balance, List<String> entries, long opening) {
        @Override
        public String toString() {
            return renewal + " from " + balance;
        }
    }

    static Stream<Case> cases() {
        return Stream.of(
                // reset: the period opens at the amount, whatever was left or owed
                new Case("reset", 3_000_000, List.of("expire -3000000", "issue 10000000"), 10_000_000),
                new Case("reset", -4_000_000, List.of("expire 4000000", "issue 10000000"), 10_000_000),
                new Case("reset", 0, List.of("issue 10000000"), 10_000_000),
                // carry: what was left and what was owed both stay
                new Case("carry", 3_000_000, List.of("issue 10000000"), 13_000_000),
                new Case("carry", -4_000_000, List.of("issue 10000000"), 6_000_000),
                // debt: what was left expires, what was owed is paid back from the new amount
                new Case("debt", 3_000_000, List.of("expire -3000000", "issue 10000000"), 10_000_000),
                new Case("debt", -4_000_000, List.of("issue 10000000"), 6_000_000),
                new Case("debt", -12_000_000, List.of("issue 10000000"), -2_000_000),
                new Case("debt", 0, List.of("issue 10000000"), 10_000_000));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void renewalPostsWhatItsPolicySays(Case c) {
        BudgetService.Budget b = new BudgetService.Budget(
                7,
                BudgetPeriod.Kind.MONTH,
                0,
                AMOUNT,
                BudgetCheck.Policy.HARD,
                c.renewal(),
                Instant.parse("2026-11-01T00:00:00Z"),
                Instant.parse("2026-12-01T00:00:00Z"),
                100,
                null);

        List<Ledger.Posting> posted = BudgetWatch.renewal(b, c.balance(), "period:7:1796083200");

        assertThat(posted.stream().map(p -> p.kind() + " " + p.amount())).containsExactlyElementsOf(c.entries());
        assertThat(c.balance()
                        + posted.stream().mapToLong(Ledger.Posting::amount).sum())
                .as("the balance the period opens at")
                .isEqualTo(c.opening())
                .isEqualTo(Renewal.of(c.renewal()).opening(c.balance(), AMOUNT));
        assertThat(posted).allSatisfy(p -> {
            assertThat(p.accountId()).isEqualTo(7);
            assertThat(p.counterBook())
                    .as("issued and expired against the grants")
                    .isEqualTo(Ledger.GRANTS);
            assertThat(p.txn()).endsWith("period:7:1796083200");
        });
        assertThat(posted.stream().map(Ledger.Posting::txn))
                .as("one key per transaction")
                .doesNotHaveDuplicates();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theThreeRenewalsOpenDifferentlyOnlyWhereTheyShould(Case c) {
        long reset = Renewal.RESET.opening(c.balance(), AMOUNT);
        long carry = Renewal.CARRY.opening(c.balance(), AMOUNT);
        long debt = Renewal.DEBT.opening(c.balance(), AMOUNT);
        if (c.balance() > 0) {
            assertThat(debt)
                    .as("a rest expires under debt as under reset")
                    .isEqualTo(reset)
                    .isLessThan(carry);
        } else if (c.balance() < 0) {
            assertThat(debt)
                    .as("a debt is carried under debt as under carry")
                    .isEqualTo(carry)
                    .isLessThan(reset);
        } else {
            assertThat(List.of(reset, carry, debt)).containsOnly(AMOUNT);
        }
    }

    @org.junit.jupiter.api.Test
    void aRenewalIsOneOfTheThree() {
        assertThat(BudgetService.renewal(" Debt ")).isEqualTo("debt");
        assertThatThrownBy(() -> BudgetService.renewal("forgive")).isInstanceOf(IllegalArgumentException.class);
    }
}
