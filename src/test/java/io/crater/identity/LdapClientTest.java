package io.crater.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The LDAP client against a real slapd that accepts passwords only over TLS: bind and search, direct bind, StartTLS
 * and LDAPS trusting a CA file, and every way the directory can fail, each within its timeout.
 */
class LdapClientTest {

    static Slapd slapd;

    @BeforeAll
    static void start() throws Exception {
        slapd = Slapd.start(
                Slapd.person("alice", "Alice Liddell", "alice@example.org", 5001, 5000, "wonderland")
                        + Slapd.person("bob", "Bob Builder", null, 5002, 5000, "can-we-fix-it")
                        + """
                        dn: cn=ml-admins,ou=groups,dc=example,dc=org
                        objectClass: groupOfNames
                        cn: ml-admins
                        member: uid=alice,ou=people,dc=example,dc=org

                        dn: cn=ml-users,ou=groups,dc=example,dc=org
                        objectClass: posixGroup
                        cn: ml-users
                        gidNumber: 5000
                        memberUid: alice
                        memberUid: bob
                        """,
                true);
    }

    @AfterAll
    static void stop() {
        if (slapd != null) {
            slapd.close();
        }
    }

    static LdapClient client(Map<String, String> settings) {
        Map<String, String> all = new HashMap<>(Map.of(
                "crater.ldap.enabled", "true",
                "crater.ldap.user-base-dn", "ou=people," + Slapd.SUFFIX,
                "crater.ldap.group-base-dn", "ou=groups," + Slapd.SUFFIX,
                "crater.ldap.connect-timeout", "2s",
                "crater.ldap.read-timeout", "1s"));
        all.putAll(settings);
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .withMapping(LdapConfig.class)
                .withConverter(Duration.class, 200, new DurationConverter())
                .withSources(new PropertiesConfigSource(all, "test", 500))
                .build();
        LdapConfig ldap = config.getConfigMapping(LdapConfig.class);
        assertThat(LdapDirectory.problems(ldap)).isEmpty();
        return new LdapClient(ldap);
    }

    static LdapClient startTls() {
        return client(Map.of(
                "crater.ldap.url", slapd.url(),
                "crater.ldap.start-tls", "true",
                "crater.ldap.ca-file", slapd.caFile().toString()));
    }

    @Test
    void bindAndSearchOverStartTlsReadsTheEntryAndItsGroups() {
        Optional<LdapClient.Found> found = startTls().authenticate("alice", "wonderland");
        assertThat(found).isPresent();
        assertThat(found.get().entry().dn()).isEqualTo(Slapd.dn("alice"));
        assertThat(found.get().entry().attributes())
                .containsEntry("uidNumber", List.of("5001"))
                .containsEntry("gidNumber", List.of("5000"))
                .containsEntry("mail", List.of("alice@example.org"))
                .containsEntry("cn", List.of("Alice Liddell"));
        assertThat(found.get().groups())
                .containsExactlyInAnyOrder(
                        "cn=ml-admins,ou=groups," + Slapd.SUFFIX, "cn=ml-users,ou=groups," + Slapd.SUFFIX);
        assertThat(startTls().authenticate("bob", "can-we-fix-it").orElseThrow().groups())
                .containsExactly("cn=ml-users,ou=groups," + Slapd.SUFFIX);
    }

    @Test
    void wrongPasswordsUnknownNamesAndEmptyPasswordsAreRefused() {
        LdapClient c = startTls();
        assertThat(c.authenticate("alice", "wrong")).isEmpty();
        assertThat(c.authenticate("nobody", "wonderland")).isEmpty();
        assertThat(c.authenticate("alice", "")).isEmpty();
        assertThat(c.authenticate("*", "wonderland"))
                .as("the filter escapes the username")
                .isEmpty();
    }

    @Test
    void directBindOverLdapsWithTheCaFile() {
        LdapClient c = client(Map.of(
                "crater.ldap.url", slapd.ldapsUrl(),
                "crater.ldap.ca-file", slapd.caFile().toString(),
                "crater.ldap.user-dn-pattern", "uid={0},ou=people," + Slapd.SUFFIX));
        assertThat(c.authenticate("alice", "wonderland").orElseThrow().entry().dn())
                .isEqualTo(Slapd.dn("alice"));
        assertThat(c.authenticate("alice", "wrong")).isEmpty();
        assertThat(c.authenticate("ghost", "wonderland")).isEmpty();
    }

    @Test
    void aPasswordIsNeverSentWithoutTls() {
        LdapClient plain = client(Map.of("crater.ldap.url", slapd.url()));
        assertThatThrownBy(() -> plain.authenticate("alice", "wonderland"))
                .isInstanceOf(LdapClient.Unavailable.class)
                .hasMessageNotContaining("wonderland");
    }

    @Test
    void anUntrustedCertificateIsRefused() {
        LdapClient c = client(Map.of("crater.ldap.url", slapd.ldapsUrl()));
        assertThatThrownBy(() -> c.authenticate("alice", "wonderland")).isInstanceOf(LdapClient.Unavailable.class);
    }

    @Test
    void lookupFindsAnEntryAndMissesAGoneOne() {
        LdapClient c = startTls();
        assertThat(c.lookup(Slapd.dn("bob"), "bob")).isPresent();
        assertThat(c.lookup("uid=gone,ou=people," + Slapd.SUFFIX, "gone")).isEmpty();
    }

    @Test
    void aClosedPortAndASilentServerFailWithinTheirTimeouts() throws Exception {
        int closed = Slapd.freePort();
        LdapClient refused = client(Map.of("crater.ldap.url", "ldap://127.0.0.1:" + closed));
        assertThatThrownBy(() -> refused.authenticate("alice", "wonderland"))
                .isInstanceOf(LdapClient.Unavailable.class);
        try (ServerSocket silent = new ServerSocket(0)) {
            Thread accept = new Thread(() -> {
                try (Socket s = silent.accept()) {
                    Thread.sleep(5_000);
                } catch (Exception e) {
                    // the test is over
                }
            });
            accept.setDaemon(true);
            accept.start();
            LdapClient hangs = client(Map.of("crater.ldap.url", "ldap://127.0.0.1:" + silent.getLocalPort()));
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> hangs.authenticate("alice", "wonderland"))
                    .isInstanceOf(LdapClient.Unavailable.class);
            assertThat((System.nanoTime() - t0) / 1_000_000)
                    .as("ms until the read timeout")
                    .isLessThan(4_000);
        }
    }

    @Test
    void misconfigurationsAreNamedByKey() {
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .withMapping(LdapConfig.class)
                .withConverter(Duration.class, 200, new DurationConverter())
                .withSources(new PropertiesConfigSource(
                        Map.of(
                                "crater.ldap.enabled", "true",
                                "crater.ldap.url", "ldaps://x",
                                "crater.ldap.start-tls", "true",
                                "crater.ldap.bind-dn", "cn=svc",
                                "crater.ldap.groups.a.group", "admins",
                                "crater.ldap.groups.a.account", "ml",
                                "crater.ldap.groups.a.role", "owner"),
                        "test",
                        500))
                .build();
        assertThat(LdapDirectory.problems(config.getConfigMapping(LdapConfig.class)))
                .anyMatch(p -> p.contains("crater.ldap.start-tls"))
                .anyMatch(p -> p.contains("crater.ldap.user-base-dn"))
                .anyMatch(p -> p.contains("crater.ldap.bind-password"))
                .anyMatch(p -> p.contains("crater.ldap.groups.a.role"));
    }
}
