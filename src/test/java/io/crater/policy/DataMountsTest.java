package io.crater.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.crater.policy.DataMounts.Refusal;
import io.crater.policy.DataMounts.Wanted;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The checks on a job's dataset and model mounts: one table of named cases, each with the refusals it wants. */
class DataMountsTest {

    static Wanted dataset(String ref, String path) {
        return new Wanted(ref, null, path);
    }

    static Wanted model(String ref, String path) {
        return new Wanted(null, ref, path);
    }

    static Refusal refused(String field, String startOfMessage) {
        return new Refusal(field, startOfMessage);
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("none", List.of(), List.of()),
                Arguments.of("a dataset by name", List.of(dataset("imagenet", "/data/imagenet")), List.of()),
                Arguments.of("a model by owner/name", List.of(model("alice/llama-3", "/models/llama")), List.of()),
                Arguments.of("a dataset by id", List.of(dataset("ds_k3f9a2b1cd", "/data")), List.of()),
                Arguments.of(
                        "a dataset and a model side by side",
                        List.of(dataset("imagenet", "/data/imagenet"), model("llama", "/data/llama")),
                        List.of()),
                Arguments.of(
                        "neither dataset nor model",
                        List.of(new Wanted(null, " ", "/data")),
                        List.of(refused("mounts[0]", "name a dataset or a model"))),
                Arguments.of(
                        "both dataset and model",
                        List.of(new Wanted("a", "b", "/data")),
                        List.of(refused("mounts[0]", "name a dataset or a model, not both"))),
                Arguments.of(
                        "a name with capitals",
                        List.of(dataset("ImageNet", "/data")),
                        List.of(refused("mounts[0].dataset", "a name"))),
                Arguments.of(
                        "a model reference with two slashes",
                        List.of(model("a/b/c", "/m")),
                        List.of(refused("mounts[0].model", "a name"))),
                Arguments.of("no path", List.of(dataset("x", null)), List.of(refused("mounts[0].path", "required"))),
                Arguments.of(
                        "a relative path",
                        List.of(dataset("x", "data/x")),
                        List.of(refused("mounts[0].path", "an absolute path"))),
                Arguments.of(
                        "the root",
                        List.of(dataset("x", "/")),
                        List.of(refused("mounts[0].path", "not the container"))),
                Arguments.of(
                        "a climbing path",
                        List.of(dataset("x", "/data/../crater/user")),
                        List.of(refused("mounts[0].path", "a normalised path"))),
                Arguments.of(
                        "a trailing slash",
                        List.of(dataset("x", "/data/")),
                        List.of(refused("mounts[0].path", "a normalised path"))),
                Arguments.of(
                        "a double slash",
                        List.of(dataset("x", "/data//x")),
                        List.of(refused("mounts[0].path", "a normalised path"))),
                Arguments.of(
                        "a control character",
                        List.of(dataset("x", "/data/\nx")),
                        List.of(refused("mounts[0].path", "no control"))),
                Arguments.of(
                        "the user's space",
                        List.of(dataset("x", "/crater/user")),
                        List.of(refused("mounts[0].path", "/crater is Crater's"))),
                Arguments.of(
                        "under the account's space",
                        List.of(dataset("x", "/crater/account/data")),
                        List.of(refused("mounts[0].path", "/crater is Crater's"))),
                Arguments.of(
                        "Crater's own folder",
                        List.of(dataset("x", "/crater")),
                        List.of(refused("mounts[0].path", "/crater is Crater's"))),
                Arguments.of(
                        "shared memory",
                        List.of(dataset("x", "/dev/shm")),
                        List.of(refused("mounts[0].path", "/dev is Crater's"))),
                Arguments.of("/proc", List.of(dataset("x", "/proc/x")), List.of(refused("mounts[0].path", "/proc"))),
                Arguments.of("a look-alike of /crater", List.of(dataset("x", "/crater2/data")), List.of()),
                Arguments.of(
                        "the same path twice",
                        List.of(dataset("a", "/data"), model("b", "/data")),
                        List.of(refused("mounts[1].path", "mounted twice: mounts[0]"))),
                Arguments.of(
                        "one inside another",
                        List.of(dataset("a", "/data"), model("b", "/data/llama")),
                        List.of(refused("mounts[1].path", "overlaps mounts[0].path"))),
                Arguments.of(
                        "one above another",
                        List.of(dataset("a", "/data/imagenet"), model("b", "/data")),
                        List.of(refused("mounts[1].path", "overlaps mounts[0].path"))),
                Arguments.of(
                        "a refused path does not count as taken",
                        List.of(dataset("a", "/crater/x"), model("b", "/crater/x")),
                        List.of(refused("mounts[0].path", "/crater"), refused("mounts[1].path", "/crater"))),
                Arguments.of(
                        "an empty entry", Collections.singletonList(null), List.of(refused("mounts[0]", "an entry"))),
                Arguments.of(
                        "too many",
                        Collections.nCopies(DataMounts.MAX + 1, dataset("x", "/data")),
                        List.of(refused("mounts", "at most 16"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void checks(String name, List<Wanted> mounts, List<Refusal> want) {
        List<Refusal> got = DataMounts.check(new ArrayList<>(mounts));
        assertThat(got)
                .extracting(Refusal::field)
                .containsExactlyElementsOf(want.stream().map(Refusal::field).toList());
        for (int i = 0; i < want.size(); i++) {
            assertThat(got.get(i).message()).as(name).startsWith(want.get(i).message());
        }
    }
}
