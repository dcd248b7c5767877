package io.crater.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ImageReferencesTest {

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "ubuntu | docker.io/library/ubuntu | registry-1.docker.io",
                "pytorch/pytorch | docker.io/pytorch/pytorch | registry-1.docker.io",
                "ghcr.io/org/trainer | ghcr.io/org/trainer | ghcr.io",
                "registry.example.org:5000/vision/base | registry.example.org:5000/vision/base | registry.example.org:5000",
                "localhost/a | localhost/a | localhost",
                "127.0.0.1:5000/a/b-c__d.e | 127.0.0.1:5000/a/b-c__d.e | 127.0.0.1:5000",
                "Quay.IO/org/x | quay.io/org/x | quay.io",
            })
    void readsReferencesAsDockerDoes(String text, String canonical, String apiHost) {
        ImageReferences.Parsed p = ImageReferences.parse(text);
        assertThat(p.refusal()).isNull();
        assertThat(p.reference().canonical()).isEqualTo(canonical);
        assertThat(p.reference().apiHost()).isEqualTo(apiHost);
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "' ' | required",
                "ubuntu:22.04 | without a tag",
                "ghcr.io/org/x@sha256:ab | without a digest",
                "ghcr.io/Org/x | is not a repository part",
                "ghcr.io/org//x | is not a repository part",
                "ghcr.io/org/x- | is not a repository part",
                "bad_host.io:x/a | is not a registry host",
            })
    void refusesWhatIsNotAReference(String text, String refusal) {
        ImageReferences.Parsed p = ImageReferences.parse(text);
        assertThat(p.reference()).isNull();
        assertThat(p.refusal()).contains(refusal);
    }

    @Test
    void loopbackRegistriesAreReachedOverPlainHttp() {
        assertThat(ImageReferences.parse("127.0.0.1:5000/a").reference().loopback())
                .isTrue();
        assertThat(ImageReferences.parse("localhost:5000/a").reference().loopback())
                .isTrue();
        assertThat(ImageReferences.parse("ghcr.io/a").reference().loopback()).isFalse();
        assertThat(ImageReferences.parse("a/b").reference().loopback()).isFalse();
    }

    @Test
    void tagsAreCheckedKeptInOrderWithoutDuplicates() {
        List<ImageReferences.Refusal> out = new ArrayList<>();
        assertThat(ImageReferences.tags(List.of("2.3-cuda12.1", "latest", "2.3-cuda12.1"), out))
                .containsExactly("2.3-cuda12.1", "latest");
        assertThat(out).isEmpty();
        assertThat(ImageReferences.tags(List.of(), out)).isEmpty();
        assertThat(ImageReferences.tags(List.of(".hidden"), out)).isEmpty();
        assertThat(ImageReferences.tags(List.of("a".repeat(129)), out)).isEmpty();
        assertThat(out).extracting(ImageReferences.Refusal::field).containsExactly("tags", "tags", "tags");
    }

    @Test
    void closedListsVendorsAndCuda() {
        List<ImageReferences.Refusal> out = new ArrayList<>();
        assertThat(ImageReferences.oneOf(List.of("pytorch", "JUPYTER"), ImageReferences.KINDS, "kinds", out))
                .containsExactly("jupyter", "pytorch");
        assertThat(ImageReferences.vendors(List.of("NVIDIA", "Huawei Ascend"), out))
                .containsExactly("huawei-ascend", "nvidia");
        assertThat(ImageReferences.cuda("12.4", out)).isEqualTo("12.4");
        assertThat(out).isEmpty();
        ImageReferences.oneOf(List.of("training"), ImageReferences.KINDS, "kinds", out);
        ImageReferences.oneOf(List.of("x86"), ImageReferences.ARCHITECTURES, "architectures", out);
        ImageReferences.cuda("twelve", out);
        ImageReferences.vendors(List.of("!"), out);
        assertThat(out)
                .extracting(ImageReferences.Refusal::field)
                .containsExactly("kinds", "architectures", "cudaVersion", "vendors");
    }

    @ParameterizedTest(name = "kinds {0}, vendors {1}; job {2} on {3}: {4}")
    @CsvSource(
            delimiter = '|',
            value = {
                "jupyter,pytorch | nvidia | jupyter | nvidia | true",
                "jupyter,pytorch | nvidia | inference | nvidia | false",
                "'' | nvidia | inference | nvidia | true",
                "jupyter | nvidia | jupyter | huawei | false",
                "jupyter | '' | jupyter | nvidia | false",
                "jupyter | '' | jupyter | | true",
                "jupyter | nvidia | | | true",
            })
    void fitsAJobsKindAndAccelerator(String kinds, String vendors, String kind, String vendor, boolean fits) {
        assertThat(ImageReferences.fits(list(kinds), list(vendors), kind, vendor))
                .isEqualTo(fits);
    }

    private static List<String> list(String csv) {
        return csv == null || csv.isBlank() ? List.of() : List.of(csv.split(","));
    }

    @Test
    void readsBearerAndBasicChallenges() {
        RegistryChallenge bearer = RegistryChallenge.parse(
                "Bearer realm=\"https://auth.docker.io/token\",service=\"registry.docker.io\",scope=\"repository:library/ubuntu:pull\"");
        assertThat(bearer.bearer()).isTrue();
        assertThat(bearer.params())
                .isEqualTo(Map.of(
                        "realm", "https://auth.docker.io/token",
                        "service", "registry.docker.io",
                        "scope", "repository:library/ubuntu:pull"));
        assertThat(bearer.tokenUrl("library/ubuntu"))
                .isEqualTo(
                        "https://auth.docker.io/token?service=registry.docker.io&scope=repository%3Alibrary%2Fubuntu%3Apull");
        RegistryChallenge noScope = RegistryChallenge.parse("bearer realm=\"https://r.example/t?x=1\"");
        assertThat(noScope.tokenUrl("a/b")).isEqualTo("https://r.example/t?x=1&scope=repository%3Aa%2Fb%3Apull");
        RegistryChallenge basic = RegistryChallenge.parse("Basic realm=\"crater-test\"");
        assertThat(basic.basic()).isTrue();
        assertThat(basic.bearer()).isFalse();
        assertThat(RegistryChallenge.parse("")).isNull();
    }
}
