package io.crater.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.crater.policy.FileAccess.Level;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Who may do what in which file space: one table of callers, spaces and the level each gets. */
class FileAccessTest {

    static final FileAccess.Viewer ALICE = new FileAccess.Viewer("alice", false, Map.of("lab", "rw", "course", "ro"));
    static final FileAccess.Viewer ADMIN = new FileAccess.Viewer("root", true, Map.of());

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("own space", ALICE, "user", Level.WRITE),
                Arguments.of("rw member", ALICE, "account:lab", Level.WRITE),
                Arguments.of("ro member", ALICE, "account:course", Level.READ),
                Arguments.of("not a member", ALICE, "account:other", Level.NONE),
                Arguments.of("public for a user", ALICE, "public", Level.READ),
                Arguments.of("public for a platform admin", ADMIN, "public", Level.WRITE),
                Arguments.of("platform admin, not a member", ADMIN, "account:lab", Level.NONE),
                Arguments.of("platform admin's own space", ADMIN, "user", Level.WRITE),
                Arguments.of("another user's space by name", ALICE, "user:bob", Level.NONE),
                Arguments.of("unknown kind", ALICE, "group:lab", Level.NONE),
                Arguments.of("empty account slug", ALICE, "account:", Level.NONE),
                Arguments.of("account slug with a slash", ALICE, "account:lab/../x", Level.NONE),
                Arguments.of("account slug with dots", ALICE, "account:..", Level.NONE),
                Arguments.of("upper-case slug is another name", ALICE, "account:LAB", Level.NONE),
                Arguments.of("no name", ALICE, null, Level.NONE));
    }

    @ParameterizedTest(name = "{0}: {2} → {3}")
    @MethodSource("cases")
    void levels(String name, FileAccess.Viewer viewer, String space, Level want) {
        assertThat(FileAccess.of(FileAccess.parse(space, viewer), viewer)).isEqualTo(want);
    }

    @org.junit.jupiter.api.Test
    void spacesLiveInTheirFolders() {
        assertThat(FileAccess.parse("user", ALICE).folder()).isEqualTo("users/alice");
        assertThat(FileAccess.parse("account:lab", ALICE).folder()).isEqualTo("accounts/lab");
        assertThat(FileAccess.parse("public", ALICE).folder()).isEqualTo("public");
        assertThat(Level.READ.writes()).isFalse();
        assertThat(Level.NONE.reads()).isFalse();
    }

    @org.junit.jupiter.api.Test
    void aWriteOverQuotaIsRefusedWithItsNumbers() {
        FileQuota.Limit limit = new FileQuota.Limit(1000, 10);
        assertThat(FileQuota.check(new FileQuota.Usage(900, 3), limit, 100, 1)).isNull();
        Reason r = FileQuota.check(new FileQuota.Usage(900, 3), limit, 101, 1);
        assertThat(r.code()).isEqualTo("FileQuotaExceeded");
        assertThat(r.numbers())
                .containsEntry("usedBytes", 900L)
                .containsEntry("addBytes", 101L)
                .containsEntry("limitBytes", 1000L);
        assertThat(FileQuota.check(new FileQuota.Usage(0, 10), limit, 0, 1).message())
                .contains("10 files");
        assertThat(FileQuota.check(new FileQuota.Usage(1 << 30, 1 << 20), new FileQuota.Limit(-1, -1), 1 << 30, 1))
                .isNull();
        assertThat(FileQuota.check(new FileQuota.Usage(2000, 3), limit, -50, 0))
                .as("shrinking always fits")
                .isNull();
    }
}
