package io.crater.policy;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Money as the API takes and gives it: a decimal text with at most six decimals ({@code 2.5}, {@code 1200},
 * {@code 0.000001}) for integer micro-units, the only form money is computed and stored in.
 */
public final class Money {

    /** Largest amount taken: one trillion units (10^18 micro-units, within a long). */
    public static final long MAX_MICROS = 1_000_000_000_000_000_000L;

    private Money() {}

    /** The micro-units of a valid amount, or why the text is not one (never both). */
    public record Parsed(long micros, String problem) {
        public boolean ok() {
            return problem == null;
        }
    }

    /** Parses a non-negative amount ({@code allowNegative} for adjustments). */
    public static Parsed parse(String text, boolean allowNegative) {
        if (text == null || text.isBlank()) {
            return new Parsed(0, "required");
        }
        BigDecimal value;
        try {
            value = new BigDecimal(text.trim());
        } catch (NumberFormatException e) {
            return new Parsed(0, "not an amount (examples: 2.5, 1200, 0.75)");
        }
        if (value.signum() < 0 && !allowNegative) {
            return new Parsed(0, "must not be negative");
        }
        if (value.stripTrailingZeros().scale() > 6) {
            return new Parsed(0, "at most 6 decimals");
        }
        BigDecimal micros = value.movePointRight(6).setScale(0, RoundingMode.UNNECESSARY);
        if (micros.abs().compareTo(BigDecimal.valueOf(MAX_MICROS)) > 0) {
            return new Parsed(0, "too large: at most " + format(MAX_MICROS));
        }
        return new Parsed(micros.longValueExact(), null);
    }

    /** The decimal text of micro-units, without trailing zeros ({@code 2500000} is {@code "2.5"}). */
    public static String format(long micros) {
        BigDecimal v = BigDecimal.valueOf(micros).movePointLeft(6).stripTrailingZeros();
        return v.scale() < 0 ? v.setScale(0).toPlainString() : v.toPlainString();
    }
}
