package io.crater.policy;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BinaryOperator;

/**
 * An immutable bundle of resource amounts in milli-units, keyed by Kubernetes resource name ({@code cpu},
 * {@code memory}, {@code nvidia.com/gpu}, ...). A missing name means zero.
 */
public record Resources(Map<String, Long> amounts) {

    public static final Resources NONE = new Resources(Map.of());

    public Resources {
        TreeMap<String, Long> copy = new TreeMap<>();
        amounts.forEach((name, milli) -> {
            if (milli != 0) {
                copy.put(name, milli);
            }
        });
        amounts = Collections.unmodifiableMap(copy);
    }

    /** Builds from Kubernetes quantity strings. */
    public static Resources ofQuantities(Map<String, String> quantities) {
        TreeMap<String, Long> milli = new TreeMap<>();
        if (quantities != null) {
            quantities.forEach((name, q) -> milli.put(name, Quantities.toMilli(q)));
        }
        return new Resources(milli);
    }

    public static Resources of(String name, long milli) {
        return new Resources(Map.of(name, milli));
    }

    public long get(String name) {
        return amounts.getOrDefault(name, 0L);
    }

    public Resources plus(Resources other) {
        return combine(other, Long::sum);
    }

    public Resources minus(Resources other) {
        return combine(other, (a, b) -> a - b);
    }

    /** Element-wise maximum: Kubernetes' rule for init containers against the sum of app containers. */
    public Resources max(Resources other) {
        return combine(other, Math::max);
    }

    public Resources times(int factor) {
        TreeMap<String, Long> out = new TreeMap<>();
        amounts.forEach((n, v) -> out.put(n, Math.multiplyExact(v, factor)));
        return new Resources(out);
    }

    /** True when every amount here is at most the same amount in {@code limit}. */
    public boolean fitsIn(Resources limit) {
        for (Map.Entry<String, Long> e : amounts.entrySet()) {
            if (e.getValue() > limit.get(e.getKey())) {
                return false;
            }
        }
        return true;
    }

    public boolean isNegativeAnywhere() {
        return amounts.values().stream().anyMatch(v -> v < 0);
    }

    private Resources combine(Resources other, BinaryOperator<Long> op) {
        TreeMap<String, Long> out = new TreeMap<>(amounts);
        other.amounts.forEach((n, v) -> out.put(n, op.apply(out.getOrDefault(n, 0L), v)));
        amounts.forEach((n, v) -> {
            if (!other.amounts.containsKey(n)) {
                out.put(n, op.apply(v, 0L));
            }
        });
        return new Resources(out);
    }
}
