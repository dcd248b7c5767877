package io.crater.accounting;

import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** What the accounting API shows. Money is given twice: as decimal text and as integer micro-units. */
public final class AccountingViews {

    private AccountingViews() {}

    /** A budget's settings. */
    public record BudgetInfo(
            String amount,
            long amountMicros,
            String period,
            Integer periodDays,
            String policy,
            String renewal,
            Instant periodStart,
            Instant periodEnd) {}

    /** The burn-rate forecast: what the last 24 hours cost, and when the balance runs out at that rate. */
    public record Burn(String perDay, long perDayMicros, Instant runsOutAt) {}

    /** What one resource the account's running jobs hold now costs per hour. */
    public record Holding(String resource, long milli, String pricePerHour, long costPerHourMicros) {}

    /**
     * An account's money: its budget (null when it has none), the balance (what is left; negative is spent beyond
     * what was issued), what was charged this period, the burn rate and what is held right now.
     */
    public record BudgetView(
            String account,
            String currency,
            BudgetInfo budget,
            String balance,
            long balanceMicros,
            String spent,
            long spentMicros,
            Integer usedPercent,
            Burn burn,
            List<Holding> holding) {}

    /** One ledger entry of an account's book. */
    @Schema(name = "LedgerEntry")
    public record Entry(
            long id,
            String kind,
            String amount,
            long amountMicros,
            String balanceAfter,
            long balanceAfterMicros,
            String job,
            String user,
            Instant windowStart,
            Instant windowEnd,
            String note,
            String actor,
            Instant at) {}

    /**
     * One member's allotment this period: its amount (null: none, the member spends within the account's budget
     * only), what their jobs were charged this period, what is left and the share used (both null without one).
     */
    public record Allotment(
            String user,
            String amount,
            Long amountMicros,
            String spent,
            long spentMicros,
            String left,
            Long leftMicros,
            Integer usedPercent) {}

    /**
     * An account's allotments in its budget's current period: one per member (only the caller's own for a member who
     * is not an admin), and what they add up to. {@code budget} is null, and there are no items, without a budget.
     */
    public record Allotments(
            String account,
            String currency,
            BudgetInfo budget,
            String allotted,
            long allottedMicros,
            List<Allotment> items) {}
}
