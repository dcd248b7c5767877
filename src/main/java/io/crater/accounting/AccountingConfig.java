package io.crater.accounting;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.time.ZoneId;

/** Prices, settlement and budgets (docs/accounting.md). */
@ConfigMapping(prefix = "crater.accounting")
public interface AccountingConfig {

    /** The unit money is counted in: an ISO currency code or a word such as {@code points}. */
    @WithDefault("points")
    String currency();

    /** The time zone budget periods start in (a month starts on the 1st at 00:00 there). */
    @WithDefault("UTC")
    ZoneId zone();

    /** How often any replica settles what jobs held since the last settlement. */
    @WithDefault("60s")
    Duration settleEvery();

    /**
     * How often what file spaces hold is charged (docs/accounting.md, "Storage"): each space's window is charged once
     * it is this long.
     */
    @WithDefault("1h")
    Duration storageEvery();

    /** How soon after a job ends a settlement run charges it (ends in that time share the run). */
    @WithDefault("1s")
    Duration settleAfterEnd();

    /** What backfill jobs pay, in thousandths of the price (0 = free, 1000 = full price). */
    @WithDefault("500")
    int backfillFactorPerMille();

    /** What low-priority jobs pay, in thousandths of a normal job's price (Slurm's usage factor per QOS). */
    @WithDefault("1000")
    int lowPriorityFactorPerMille();

    /** What high-priority jobs pay, in thousandths of a normal job's price. */
    @WithDefault("1000")
    int highPriorityFactorPerMille();

    /** How long a stop-policy account's running jobs keep running once its budget is gone. */
    @WithDefault("10m")
    Duration stopGrace();

    /**
     * The step utilisation is measured in: each stretch of an accelerator interval is the mean of a step's samples
     * (at least the source's sample or scrape interval, or steps without a sample are unknown).
     */
    @WithDefault("30s")
    Duration measureStep();

    /** How long the source takes to have a sample (a scrape interval and a little): nothing newer is measured. */
    @WithDefault("60s")
    Duration measureLag();

    /** How long one utilisation query may take. */
    @WithDefault("10s")
    Duration measureTimeout();

    /**
     * How long after a month ends its statements are written: long enough for its last settlement and measurement
     * (the meter's lag) to be in.
     */
    @WithDefault("15m")
    Duration statementDelay();
}
