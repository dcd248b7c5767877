package io.crater.policy;

import java.math.BigInteger;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Whether a job fits what is left of its account's budget, and when the budget runs out at the rate it is spent.
 *
 * <p>A job fits when what it would cost over its whole time limit ({@link #projected}) is at most what remains of the
 * budget. All amounts are integer micro-units of the configured currency.
 */
public final class BudgetCheck {

    private static final BigInteger NANOS_PER_SECOND = BigInteger.valueOf(1_000_000_000L);

    private BudgetCheck() {}

    /** What a budget does to a job that does not fit it. */
    public enum Policy {
        /** The job is not admitted. */
        HARD,
        /** The job is admitted, with a warning. */
        SOFT,
        /** The job is not admitted; running jobs are also stopped once the budget is spent. */
        STOP;

        /** The policy of a configured or requested key: {@code hard}, {@code soft} or {@code stop} (in any case). */
        public static Policy of(String key) {
            if (key != null) {
                for (Policy p : values()) {
                    if (p.key().equals(key.trim().toLowerCase(Locale.ROOT))) {
                        return p;
                    }
                }
            }
            throw new IllegalArgumentException("a budget policy is one of: hard, soft, stop (was '" + key + "')");
        }

        /** The key of the policy as the API and configuration spell it. */
        public String key() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * The outcome of checking a job against a budget.
     *
     * @param admit whether the budget lets the job be admitted
     * @param warn whether it is admitted although it does not fit (only under {@link Policy#SOFT})
     * @param remaining the micro-units left of the budget when checked
     * @param projected the micro-units the job would cost over its whole time limit
     */
    public record Verdict(boolean admit, boolean warn, long remaining, long projected) {
        /** True when the projected cost is within what remains. */
        public boolean fits() {
            return projected <= remaining;
        }
    }

    /**
     * Checks a projected cost against what remains: under {@link Policy#HARD} and {@link Policy#STOP} the job is
     * admitted only when it fits; under {@link Policy#SOFT} it is always admitted, with a warning when it does not
     * fit.
     */
    public static Verdict check(Policy policy, long remainingMicros, long projectedMicros) {
        Objects.requireNonNull(policy, "policy");
        boolean fits = projectedMicros <= remainingMicros;
        return switch (policy) {
            case HARD, STOP -> new Verdict(fits, false, remainingMicros, projectedMicros);
            case SOFT -> new Verdict(true, !fits, remainingMicros, projectedMicros);
        };
    }

    /**
     * What a job holding {@code holdings} would cost if it ran its whole time limit from {@code start}, at the
     * prices in force over that time: the sum of {@link Settlement#cumulative} of each holding.
     *
     * @throws IllegalArgumentException when the time limit is negative or the factor is negative
     * @throws ArithmeticException when the cost does not fit a long
     */
    public static long projected(
            List<Settlement.Holding> holdings, Instant start, Duration timeLimit, PriceBook book, int factorPerMille) {
        Objects.requireNonNull(timeLimit, "timeLimit");
        if (timeLimit.isNegative()) {
            throw new IllegalArgumentException("a time limit must not be negative (was " + timeLimit + ")");
        }
        Settlement.checkFactor(factorPerMille);
        Instant end = start.plus(timeLimit);
        long total = 0;
        for (Settlement.Holding h : holdings) {
            total = Math.addExact(total, Settlement.cumulative(h, start, end, book, factorPerMille));
        }
        return total;
    }

    /**
     * When the budget runs out if it keeps being spent at the rate of the last {@code over}: {@code now} when
     * nothing remains; empty when nothing was spent over that time (or {@code over} is not positive), and when the
     * instant lies beyond any representable time. The instant is floored to the nanosecond.
     *
     * @param remainingMicros what remains of the budget now
     * @param spentMicros what was spent over the last {@code over}
     */
    public static Optional<Instant> runsOut(long remainingMicros, long spentMicros, Duration over, Instant now) {
        Objects.requireNonNull(over, "over");
        Objects.requireNonNull(now, "now");
        if (remainingMicros <= 0) {
            return Optional.of(now);
        }
        if (spentMicros <= 0 || over.isNegative() || over.isZero()) {
            return Optional.empty();
        }
        BigInteger overNanos = BigInteger.valueOf(over.getSeconds())
                .multiply(NANOS_PER_SECOND)
                .add(BigInteger.valueOf(over.getNano()));
        BigInteger[] left = BigInteger.valueOf(remainingMicros)
                .multiply(overNanos)
                .divide(BigInteger.valueOf(spentMicros))
                .divideAndRemainder(NANOS_PER_SECOND);
        if (left[0].bitLength() > 63) {
            return Optional.empty();
        }
        try {
            return Optional.of(now.plusSeconds(left[0].longValueExact()).plusNanos(left[1].longValueExact()));
        } catch (DateTimeException | ArithmeticException beyond) {
            return Optional.empty();
        }
    }
}
