package io.crater.cli;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;

/** The figures of reasons as the console prints them (src/main/webui/src/lib/units.ts): amounts, money, numbers. */
final class ReasonFigures {

    private static final long GIB = 1L << 30;

    private ReasonFigures() {}

    /** A milli-unit amount in the resource's display unit, with "GiB" for memory: 2^30·1000 → "1 GiB". */
    static String amount(String resource, double milli) {
        if (!Double.isFinite(milli)) {
            return "—";
        }
        String r = resource == null ? "" : resource;
        return switch (r) {
            case "cpu" -> trim(milli / 1000, 2);
            case "memory" -> trim(milli / 1000 / GIB, 1) + " GiB";
            default -> trim(milli / 1000, 2);
        };
    }

    /** The amount of {@code numbers[key]}. */
    static String amount(String resource, Map<?, ?> n, String key) {
        return amount(resource, num(n, key));
    }

    /** JavaScript's toFixed(digits) without trailing zeros: 0.5 → "0.5", 8 → "8". */
    static String trim(double value, int digits) {
        String fixed =
                new BigDecimal(value).setScale(digits, RoundingMode.HALF_UP).toPlainString();
        String trimmed = fixed.contains(".") ? fixed.replaceAll("\\.?0+$", "") : fixed;
        return trimmed.equals("-0") ? "0" : trimmed;
    }

    /** Micro-units of money as the console prints them: 12_500_000 → "12.5", -3_000_000 → "-3". */
    static String money(long micros) {
        long abs = Math.abs(micros);
        String fraction = String.format("%06d", abs % 1_000_000).replaceAll("0+$", "");
        return (micros < 0 ? "-" : "") + abs / 1_000_000 + (fraction.isEmpty() ? "" : "." + fraction);
    }

    static String period(String iso) {
        return head(iso, 16).replace('T', ' ') + " UTC";
    }

    static String head(String s, int length) {
        return s.length() <= length ? s : s.substring(0, length);
    }

    static boolean has(Map<?, ?> n, String... keys) {
        for (String k : keys) {
            if (!(n.get(k) instanceof Number x) || !Double.isFinite(x.doubleValue())) {
                return false;
            }
        }
        return true;
    }

    static double num(Map<?, ?> n, String key) {
        return n.get(key) instanceof Number x ? x.doubleValue() : 0;
    }

    static double jsNumber(Object o) {
        if (o instanceof Number x) {
            return x.doubleValue();
        }
        try {
            return Double.parseDouble(String.valueOf(o).strip());
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    /** A number as JavaScript prints it: 5 → "5", 0.5 → "0.5". */
    static String js(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }
}
