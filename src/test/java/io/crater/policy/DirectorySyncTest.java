package io.crater.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.crater.policy.DirectorySync.Change;
import io.crater.policy.DirectorySync.GroupMapping;
import io.crater.policy.DirectorySync.Kind;
import io.crater.policy.DirectorySync.Membership;
import io.crater.policy.DirectorySync.UserState;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The sync diff: directory state and current memberships in, the changes out; one table of named cases. */
class DirectorySyncTest {

    static final String SRC = "ldap:corp";
    static final String ADMINS = "cn=ml-admins,ou=groups,dc=example,dc=org";
    static final String USERS = "cn=ml-users,ou=groups,dc=example,dc=org";
    static final List<GroupMapping> MAPPINGS = List.of(
            new GroupMapping(ADMINS, "ml-lab", "admin"),
            new GroupMapping("ml-users", "ml-lab", "member"),
            new GroupMapping("CN=Vision,OU=Groups,DC=example,DC=org", "vision", "member"));

    static UserState user(boolean present, List<String> groups, Membership... have) {
        return new UserState(7, "alice", present, false, groups, List.of(have));
    }

    static Membership byDirectory(String account, String role) {
        return new Membership(account, role, SRC);
    }

    static Membership byHand(String account, String role) {
        return new Membership(account, role, DirectorySync.MANUAL);
    }

    static Change change(Kind kind, String account, String role) {
        return new Change(7, "alice", kind, account, role);
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("no groups, no memberships", user(true, List.of()), List.of()),
                Arguments.of(
                        "a mapped group by DN grants its account",
                        user(true, List.of(ADMINS)),
                        List.of(change(Kind.ADD, "ml-lab", "admin"))),
                Arguments.of(
                        "a mapped group by cn grants its account",
                        user(true, List.of(USERS)),
                        List.of(change(Kind.ADD, "ml-lab", "member"))),
                Arguments.of(
                        "DNs compare without regard to case",
                        user(true, List.of("cn=vision,ou=groups,dc=example,dc=org")),
                        List.of(change(Kind.ADD, "vision", "member"))),
                Arguments.of(
                        "two groups on one account: admin wins",
                        user(true, List.of(USERS, ADMINS)),
                        List.of(change(Kind.ADD, "ml-lab", "admin"))),
                Arguments.of(
                        "a grant already there changes nothing",
                        user(true, List.of(ADMINS), byDirectory("ml-lab", "admin")),
                        List.of()),
                Arguments.of(
                        "a directory grant whose role changed is updated",
                        user(true, List.of(USERS), byDirectory("ml-lab", "admin")),
                        List.of(change(Kind.ROLE, "ml-lab", "member"))),
                Arguments.of(
                        "a directory grant no group gives any more is removed",
                        user(true, List.of(), byDirectory("ml-lab", "member")),
                        List.of(change(Kind.REMOVE, "ml-lab", "member"))),
                Arguments.of(
                        "a hand-granted membership stays when no group grants it",
                        user(true, List.of(), byHand("vision", "member")),
                        List.of()),
                Arguments.of(
                        "a hand-granted membership keeps its role when a group grants another",
                        user(true, List.of(ADMINS), byHand("ml-lab", "member")),
                        List.of()),
                Arguments.of(
                        "another directory's grant is not this one's to remove",
                        user(true, List.of(), new Membership("ml-lab", "member", "ldap:other")),
                        List.of()),
                Arguments.of(
                        "a user gone from the directory loses its grants, not the hand-granted ones",
                        user(false, List.of(), byDirectory("ml-lab", "admin"), byHand("vision", "member")),
                        List.of(change(Kind.REMOVE, "ml-lab", "admin"))),
                Arguments.of(
                        "an unmapped group grants nothing",
                        user(true, List.of("cn=printers,ou=groups,dc=example,dc=org")),
                        List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void plansTheChanges(String name, UserState user, List<Change> want) {
        DirectorySync.Plan plan = DirectorySync.plan(SRC, MAPPINGS, List.of(user));
        assertThat(plan.changes()).containsExactlyInAnyOrderElementsOf(want);
    }

    @Test
    void disablesOnlyUsersGoneFromTheDirectoryAndNotYetDisabled() {
        List<UserState> users = List.of(
                new UserState(1, "here", true, false, List.of(), List.of()),
                new UserState(2, "gone", false, false, List.of(), List.of()),
                new UserState(3, "gone-and-disabled", false, true, List.of(), List.of()));
        DirectorySync.Plan plan = DirectorySync.plan(SRC, MAPPINGS, users);
        assertThat(plan.disable()).containsExactly(2L);
        assertThat(plan.count(Kind.ADD)).isZero();
    }

    @Test
    void grantedMapsGroupsToAccountsAndRoles() {
        assertThat(DirectorySync.granted(MAPPINGS, List.of(USERS, "CN=VISION,OU=GROUPS,DC=EXAMPLE,DC=ORG")))
                .isEqualTo(Map.of("ml-lab", "member", "vision", "member"));
    }

    @Test
    void reportsMappingsToAccountsThatDoNotExist() {
        assertThat(DirectorySync.unknownAccounts(MAPPINGS, Set.of("ml-lab"))).containsExactly("vision");
    }

    @Test
    void cnReadsTheFirstRdnWithEscapes() {
        assertThat(DirectorySync.cn("cn=ml\\, users,ou=groups")).isEqualTo("ml, users");
        assertThat(DirectorySync.cn("gpu")).isEqualTo("gpu");
    }
}
