package io.crater.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** How directory entries map to users: attribute names, fallbacks, the AD RID, and refusals. */
class DirectoryProfileTest {

    static final DirectoryProfile POSIX = new DirectoryProfile("uid", "cn", "mail", "uidNumber", "gidNumber", false, 0);
    static final DirectoryProfile AD =
            new DirectoryProfile("sAMAccountName", "displayName", "mail", "uidNumber", "gidNumber", true, 1_000_000);

    /** S-1-5-21-1004336348-1177238915-682003330-1105 as AD stores it. */
    static final byte[] SID = sid(5, 21, 1004336348L, 1177238915L, 682003330L, 1105);

    static byte[] sid(int authority, long... subs) {
        byte[] b = new byte[8 + 4 * subs.length];
        b[0] = 1;
        b[1] = (byte) subs.length;
        b[7] = (byte) authority;
        for (int i = 0; i < subs.length; i++) {
            for (int k = 0; k < 4; k++) {
                b[8 + 4 * i + k] = (byte) (subs[i] >>> (8 * k));
            }
        }
        return b;
    }

    static DirectoryProfile.Entry entry(Map<String, List<String>> attrs, byte[] sid) {
        return new DirectoryProfile.Entry("uid=x,dc=example,dc=org", attrs, sid);
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of(
                        "posix: every attribute",
                        POSIX,
                        entry(
                                Map.of(
                                        "uid", List.of("Alice"),
                                        "cn", List.of("Alice Liddell"),
                                        "mail", List.of("alice@example.org"),
                                        "uidNumber", List.of("5001"),
                                        "gidNumber", List.of("5000")),
                                null),
                        new DirectoryProfile.Mapped(
                                "uid=x,dc=example,dc=org", "alice", "Alice Liddell", "alice@example.org", 5001, 5000)),
                Arguments.of(
                        "attribute names ignore case; no name falls back to the username; a bad mail is dropped",
                        POSIX,
                        entry(
                                Map.of("UID", List.of("bob"), "MAIL", List.of("not-mail"), "UIDNUMBER", List.of("42")),
                                null),
                        new DirectoryProfile.Mapped("uid=x,dc=example,dc=org", "bob", "bob", null, 42, null)),
                Arguments.of(
                        "no uidNumber: Crater assigns one",
                        POSIX,
                        entry(Map.of("uid", List.of("carol")), null),
                        new DirectoryProfile.Mapped("uid=x,dc=example,dc=org", "carol", "carol", null, null, null)),
                Arguments.of(
                        "AD: the RID of objectSid and primaryGroupID plus the offset",
                        AD,
                        entry(
                                Map.of(
                                        "sAMAccountName", List.of("dave"),
                                        "displayName", List.of("Dave D"),
                                        "primaryGroupID", List.of("513")),
                                SID),
                        new DirectoryProfile.Mapped(
                                "uid=x,dc=example,dc=org", "dave", "Dave D", null, 1_001_105, 1_000_513)),
                Arguments.of(
                        "AD with uidNumber set: uidNumber wins over the RID",
                        AD,
                        entry(Map.of("sAMAccountName", List.of("erin"), "uidNumber", List.of("7000")), SID),
                        new DirectoryProfile.Mapped("uid=x,dc=example,dc=org", "erin", "erin", null, 7000, null)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void mapsTheEntry(
            String name, DirectoryProfile profile, DirectoryProfile.Entry entry, DirectoryProfile.Mapped want) {
        DirectoryProfile.Outcome out = profile.map(entry, "typed");
        assertThat(out.problem()).isNull();
        assertThat(out.user()).isEqualTo(want);
    }

    @Test
    void refusesAUsernameCraterCannotUse() {
        DirectoryProfile.Outcome out = POSIX.map(entry(Map.of("uid", List.of("al ice")), null), "al ice");
        assertThat(out.user()).isNull();
        assertThat(out.problem()).contains("not a valid Crater username");
    }

    @Test
    void refusesRootAndIdsOutOfRange() {
        assertThat(POSIX.map(entry(Map.of("uid", List.of("root1"), "uidNumber", List.of("0")), null), "x")
                        .problem())
                .contains("UID 0");
        assertThat(POSIX.map(entry(Map.of("uid", List.of("big"), "gidNumber", List.of("4294967295")), null), "x")
                        .problem())
                .contains("GID 4294967295");
    }

    @Test
    void ridIsTheLastSubAuthority() {
        assertThat(DirectoryProfile.rid(SID)).isEqualTo(Optional.of(1105L));
        assertThat(DirectoryProfile.rid(new byte[] {1, 0, 0, 0, 0, 0, 0, 5})).isEmpty();
        assertThat(DirectoryProfile.rid(null)).isEmpty();
    }
}
