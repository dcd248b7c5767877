package io.crater.policy;

import java.util.Locale;

/**
 * How a budget starts its next period: what of the account's balance expires before the period's amount is issued.
 * With a balance {@code b} at the period's end and an amount {@code a}, the new period opens at:
 *
 * <ul>
 *   <li>{@link #RESET}: {@code a}. What was left expires, and a debt is forgiven.
 *   <li>{@link #CARRY}: {@code b + a}. What was left is carried over, and so is a debt.
 *   <li>{@link #DEBT}: {@code min(b, 0) + a}. What was left expires, but a debt is carried over: overspending is
 *       paid back from the new period's amount.
 * </ul>
 */
public enum Renewal {
    RESET,
    CARRY,
    DEBT;

    /** The renewal of a stored or requested key: {@code reset}, {@code carry} or {@code debt} (in any case). */
    public static Renewal of(String key) {
        if (key != null) {
            for (Renewal r : values()) {
                if (r.key().equals(key.trim().toLowerCase(Locale.ROOT))) {
                    return r;
                }
            }
        }
        throw new IllegalArgumentException("a renewal is one of: reset, carry, debt (was '" + key + "')");
    }

    /** The key as the API and the database spell it. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * What of {@code balance} expires when the next period starts: the whole balance ({@link #RESET}, a negative one
     * is forgiven), nothing ({@link #CARRY}), or only a positive rest ({@link #DEBT}). The expiry posts its negation
     * to the account's book.
     */
    public long expired(long balance) {
        return switch (this) {
            case RESET -> balance;
            case CARRY -> 0;
            case DEBT -> Math.max(0, balance);
        };
    }

    /** The balance the next period opens at: {@code balance} less what expires, plus the period's amount. */
    public long opening(long balance, long amount) {
        return Math.addExact(Math.subtractExact(balance, expired(balance)), amount);
    }
}
