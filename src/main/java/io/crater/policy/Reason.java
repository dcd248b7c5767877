package io.crater.policy;

import java.util.Map;
import java.util.TreeMap;

/**
 * Why a decision came out as it did: a stable code, a sentence for people, and the numbers behind it.
 *
 * @param code stable machine-readable code, e.g. {@code InsufficientCapacity}
 * @param message human-readable explanation quoting the numbers
 * @param numbers the figures the decision used (milli-units for resources)
 */
public record Reason(String code, String message, Map<String, Long> numbers) {
    public Reason {
        numbers = Map.copyOf(new TreeMap<>(numbers));
    }
}
