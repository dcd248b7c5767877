package io.crater.policy;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kubernetes quantity strings ("500m", "2", "16Gi", "1.5", "1e3") as integer milli-units.
 *
 * <p>Memory "16Gi" is 16 × 2^30 bytes, i.e. 17179869184000 milli-bytes; CPU "500m" is 500 milli-cores. Every
 * quota, request and capacity in Crater is held this way: no floating point anywhere.
 */
public final class Quantities {

    private static final Pattern QUANTITY = Pattern.compile(
            "^([+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+))(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?$");

    private Quantities() {}

    /** A well-formed quantity whose value does not fit Crater's integer milli-units. */
    public static final class TooLarge extends IllegalArgumentException {
        public TooLarge(String quantity, Throwable cause) {
            super("quantity out of range: '" + quantity + "'", cause);
        }
    }

    /** True when the quantity carries a size suffix (k, M, G, T, P, E or Ki … Ei), i.e. is not a bare number. */
    public static boolean hasSizeSuffix(String quantity) {
        if (quantity == null) {
            return false;
        }
        Matcher m = QUANTITY.matcher(quantity.trim());
        if (!m.matches() || m.group(2) == null) {
            return false;
        }
        return m.group(2).matches("Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E");
    }

    /** Parses a quantity into milli-units, rounding a fraction of a milli-unit up (as Kubernetes does). */
    public static long toMilli(String quantity) {
        if (quantity == null || quantity.isBlank()) {
            throw new IllegalArgumentException("empty quantity");
        }
        Matcher m = QUANTITY.matcher(quantity.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("not a Kubernetes quantity: '" + quantity + "'");
        }
        BigDecimal number = new BigDecimal(m.group(1));
        BigDecimal milli = number.multiply(multiplier(m.group(2))).multiply(BigDecimal.valueOf(1000));
        try {
            return milli.setScale(0, RoundingMode.CEILING).longValueExact();
        } catch (ArithmeticException e) {
            throw new TooLarge(quantity, e);
        }
    }

    /** Formats milli-units back into the shortest exact quantity string ("500m", "4", "16Gi" for whole Gi). */
    public static String format(long milli) {
        if (milli % 1000 != 0) {
            return milli + "m";
        }
        long units = milli / 1000;
        String[] suffixes = {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
        String suffix = "";
        for (String s : suffixes) {
            if (units != 0 && units % 1024 == 0) {
                units /= 1024;
                suffix = s;
            } else {
                break;
            }
        }
        return units + suffix;
    }

    private static BigDecimal multiplier(String suffix) {
        if (suffix == null || suffix.isEmpty()) {
            return BigDecimal.ONE;
        }
        if (suffix.charAt(0) == 'e' || suffix.charAt(0) == 'E') {
            int exponent = Integer.parseInt(suffix.substring(1));
            if (Math.abs(exponent) > 40) {
                throw new TooLarge(suffix, null); // beyond any milli-unit amount either way; never expand it
            }
            return BigDecimal.TEN.pow(exponent, java.math.MathContext.UNLIMITED);
        }
        return switch (suffix) {
            case "n" -> new BigDecimal("0.000000001");
            case "u" -> new BigDecimal("0.000001");
            case "m" -> new BigDecimal("0.001");
            case "k" -> BigDecimal.valueOf(1_000L);
            case "M" -> BigDecimal.valueOf(1_000_000L);
            case "G" -> BigDecimal.valueOf(1_000_000_000L);
            case "T" -> BigDecimal.valueOf(1_000_000_000_000L);
            case "P" -> BigDecimal.valueOf(1_000_000_000_000_000L);
            case "E" -> new BigDecimal("1000000000000000000");
            case "Ki" -> BigDecimal.valueOf(1L << 10);
            case "Mi" -> BigDecimal.valueOf(1L << 20);
            case "Gi" -> BigDecimal.valueOf(1L << 30);
            case "Ti" -> BigDecimal.valueOf(1L << 40);
            case "Pi" -> BigDecimal.valueOf(1L << 50);
            case "Ei" -> BigDecimal.valueOf(1L << 60);
            default -> throw new IllegalArgumentException("unknown quantity suffix '" + suffix + "'");
        };
    }
}
