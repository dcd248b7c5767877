package io.crater.gpus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ExpositionParserTest {

    static List<Arguments> lines() {
        return List.of(
                Arguments.of("plain", "up 1", "up", Map.of(), 1.0),
                Arguments.of("labels", "m{a=\"x\",b=\"y\"} 2.5", "m", Map.of("a", "x", "b", "y"), 2.5),
                Arguments.of("trailing comma and spaces", "m{ a=\"x\", } 3", "m", Map.of("a", "x"), 3.0),
                Arguments.of("escaped quote", "m{a=\"say \\\"hi\\\"\"} 1", "m", Map.of("a", "say \"hi\""), 1.0),
                Arguments.of("escaped backslash", "m{a=\"C:\\\\gpu\"} 1", "m", Map.of("a", "C:\\gpu"), 1.0),
                Arguments.of("escaped newline", "m{a=\"two\\nlines\"} 1", "m", Map.of("a", "two\nlines"), 1.0),
                Arguments.of("braces and commas in a value", "m{a=\"{x,y}\"} 1", "m", Map.of("a", "{x,y}"), 1.0),
                Arguments.of("timestamp ignored", "m{a=\"x\"} 7 1733000000000", "m", Map.of("a", "x"), 7.0),
                Arguments.of("exponent", "m 1.5e3", "m", Map.of(), 1500.0),
                Arguments.of("positive infinity", "m +Inf", "m", Map.of(), Double.POSITIVE_INFINITY),
                Arguments.of("negative infinity", "m -Inf", "m", Map.of(), Double.NEGATIVE_INFINITY),
                Arguments.of("empty value", "m{pod=\"\"} 0", "m", Map.of("pod", ""), 0.0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("lines")
    void readsASampleLine(String name, String line, String metric, Map<String, String> labels, double value) {
        List<ExpositionParser.Sample> samples = ExpositionParser.parse(line);
        assertThat(samples).hasSize(1);
        assertThat(samples.get(0).name()).isEqualTo(metric);
        assertThat(samples.get(0).labels()).isEqualTo(labels);
        assertThat(samples.get(0).value()).isEqualTo(value);
    }

    @Test
    void skipsHelpTypeCommentsAndBlankLinesAndReadsNaN() {
        String text = "# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).\n"
                + "# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n"
                + "\n"
                + "# a comment\n"
                + "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\"} NaN\n"
                + "DCGM_FI_DEV_GPU_UTIL{gpu=\"1\"} 40\r\n";
        List<ExpositionParser.Sample> samples = ExpositionParser.parse(text);
        assertThat(samples).hasSize(2);
        assertThat(samples.get(0).value()).isNaN();
        assertThat(samples.get(1).labels()).containsEntry("gpu", "1");
        assertThat(samples.get(1).value()).isEqualTo(40.0);
    }

    static List<Arguments> broken() {
        return List.of(
                Arguments.of("m{a=\"x\" 1", "line 2: expected ',' or '}' after the value of a"),
                Arguments.of("m{a=\"x} 1", "line 2: a label value is not closed"),
                Arguments.of("m{a=x} 1", "line 2: expected '\"' after a="),
                Arguments.of("m{a=\"\\t\"} 1", "line 2: unknown escape \\t"),
                Arguments.of("m many", "line 2: not a number: many"),
                Arguments.of("m", "line 2: expected a value (and an optional timestamp) after m"),
                Arguments.of("{a=\"x\"} 1", "line 2: no metric name"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("broken")
    void refusesBrokenLinesNamingThem(String line, String message) {
        assertThatThrownBy(() -> ExpositionParser.parse("ok 1\n" + line + "\n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message);
    }
}
