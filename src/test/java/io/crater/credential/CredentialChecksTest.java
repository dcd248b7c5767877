package io.crater.credential;

import static org.assertj.core.api.Assertions.assertThat;

import io.crater.platform.Problem;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What may be stored as a credential, and how each refusal names its field. */
class CredentialChecksTest {

    private static final String BIG = "x".repeat(16 * 1024 + 1);

    static Stream<Arguments> creations() {
        return Stream.of(
                Arguments.of(
                        "a Hugging Face token",
                        new CredentialViews.CreateCredential("hf", "huggingface", null, null, "read only", "hf_x"),
                        List.of()),
                Arguments.of(
                        "a registry login",
                        new CredentialViews.CreateCredential("ghcr", "registry", "ghcr.io:443", "octo", null, "p"),
                        List.of()),
                Arguments.of(
                        "a name with capitals",
                        new CredentialViews.CreateCredential("HF", "huggingface", null, null, null, "v"),
                        List.of(new Problem.FieldError("name", "1 to 40 lowercase letters, digits or -"))),
                Arguments.of(
                        "a name of 41 characters",
                        new CredentialViews.CreateCredential("a".repeat(41), "generic", null, null, null, "v"),
                        List.of(new Problem.FieldError("name", "1 to 40 lowercase letters, digits or -"))),
                Arguments.of(
                        "an unknown kind",
                        new CredentialViews.CreateCredential("x", "aws", null, null, null, "v"),
                        List.of(new Problem.FieldError(
                                "kind", "one of huggingface, modelscope, wandb, registry, generic"))),
                Arguments.of(
                        "a registry without host and user",
                        new CredentialViews.CreateCredential("r", "registry", null, null, null, "v"),
                        List.of(
                                new Problem.FieldError(
                                        "host", "the registry's host name, with a port if any (ghcr.io)"),
                                new Problem.FieldError(
                                        "username", "the registry's user name: 1 to 200 characters without spaces"))),
                Arguments.of(
                        "a host on a token",
                        new CredentialViews.CreateCredential("w", "wandb", "api.wandb.ai", null, null, "v"),
                        List.of(new Problem.FieldError("host", "only registry credentials have a host"))),
                Arguments.of(
                        "no value",
                        new CredentialViews.CreateCredential("g", "generic", null, null, null, ""),
                        List.of(new Problem.FieldError("value", "required"))),
                Arguments.of(
                        "a value over 16 KiB",
                        new CredentialViews.CreateCredential("g", "generic", null, null, null, BIG),
                        List.of(new Problem.FieldError("value", "at most 16384 bytes (this one has 16385)"))),
                Arguments.of(
                        "a value of 16 KiB in multi-byte characters",
                        new CredentialViews.CreateCredential("g", "generic", null, null, null, "é".repeat(8193)),
                        List.of(new Problem.FieldError("value", "at most 16384 bytes (this one has 16386)"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("creations")
    void creation(String name, CredentialViews.CreateCredential req, List<Problem.FieldError> want) {
        assertThat(CredentialChecks.create(req)).containsExactlyElementsOf(want);
    }

    static Stream<Arguments> replacements() {
        return Stream.of(
                Arguments.of(
                        "a new value",
                        "huggingface",
                        new CredentialViews.ReplaceCredential("v2", null, null, null),
                        List.of()),
                Arguments.of(
                        "a registry's new user",
                        "registry",
                        new CredentialViews.ReplaceCredential("v2", null, null, "other"),
                        List.of()),
                Arguments.of(
                        "a host on a generic secret",
                        "generic",
                        new CredentialViews.ReplaceCredential("v2", null, "h.example", null),
                        List.of(new Problem.FieldError("host", "only registry credentials have a host"))),
                Arguments.of(
                        "no value",
                        "generic",
                        new CredentialViews.ReplaceCredential(null, "d", null, null),
                        List.of(new Problem.FieldError("value", "required"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("replacements")
    void replacement(String name, String kind, CredentialViews.ReplaceCredential req, List<Problem.FieldError> want) {
        assertThat(CredentialChecks.replace(kind, req)).containsExactlyElementsOf(want);
    }
}
