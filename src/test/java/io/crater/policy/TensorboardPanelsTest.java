package io.crater.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class TensorboardPanelsTest {

    static TensorboardPanels.Source folder(String path) {
        return new TensorboardPanels.Source("user", path, null, null);
    }

    static TensorboardPanels.Source job(String id) {
        return new TensorboardPanels.Source(null, null, id, null);
    }

    static TensorboardPanels.Source named(TensorboardPanels.Source s, String name) {
        return new TensorboardPanels.Source(s.space(), s.path(), s.job(), name);
    }

    static Stream<Arguments> panels() {
        return Stream.of(
                Arguments.of("one folder", "runs-june", List.of(folder("/runs/exp1")), List.of()),
                Arguments.of("a folder and a job", "runs", List.of(folder("/runs/exp1"), job("j7k3f9")), List.of()),
                Arguments.of(
                        "eight folders",
                        "runs",
                        Stream.iterate(0, i -> i + 1)
                                .limit(8)
                                .map(i -> folder("/r" + i))
                                .toList(),
                        List.of()),
                Arguments.of("no name", null, List.of(folder("/a")), List.of("name")),
                Arguments.of("a bad name", "Runs June", List.of(folder("/a")), List.of("name")),
                Arguments.of("a name too long", "r".repeat(64), List.of(folder("/a")), List.of("name")),
                Arguments.of("no sources", "runs", List.of(), List.of("sources")),
                Arguments.of("no list", "runs", null, List.of("sources")),
                Arguments.of(
                        "nine folders",
                        "runs",
                        Stream.iterate(0, i -> i + 1)
                                .limit(9)
                                .map(i -> folder("/r" + i))
                                .toList(),
                        List.of("sources")),
                Arguments.of(
                        "a folder and a job in one entry",
                        "runs",
                        List.of(new TensorboardPanels.Source("user", "/a", "j7k3f9", null)),
                        List.of("sources[0]")),
                Arguments.of(
                        "neither",
                        "runs",
                        List.of(new TensorboardPanels.Source("user", null, null, null)),
                        List.of("sources[0]")),
                Arguments.of("a relative path", "runs", List.of(folder("runs")), List.of("sources[0].path")),
                Arguments.of("a path going up", "runs", List.of(folder("/runs/../etc")), List.of("sources[0].path")),
                Arguments.of("a job id that is not one", "runs", List.of(job("J-7!")), List.of("sources[0].job")),
                Arguments.of(
                        "two folders of the same last name",
                        "runs",
                        List.of(folder("/a/exp"), folder("/b/exp")),
                        List.of("sources[1].name")),
                Arguments.of(
                        "told apart by names",
                        "runs",
                        List.of(named(folder("/a/exp"), "a"), named(folder("/b/exp"), "b")),
                        List.of()),
                Arguments.of(
                        "a name with the spec's separators",
                        "runs",
                        List.of(named(folder("/a"), "x:y,z")),
                        List.of("sources[0].name")),
                Arguments.of(
                        "a folder whose last name cannot be a prefix",
                        "runs",
                        List.of(folder("/my runs")),
                        List.of("sources[0].name")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("panels")
    void checks(String what, String name, List<TensorboardPanels.Source> sources, List<String> wantFields) {
        assertThat(TensorboardPanels.check(name, sources).stream()
                        .map(TensorboardPanels.Refusal::field)
                        .toList())
                .isEqualTo(wantFields);
    }

    @Test
    void refusalsSayWhy() {
        assertThat(TensorboardPanels.check("runs", Collections.nCopies(9, folder("/a"))))
                .containsExactly(new TensorboardPanels.Refusal("sources", "at most 8 log folders (this panel has 9)"));
        assertThat(TensorboardPanels.check("runs", List.of(folder("/a/exp"), folder("/b/exp"))))
                .containsExactly(new TensorboardPanels.Refusal(
                        "sources[1].name", "'exp' names another folder of this panel already"));
    }

    @Test
    void prefixesComeFromTheNameThePathOrTheJob() {
        assertThat(TensorboardPanels.prefix(folder("/runs/exp1"))).isEqualTo("exp1");
        assertThat(TensorboardPanels.prefix(job("j7k3f9"))).isEqualTo("j7k3f9");
        assertThat(TensorboardPanels.prefix(named(job("j7k3f9"), "train"))).isEqualTo("train");
        assertThat(TensorboardPanels.prefix(new TensorboardPanels.Source("account:lab", "/", null, null)))
                .isEqualTo("account-lab");
    }

    @Test
    void theCommandLineNamesEachFolderAtItsMount() {
        assertThat(TensorboardPanels.args(List.of("exp1", "j7k3f9")))
                .containsExactly("--logdir_spec", "exp1:/logs/0,j7k3f9:/logs/1", "--bind_all", "--port", "6006");
        assertThat(TensorboardPanels.args(List.of("only")))
                .containsExactly("--logdir_spec", "only:/logs/0", "--bind_all", "--port", "6006");
    }

    static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    static final Duration HOUR = Duration.ofMinutes(60);

    static Stream<Arguments> idleness() {
        return Stream.of(
                Arguments.of("never used, started 59 min ago", T0, null, T0.plusSeconds(59 * 60), HOUR, false),
                Arguments.of("never used, started an hour ago", T0, null, T0.plus(HOUR), HOUR, true),
                Arguments.of("used 10 min ago", T0, T0.plus(HOUR), T0.plus(HOUR).plusSeconds(600), HOUR, false),
                Arguments.of(
                        "used an hour ago",
                        T0,
                        T0.plusSeconds(60),
                        T0.plusSeconds(60).plus(HOUR),
                        HOUR,
                        true),
                Arguments.of(
                        "a request before this start (an older server's)",
                        T0,
                        T0.minusSeconds(10),
                        T0.plusSeconds(30 * 60),
                        HOUR,
                        false),
                Arguments.of(
                        "a timeout of zero never stops", T0, null, T0.plus(Duration.ofDays(3)), Duration.ZERO, false),
                Arguments.of("an unknown start never stops", null, null, T0.plus(Duration.ofDays(3)), HOUR, false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("idleness")
    void idle(String what, Instant started, Instant last, Instant now, Duration timeout, boolean want) {
        assertThat(TensorboardPanels.idle(started, last, now, timeout)).isEqualTo(want);
    }
}
