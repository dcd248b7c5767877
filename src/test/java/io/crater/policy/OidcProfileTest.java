package io.crater.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Claims to a user: the configured claim names, the username rule, dropped bad e-mail, groups as list or name. */
class OidcProfileTest {

    static final OidcProfile DEFAULT = new OidcProfile("preferred_username", "name", "email", "groups");

    static Map<String, Object> claims(Object... kv) {
        Map<String, Object> m = new HashMap<>();
        m.put("sub", "s-1");
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    @Test
    void theClaimsGiveTheUser() {
        OidcProfile.Mapped m = DEFAULT.map(claims(
                        "preferred_username", "Alice.L",
                        "name", "Alice Liddell",
                        "email", "alice@example.org",
                        "email_verified", true,
                        "groups", List.of("ml-admins", " ", 7, "ml-users")))
                .user();
        assertThat(m)
                .isEqualTo(new OidcProfile.Mapped(
                        "s-1",
                        "alice.l",
                        "Alice Liddell",
                        "alice@example.org",
                        true,
                        List.of("ml-admins", "ml-users")));
    }

    @Test
    void missingOrBadClaimsAreFilledDroppedOrRefused() {
        OidcProfile.Mapped m = DEFAULT.map(
                        claims("preferred_username", "bob", "email", "not-an-address", "groups", "one-group"))
                .user();
        assertThat(m.displayName()).as("the username when there is no name").isEqualTo("bob");
        assertThat(m.email()).isNull();
        assertThat(m.emailVerified()).isFalse();
        assertThat(m.groups()).containsExactly("one-group");
        assertThat(DEFAULT.map(claims("preferred_username", "carol", "email", "c@example.org"))
                        .user()
                        .emailVerified())
                .as("no email_verified claim: not verified")
                .isFalse();
        assertThat(DEFAULT.map(claims("preferred_username", "alice@corp.example.com"))
                        .problem())
                .contains("preferred_username", "not a valid Crater username");
        assertThat(DEFAULT.map(claims()).problem()).contains("not a valid Crater username");
        Map<String, Object> noSub = claims("preferred_username", "dave");
        noSub.remove("sub");
        assertThat(DEFAULT.map(noSub).problem()).contains("subject");
    }

    @Test
    void otherClaimNamesAreRead() {
        OidcProfile upn = new OidcProfile("upn_short", "displayName", "mail", "roles");
        OidcProfile.Mapped m = upn.map(claims(
                        "upn_short", "erin", "displayName", "Erin", "mail", "erin@example.org", "roles", List.of("r")))
                .user();
        assertThat(m.username()).isEqualTo("erin");
        assertThat(m.displayName()).isEqualTo("Erin");
        assertThat(m.email()).isEqualTo("erin@example.org");
        assertThat(m.groups()).containsExactly("r");
    }
}
