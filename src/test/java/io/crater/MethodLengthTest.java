package io.crater;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * No main method is over {@value #MAX_LINES} lines (from its opening brace to its closing one), so a method is split
 * along its seams before it hurts. The fourteen that were over it when the check came in have all been split.
 */
class MethodLengthTest {

    static final int MAX_LINES = 60;

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
            if (lines > MAX_LINES) {
                over.put(method, lines);
            }
        });
        assertThat(over).as("methods over " + MAX_LINES + " lines").isEmpty();
    }
}
