package io.crater.kube;

import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * Kubernetes quantities as integer milli-units per resource name ({@code "500m"} cpu is 500, {@code "1Gi"} memory is
 * 2^30 × 1000), read with fabric8's own quantity parser. A map of amounts never holds a zero: a missing name is zero.
 */
public final class KubeQuantities {

    private KubeQuantities() {}

    /** Milli-units of a quantity, a fraction of a milli-unit rounded up (as Kubernetes does). */
    public static long toMilli(Quantity quantity) {
        BigDecimal amount;
        try {
            amount = quantity.getNumericalAmount();
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a Kubernetes quantity: '" + quantity + "'", e);
        }
        try {
            return amount.movePointRight(3).setScale(0, RoundingMode.CEILING).longValueExact();
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("quantity out of range: '" + quantity + "'", e);
        }
    }

    /** Milli-units of a quantity string ({@code "16Gi"}, {@code "1.5"}). */
    public static long toMilli(String quantity) {
        if (quantity == null || quantity.isBlank()) {
            throw new IllegalArgumentException("empty quantity");
        }
        return toMilli(new Quantity(quantity.trim()));
    }

    /** Milli-units per resource name of a Kubernetes resource list (null: none). */
    public static Map<String, Long> amounts(Map<String, Quantity> quantities) {
        Map<String, Long> out = new TreeMap<>();
        if (quantities != null) {
            quantities.forEach((name, q) -> out.put(name, toMilli(q)));
        }
        return normal(out);
    }

    /** Milli-units per resource name of quantity strings (null: none). */
    public static Map<String, Long> amountsOfStrings(Map<String, String> quantities) {
        Map<String, Long> out = new TreeMap<>();
        if (quantities != null) {
            quantities.forEach((name, q) -> out.put(name, toMilli(q)));
        }
        return normal(out);
    }

    /** The shortest exact quantity string of milli-units: {@code "500m"}, {@code "4"}, {@code "16Gi"} for whole Gi. */
    public static String format(long milli) {
        if (milli % 1000 != 0) {
            return milli + "m";
        }
        long units = milli / 1000;
        String suffix = "";
        for (String s : new String[] {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}) {
            if (units == 0 || units % 1024 != 0) {
                break;
            }
            units /= 1024;
            suffix = s;
        }
        return units + suffix;
    }

    /** Quantity strings of amounts, by resource name. */
    public static Map<String, String> strings(Map<String, Long> amounts) {
        Map<String, String> out = new TreeMap<>();
        amounts.forEach((name, milli) -> out.put(name, format(milli)));
        return out;
    }

    /** The per-resource sum of two amounts. */
    public static Map<String, Long> plus(Map<String, Long> a, Map<String, Long> b) {
        Map<String, Long> out = new TreeMap<>(a);
        b.forEach((name, milli) -> out.merge(name, milli, Math::addExact));
        return normal(out);
    }

    /** The per-resource larger of two amounts. */
    public static Map<String, Long> max(Map<String, Long> a, Map<String, Long> b) {
        Map<String, Long> out = new TreeMap<>(a);
        b.forEach((name, milli) -> out.merge(name, milli, Math::max));
        return normal(out);
    }

    /** Amounts multiplied by a count. */
    public static Map<String, Long> times(Map<String, Long> a, int count) {
        Map<String, Long> out = new TreeMap<>();
        a.forEach((name, milli) -> out.put(name, Math.multiplyExact(milli, (long) count)));
        return normal(out);
    }

    private static Map<String, Long> normal(Map<String, Long> amounts) {
        amounts.values().removeIf(v -> v == 0);
        return Collections.unmodifiableMap(amounts);
    }
}
