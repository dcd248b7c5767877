package io.crater.policy;

import java.util.Map;
import java.util.TreeMap;

/**
 * Why a decision came out as it did: a stable code, a sentence for people, the numbers behind it and the names it
 * is about. The console renders a reason from its code, numbers and arguments alone; the sentence is for API
 * clients and the CLI.
 *
 * @param code stable machine-readable code, one of {@link ReasonCode}, e.g. {@code InsufficientCapacity}
 * @param message human-readable explanation quoting the numbers
 * @param numbers the figures the decision used (milli-units for resources)
 * @param args the names the reason is about ({@code resource}, {@code image}, {@code pod}, {@code node}, ...)
 */
public record Reason(String code, String message, Map<String, Long> numbers, Map<String, String> args) {
    public Reason {
        numbers = numbers == null ? Map.of() : Map.copyOf(new TreeMap<>(numbers));
        args = args == null ? Map.of() : Map.copyOf(new TreeMap<>(args));
    }

    /** A reason without names to quote. */
    public Reason(String code, String message, Map<String, Long> numbers) {
        this(code, message, numbers, Map.of());
    }
}
