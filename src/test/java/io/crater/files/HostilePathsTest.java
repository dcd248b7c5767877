package io.crater.files;

import static org.assertj.core.api.Assertions.assertThat;

import io.crater.platform.ApiException;
import io.crater.policy.FilePaths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile paths, as they come in a URL, against a real space with links planted in it that point out of it:
 * whatever the path, nothing resolves outside the space, and the ones that must be refused are refused.
 */
class HostilePathsTest {

    @TempDir
    static Path base;

    static Path root;

    @BeforeAll
    static void plant() throws Exception {
        Path spaces = base.resolve("spaces");
        Files.createDirectories(spaces.resolve("users/alice/data"));
        Files.createDirectories(spaces.resolve("users/bob"));
        Files.writeString(spaces.resolve("users/bob/secret.txt"), "bob's");
        Files.writeString(base.resolve("outside.txt"), "outside");
        root = spaces.resolve("users/alice").toRealPath();
        Files.createSymbolicLink(root.resolve("etc"), Path.of("/etc"));
        Files.createSymbolicLink(root.resolve("bob"), spaces.resolve("users/bob"));
        Files.createSymbolicLink(root.resolve("data/up"), Path.of(".."));
        Files.createSymbolicLink(root.resolve("data/out.txt"), base.resolve("outside.txt"));
        Files.createSymbolicLink(root.resolve("loop"), root.resolve("loop"));
    }

    /** What a path must come to: refused by the rules, refused on resolving, or a plain entry inside the space. */
    enum Want {
        REFUSED,
        NOT_RESOLVED,
        INSIDE
    }

    static Stream<Arguments> paths() {
        String longName = "a".repeat(256);
        String longCjk = "文".repeat(86); // 258 bytes in UTF-8
        return Stream.of(
                Arguments.of("plain dotdot", "../bob/secret.txt", Want.REFUSED),
                Arguments.of("deep dotdot", "data/../../bob/secret.txt", Want.REFUSED),
                Arguments.of("dotdot at the end", "data/..", Want.REFUSED),
                Arguments.of("single dot", "./data", Want.REFUSED),
                Arguments.of("encoded dotdot", "%2e%2e/bob/secret.txt", Want.REFUSED),
                Arguments.of("upper-case encoded dotdot", "%2E%2E/%2E%2E/etc/passwd", Want.REFUSED),
                Arguments.of("half encoded dotdot", ".%2e/bob", Want.REFUSED),
                Arguments.of("encoded slash with dotdot", "data%2F..%2F..%2Fbob%2Fsecret.txt", Want.REFUSED),
                Arguments.of("double-encoded dotdot is a plain name", "%252e%252e/x", Want.NOT_RESOLVED),
                Arguments.of("NUL", "data/a%00.txt", Want.REFUSED),
                Arguments.of("raw NUL", "data/a\u0000b", Want.REFUSED),
                Arguments.of("newline", "data/a%0Ab", Want.REFUSED),
                Arguments.of("escape character", "data/%1B[31m", Want.REFUSED),
                Arguments.of("DEL", "data/a%7F", Want.REFUSED),
                Arguments.of("C1 control", "data/a%C2%85b", Want.REFUSED),
                Arguments.of("backslash", "..\\bob\\secret.txt", Want.REFUSED),
                Arguments.of("encoded backslash", "..%5Cbob", Want.REFUSED),
                Arguments.of("windows drive", "C:\\Windows\\system32", Want.REFUSED),
                Arguments.of("name over 255 bytes", longName, Want.REFUSED),
                Arguments.of("CJK name over 255 bytes", longCjk, Want.REFUSED),
                Arguments.of("overlong UTF-8 for a dot", "%C0%AE%C0%AE/bob", Want.REFUSED),
                Arguments.of("broken percent escape", "data/%zz", Want.REFUSED),
                Arguments.of("truncated percent escape", "data/%2", Want.REFUSED),
                Arguments.of("lone surrogate bytes", "data/%ED%A0%80", Want.REFUSED),
                Arguments.of("link to /etc on the way", "etc/passwd", Want.NOT_RESOLVED),
                Arguments.of("link to another user's space on the way", "bob/secret.txt", Want.NOT_RESOLVED),
                Arguments.of("link to the parent on the way", "data/up/data", Want.NOT_RESOLVED),
                Arguments.of("link loop on the way", "loop/x", Want.NOT_RESOLVED),
                Arguments.of("link to a file outside, at the end", "data/out.txt", Want.INSIDE),
                Arguments.of("link to /etc, at the end", "etc", Want.INSIDE),
                Arguments.of("fullwidth dots are a plain name", "%EF%BC%8E%EF%BC%8E/x", Want.NOT_RESOLVED),
                Arguments.of("one-dot leaders are a plain name", "\u2024\u2024", Want.INSIDE),
                Arguments.of("fraction slash is not a separator", "a\u2044..\u2044b", Want.INSIDE),
                Arguments.of("combining dot is a plain name", ".\u0307.", Want.INSIDE),
                Arguments.of("decomposed accents are normalised", "cafe%CC%81.txt", Want.INSIDE),
                Arguments.of("double slashes collapse", "data//x.txt", Want.INSIDE),
                Arguments.of("leading slash", "/data/x.txt", Want.INSIDE),
                Arguments.of("absolute path stays inside", "/etc/passwd", Want.NOT_RESOLVED),
                Arguments.of("plus is not a space", "a+b.txt", Want.INSIDE),
                Arguments.of("root itself", "", Want.INSIDE));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("paths")
    void nothingResolvesOutsideTheSpace(String name, String raw, Want want) throws Exception {
        FilePaths.Checked checked = FilePaths.fromUrl(raw);
        if (want == Want.REFUSED) {
            assertThat(checked.ok()).as(name).isFalse();
            assertThat(checked.refusal()).isNotBlank();
            return;
        }
        assertThat(checked.ok()).as(name + ": " + checked.refusal()).isTrue();
        SpaceFs.Resolved r;
        try {
            r = SpaceFs.resolve(root, checked.segments());
        } catch (ApiException e) {
            assertThat(want)
                    .as(name + " was refused on resolving: " + e.getMessage())
                    .isEqualTo(Want.NOT_RESOLVED);
            assertThat(e.status()).isIn(400, 404, 409);
            return;
        }
        assertThat(r.path().normalize()).as(name).startsWithRaw(root);
        if (!r.isRoot()) {
            assertThat(r.path().getParent().toRealPath()).as(name).startsWithRaw(root);
        }
        if (want == Want.NOT_RESOLVED) {
            assertThat(r.exists()).as(name + " must not reach anything").isFalse();
        }
        if (r.exists() && r.link()) {
            assertThat(r.folder()).as("a link is never taken for a folder").isFalse();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("paths")
    void aRefusedPathNamesWhy(String name, String raw, Want want) {
        FilePaths.Checked checked = FilePaths.fromUrl(raw);
        assertThat(checked.ok()).as(name).isEqualTo(want != Want.REFUSED);
    }

    @org.junit.jupiter.api.Test
    void namesAreNormalisedToNfc() {
        assertThat(FilePaths.fromUrl("cafe%CC%81.txt").segments()).isEqualTo(List.of("caf\u00e9.txt"));
        assertThat(FilePaths.fromUrl("a%2Fb").segments()).isEqualTo(List.of("a", "b"));
        assertThat(FilePaths.fromUrl("%252e%252e").segments()).isEqualTo(List.of("%2e%2e"));
    }
}
