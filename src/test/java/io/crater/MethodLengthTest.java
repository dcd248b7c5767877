package io.crater;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * No main method is over {@value #MAX_LINES} lines (from its opening brace to its closing one), so a method is split
 * along its seams before it hurts. The methods that were over it when the check came in are listed with the size
 * they had: they may shrink, never grow, and leave the list once split.
 */
class MethodLengthTest {

    static final int MAX_LINES = 60;

    /** Over the limit when the check came in ({@code file#method}), each with its length then: to be split. */
    static final Map<String, Integer> TO_SPLIT = Map.ofEntries(
            Map.entry("sim/apiserver/InProcessApiServer.java#route", 83),
            Map.entry("sim/apiserver/KubeStore.java#create", 61),
            Map.entry("sim/cluster/SimShell.java#command", 66),
            Map.entry("sim/cluster/VolcanoJobController.java#statusOf", 65));

    static Map<String, Integer> longest() {
        Map<String, Integer> out = new TreeMap<>();
        JavaSources.stripped()
                .forEach((file, src) -> JavaSources.methods(src).forEach(m -> {
                    out.merge(file + "#" + m.name(), m.lines(), Math::max);
                }));
        return out;
    }

    @Test
    void noMainMethodGrowsPastTheLimit() {
        Map<String, Integer> over = new TreeMap<>();
        longest().forEach((method, lines) -> {
            if (lines > TO_SPLIT.getOrDefault(method, MAX_LINES)) {
                over.put(method, lines);
            }
        });
        assertThat(over)
                .as("methods over " + MAX_LINES + " lines (or over their length when listed)")
                .isEmpty();
    }

    @Test
    void theListHoldsOnlyMethodsStillOverTheLimit() {
        Map<String, Integer> lengths = longest();
        Map<String, Integer> split = new TreeMap<>();
        TO_SPLIT.forEach((method, then) -> {
            if (lengths.getOrDefault(method, 0) <= MAX_LINES) {
                split.put(method, lengths.getOrDefault(method, 0));
            }
        });
        assertThat(split)
                .as("methods now within the limit: remove them from the list")
                .isEmpty();
    }
}
