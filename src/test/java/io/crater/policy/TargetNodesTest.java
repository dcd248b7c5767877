package io.crater.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class TargetNodesTest {

    static Stream<Arguments> requests() {
        List<String> many = new ArrayList<>();
        for (int i = 0; i < 65; i++) {
            many.add("n" + i);
        }
        return Stream.of(
                Arguments.of("nothing named", null, null, List.of()),
                Arguments.of("empty lists", List.of(), List.of(), List.of()),
                Arguments.of("an allow list", List.of("a100-1", "gpu.rack-2.example"), null, List.of()),
                Arguments.of("a deny list", null, List.of("a100-4"), List.of()),
                Arguments.of(
                        "both lists",
                        List.of("a"),
                        List.of("b"),
                        List.of("nodes: either use (only these nodes) or avoid (never these), not both")),
                Arguments.of(
                        "upper case and spaces",
                        List.of("A100-1", "a 1"),
                        null,
                        List.of(
                                "nodes.use[0]: a node's name (lowercase letters, digits, - and .)",
                                "nodes.use[1]: a node's name (lowercase letters, digits, - and .)")),
                Arguments.of(
                        "a leading dash, an empty name and a null",
                        null,
                        Arrays.asList("-x", "", null),
                        List.of(
                                "nodes.avoid[0]: a node's name (lowercase letters, digits, - and .)",
                                "nodes.avoid[1]: a node's name (lowercase letters, digits, - and .)",
                                "nodes.avoid[2]: a node's name (lowercase letters, digits, - and .)")),
                Arguments.of("a name twice", List.of("a", "b", "a"), null, List.of("nodes.use[2]: a is named twice")),
                Arguments.of(
                        "a name over 253 characters",
                        List.of("a".repeat(254)),
                        null,
                        List.of("nodes.use[0]: a node's name (lowercase letters, digits, - and .)")),
                Arguments.of("65 names", many, null, List.of("nodes.use: at most 64 nodes (65 given)")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("requests")
    void checksWhatAJobNames(String name, List<String> use, List<String> avoid, List<String> want) {
        assertThat(TargetNodes.check(use, avoid).stream()
                        .map(v -> v.field() + ": " + v.message())
                        .toList())
                .containsExactlyElementsOf(want);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("requests")
    void admitsWhatTheListsSay(String name, List<String> use, List<String> avoid, List<String> want) {
        if (!want.isEmpty()) {
            return;
        }
        TargetNodes t = TargetNodes.of(use, avoid);
        boolean named = (use != null && !use.isEmpty()) || (avoid != null && !avoid.isEmpty());
        assertThat(t.named()).isEqualTo(named);
        if (use != null && !use.isEmpty()) {
            assertThat(t.admits(use.get(0))).isTrue();
            assertThat(t.admits("elsewhere")).isFalse();
        } else if (avoid != null && !avoid.isEmpty()) {
            assertThat(t.admits(avoid.get(0))).isFalse();
            assertThat(t.admits("elsewhere")).isTrue();
        } else {
            assertThat(t).isEqualTo(TargetNodes.ANY);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("avoidings")
    void avoidingANodeAddsItToADenyListOrTakesItOutOfAnAllowListOfOthers(
            String name, TargetNodes before, String node, TargetNodes want) {
        assertThat(before.avoiding(node)).isEqualTo(want);
    }

    static Stream<Arguments> avoidings() {
        return Stream.of(
                Arguments.of("none named", TargetNodes.ANY, "a100-4", new TargetNodes(Set.of(), Set.of("a100-4"))),
                Arguments.of(
                        "a deny list grows",
                        new TargetNodes(Set.of(), Set.of("a")),
                        "b",
                        new TargetNodes(Set.of(), Set.of("a", "b"))),
                Arguments.of(
                        "already avoided",
                        new TargetNodes(Set.of(), Set.of("a")),
                        "a",
                        new TargetNodes(Set.of(), Set.of("a"))),
                Arguments.of(
                        "an allow list loses the node",
                        new TargetNodes(Set.of("a", "b"), Set.of()),
                        "a",
                        new TargetNodes(Set.of("b"), Set.of())),
                Arguments.of(
                        "an allow list of that node alone is the user's choice",
                        new TargetNodes(Set.of("a"), Set.of()),
                        "a",
                        new TargetNodes(Set.of("a"), Set.of())),
                Arguments.of(
                        "an allow list without the node",
                        new TargetNodes(Set.of("b"), Set.of()),
                        "a",
                        new TargetNodes(Set.of("b"), Set.of())));
    }
}
