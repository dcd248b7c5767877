package io.crater.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The downloads' pure rules as tables: checks, the dedup key, file selection, progress, checksums, the command, limits. */
class HubDownloadsTest {

    static final String SHA = "0123456789abcdef0123456789abcdef01234567";

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "meta-llama/Llama-3-8B|true",
                "gpt2|true",
                "org/name.v1_x|true",
                "a/b/c|false",
                "bad name|false",
                "-lead/x|false",
                "org/x--y|false",
                "org/x..y|false",
                "org/model.git|false",
                "/abs|false",
            })
    void repositories(String repo, boolean ok) {
        assertThat(HubDownloads.repositoryProblem(repo) == null).isEqualTo(ok);
    }

    @Test
    void aRequestNamesEveryBadField() {
        List<HubDownloads.Violation> v = HubDownloads.check(
                new HubDownloads.Wanted("weights", "gitlab", "x y", "a b", List.of("ok", "has space"), List.of("")));
        assertThat(v)
                .extracting(HubDownloads.Violation::field)
                .containsExactly("kind", "hub", "repository", "revision", "include", "exclude");
        assertThat(HubDownloads.check(
                        new HubDownloads.Wanted("model", "huggingface", "org/m", "main", List.of("*.json"), null)))
                .isEmpty();
    }

    @Test
    void theKeyIgnoresPatternOrderAndRepositoryCaseButNotTheCommitOrThePatterns() {
        String k = HubDownloads.key("huggingface", "model", "Org/M", SHA, List.of("b", "a", "a"), List.of());
        assertThat(HubDownloads.key("huggingface", "model", "org/m", SHA, List.of("a", "b"), null))
                .isEqualTo(k);
        assertThat(HubDownloads.key("huggingface", "model", "org/m", SHA.replace('0', '1'), List.of("a", "b"), null))
                .isNotEqualTo(k);
        assertThat(HubDownloads.key("huggingface", "model", "org/m", SHA, List.of("a"), List.of("b")))
                .isNotEqualTo(k);
        assertThat(HubDownloads.key("huggingface", "dataset", "org/m", SHA, List.of("a", "b"), null))
                .isNotEqualTo(k);
    }

    @ParameterizedTest(name = "modelscope {0}@{1} -> {2}")
    @CsvSource(
            delimiter = '|',
            value = {
                "Qwen/Qwen2.5-7B|master|",
                "Qwen/Qwen2.5-7B|v1.0.2|",
                "gpt2|master|repository",
                "Qwen/Qwen2.5-7B|0123456789abcdef0123456789abcdef01234567|revision",
                "a/b/c|master|repository",
            })
    void modelScopeRequests(String repo, String revision, String field) {
        List<HubDownloads.Violation> v =
                HubDownloads.check(new HubDownloads.Wanted("model", "modelscope", repo, revision, null, null));
        assertThat(v)
                .extracting(HubDownloads.Violation::field)
                .containsExactlyElementsOf(field == null ? List.of() : List.of(field));
        assertThat(HubDownloads.defaultRevision("modelscope")).isEqualTo("master");
        assertThat(HubDownloads.defaultRevision("huggingface")).isEqualTo("main");
    }

    @ParameterizedTest(name = "{0} {1} exclude [{2}] -> {3}")
    @CsvSource(
            delimiter = '|',
            value = {
                "huggingface|model.onnx|onnx/|true",
                "modelscope|model.onnx|onnx/|false",
                "modelscope|sub/README.md|README.md|false",
                "huggingface|sub/README.md|README.md|true",
                "modelscope|weights.bin|*.md|true",
                "modelscope|notes.md|*.md|false",
            })
    void modelScopesExcludeAlsoFindsInTheName(String hub, String path, String exclude, boolean taken) {
        assertThat(HubDownloads.selected(hub, path, List.of(), List.of(exclude)))
                .isEqualTo(taken);
    }

    @Test
    void modelScopesCommandIsItsClientsOwn() {
        assertThat(HubDownloads.command(
                        "modelscope",
                        "dataset",
                        "org/d",
                        "master",
                        List.of("*.json"),
                        List.of("*.md"),
                        "/crater/user/d",
                        "https://www.modelscope.cn"))
                .containsExactly(
                        "modelscope",
                        "download",
                        "--dataset",
                        "org/d",
                        "--revision",
                        "master",
                        "--include",
                        "*.json",
                        "--exclude",
                        "*.md",
                        "--local_dir",
                        "/crater/user/d",
                        "--endpoint",
                        "https://www.modelscope.cn");
        assertThat(HubDownloads.command("huggingface", "model", "org/m", SHA, null, null, "/d", "x"))
                .startsWith("huggingface-cli", "download", "org/m");
    }

    @ParameterizedTest(name = "{0} include [{1}] exclude [{2}] -> {3}")
    @CsvSource(
            delimiter = '|',
            value = {
                "model.safetensors|*.safetensors||true",
                "sub/model.safetensors|*.safetensors||true",
                "config.json|*.safetensors||false",
                "config.json|||true",
                "onnx/model.onnx||onnx/|false",
                "onnx/model.onnx|onnx/||true",
                "model-00001.bin|model-0000?.bin||true",
                "model-0000a.bin|model-0000[0-9].bin||false",
                "model-0000a.bin|model-0000[!0-9].bin||true",
                "README.md|*|*.md|false",
            })
    void fileSelectionFollowsFnmatch(String path, String include, String exclude, boolean taken) {
        List<String> inc = include == null ? List.of() : List.of(include);
        List<String> exc = exclude == null ? List.of() : List.of(exclude);
        assertThat(HubDownloads.selected(path, inc, exc)).isEqualTo(taken);
    }

    @Test
    void progressCountsPresentBytesUpToEachFilesSize() {
        List<HubDownloads.HubFile> files = List.of(
                new HubDownloads.HubFile("a", 100, null),
                new HubDownloads.HubFile("b", 300, "x"),
                new HubDownloads.HubFile("c", 600, "y"));
        HubDownloads.Progress none = HubDownloads.progress(files, Map.of());
        assertThat(none).isEqualTo(new HubDownloads.Progress(0, 1000, 0, 3));
        HubDownloads.Progress some = HubDownloads.progress(files, Map.of("a", 100L, "b", 150L, "c", 900L));
        assertThat(some).isEqualTo(new HubDownloads.Progress(850, 1000, 1, 3));
        assertThat(some.percent()).isEqualTo(85);
        assertThat(HubDownloads.progress(files, Map.of("a", 100L, "b", 300L, "c", 600L))
                        .percent())
                .isEqualTo(100);
        assertThat(HubDownloads.progress(List.of(), Map.of()).percent()).isEqualTo(100);
    }

    @Test
    void verificationNamesMissingFilesSizesAndChecksums() {
        List<HubDownloads.HubFile> files = List.of(
                new HubDownloads.HubFile("a.json", 10, null),
                new HubDownloads.HubFile("b.bin", 20, "aa"),
                new HubDownloads.HubFile("c.bin", 30, "cc"),
                new HubDownloads.HubFile("d.bin", 40, "dd"));
        List<HubDownloads.Fault> faults = HubDownloads.verify(
                files, Map.of("a.json", 10L, "b.bin", 20L, "c.bin", 29L), Map.of("b.bin", "AA", "c.bin", "cc"));
        assertThat(faults).extracting(HubDownloads.Fault::path).containsExactly("c.bin", "d.bin");
        assertThat(faults.get(0).message()).isEqualTo("c.bin has 29 bytes, the hub lists 30");
        assertThat(faults.get(1).wrongBytes()).isFalse();
        assertThat(HubDownloads.verify(files.subList(1, 2), Map.of("b.bin", 20L), Map.of("b.bin", "ab")))
                .extracting(HubDownloads.Fault::message)
                .containsExactly("b.bin does not have the SHA-256 the hub lists (aa)");
    }

    @Test
    void theCommandIsTheClientsOwn() {
        assertThat(HubDownloads.command("model", "org/m", SHA, List.of("*.json", "*.bin"), List.of(), "/crater/user/m"))
                .containsExactly(
                        "huggingface-cli",
                        "download",
                        "org/m",
                        "--repo-type",
                        "model",
                        "--revision",
                        SHA,
                        "--include",
                        "*.json",
                        "*.bin",
                        "--local-dir",
                        "/crater/user/m");
        assertThat(HubDownloads.command("dataset", "d", SHA, null, List.of("*.md"), "/crater/account/d"))
                .containsExactly(
                        "huggingface-cli",
                        "download",
                        "d",
                        "--repo-type",
                        "dataset",
                        "--revision",
                        SHA,
                        "--exclude",
                        "*.md",
                        "--local-dir",
                        "/crater/account/d");
    }

    @ParameterizedTest(name = "{0} running, {1} started -> {2}")
    @CsvSource({"0,0,", "2,0,", "3,0,concurrent", "1,19,", "1,20,window", "5,25,concurrent"})
    void limits(int active, int recent, String refused) {
        var reason = HubDownloads.limit(new HubDownloads.Limits(3, 20, Duration.ofHours(24)), active, recent);
        assertThat(reason.map(r -> r.args().get("limit")).orElse(null)).isEqualTo(refused);
        reason.ifPresent(r -> {
            assertThat(r.code()).isEqualTo("DownloadLimitReached");
            assertThat(r.numbers())
                    .containsEntry("active", (long) active)
                    .containsEntry("maxConcurrent", 3L)
                    .containsEntry("started", (long) recent)
                    .containsEntry("maxPerWindow", 20L)
                    .containsEntry("windowSeconds", 86_400L);
        });
    }

    @Test
    void shas() {
        assertThat(HubDownloads.isSha(SHA)).isTrue();
        assertThat(HubDownloads.isSha("main")).isFalse();
        assertThat(HubDownloads.isSha(SHA.toUpperCase())).isFalse();
    }
}
