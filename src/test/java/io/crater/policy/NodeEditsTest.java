package io.crater.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Node label and taint edits checked by Kubernetes' syntax, one named case a row. */
class NodeEditsTest {

    static Stream<Arguments> keys() {
        return Stream.of(
                Arguments.of("plain name", "zone", null),
                Arguments.of("prefixed", "topology.kubernetes.io/zone", null),
                Arguments.of("dots dashes underscores", "a.b-c_d", null),
                Arguments.of("63 characters", "a".repeat(63), null),
                Arguments.of("64 characters", "a".repeat(64), "name part"),
                Arguments.of("empty", "", "must not be empty"),
                Arguments.of("starts with a dash", "-zone", "name part"),
                Arguments.of("ends with a dot", "zone.", "name part"),
                Arguments.of("space", "my zone", "name part"),
                Arguments.of("empty prefix", "/zone", "prefix"),
                Arguments.of("upper-case prefix", "Example.com/zone", "prefix"),
                Arguments.of("two slashes", "a/b/c", "name part"),
                Arguments.of(
                        "prefix of 254",
                        "a".repeat(60) + "." + "b".repeat(60) + "." + "c".repeat(60) + "." + "d".repeat(60) + "."
                                + "e".repeat(11) + "/x",
                        "prefix"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("keys")
    void keys(String name, String key, String problem) {
        String got = NodeEdits.keyProblem(key);
        if (problem == null) {
            assertThat(got).isNull();
        } else {
            assertThat(got).contains(problem);
        }
    }

    static Stream<Arguments> values() {
        return Stream.of(
                Arguments.of("empty", "", true),
                Arguments.of("simple", "a100", true),
                Arguments.of("dots inside", "v1.2_3-x", true),
                Arguments.of("63", "x".repeat(63), true),
                Arguments.of("64", "x".repeat(64), false),
                Arguments.of("slash", "a/b", false),
                Arguments.of("trailing dash", "abc-", false),
                Arguments.of("unicode", "显卡", false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("values")
    void values(String name, String value, boolean valid) {
        assertThat(NodeEdits.valueProblem(value) == null).isEqualTo(valid);
    }

    static Stream<Arguments> labelEdits() {
        return Stream.of(
                Arguments.of("set and remove", Map.of("rack", "r1"), List.of("old"), List.of()),
                Arguments.of("bad key", Map.of("bad key", "x"), List.of(), List.of("set.bad key")),
                Arguments.of("bad value", Map.of("rack", "a b"), List.of(), List.of("set.rack")),
                Arguments.of("bad removal", Map.of(), List.of("-x"), List.of("remove[0]")),
                Arguments.of("both set and removed", Map.of("rack", "r1"), List.of("rack"), List.of("remove[0]")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("labelEdits")
    void labels(String name, Map<String, String> set, List<String> remove, List<String> fields) {
        assertThat(NodeEdits.labels(set, remove))
                .extracting(NodeEdits.Violation::field)
                .containsExactlyElementsOf(fields);
    }

    static NodeEdits.TaintSpec t(String key, String value, String effect) {
        return new NodeEdits.TaintSpec(key, value, effect);
    }

    static Stream<Arguments> taintEdits() {
        return Stream.of(
                Arguments.of("valid add", List.of(t("dedicated", "ml", "NoSchedule")), List.of(), List.of()),
                Arguments.of("no value", List.of(t("gpu-broken", null, "NoExecute")), List.of(), List.of()),
                Arguments.of("prefer", List.of(t("a.io/b", "", "PreferNoSchedule")), List.of(), List.of()),
                Arguments.of(
                        "unknown effect", List.of(t("dedicated", "ml", "NoRun")), List.of(), List.of("add[0].effect")),
                Arguments.of("no effect", List.of(t("dedicated", "ml", null)), List.of(), List.of("add[0].effect")),
                Arguments.of("bad key", List.of(t("bad key", "ml", "NoSchedule")), List.of(), List.of("add[0].key")),
                Arguments.of(
                        "bad value", List.of(t("dedicated", "m l", "NoSchedule")), List.of(), List.of("add[0].value")),
                Arguments.of(
                        "cordon taint",
                        List.of(t(NodeEdits.CORDON_TAINT, "", "NoSchedule")),
                        List.of(),
                        List.of("add[0].key")),
                Arguments.of(
                        "twice",
                        List.of(t("dedicated", "a", "NoSchedule"), t("dedicated", "b", "NoSchedule")),
                        List.of(),
                        List.of("add[1]")),
                Arguments.of(
                        "removal needs an effect",
                        List.of(),
                        List.of(t("dedicated", null, "")),
                        List.of("remove[0].effect")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("taintEdits")
    void taints(String name, List<NodeEdits.TaintSpec> add, List<NodeEdits.TaintSpec> remove, List<String> fields) {
        assertThat(NodeEdits.taints(add, remove))
                .extracting(NodeEdits.Violation::field)
                .containsExactlyElementsOf(fields);
    }

    static Stream<Arguments> reasons() {
        return Stream.of(
                Arguments.of("given", "replacing a fan", true),
                Arguments.of("missing", null, false),
                Arguments.of("blank", "   ", false),
                Arguments.of("256", "r".repeat(256), true),
                Arguments.of("257", "r".repeat(257), false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("reasons")
    void reasons(String name, String reason, boolean valid) {
        assertThat(NodeEdits.reasonProblem(reason) == null).isEqualTo(valid);
    }
}
