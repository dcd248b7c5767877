package io.crater.identity;

import static io.crater.Api.admin;
import static io.crater.Api.as;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import io.crater.CraterTestResource;
import io.crater.Db;
import io.crater.kube.KubeClients;
import io.crater.volcano.VolcanoJob;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Sign-in through a real OpenLDAP (slapd started by the test): first sign-in creates the user with the directory's
 * UID, GID, name and e-mail; group mappings make them account admins or members; the sync removes what the
 * directory no longer grants and keeps what was granted by hand, disables users gone from the directory; wrong
 * passwords are throttled; with slapd stopped directory users get 503 while the local admin still signs in.
 */
@QuarkusTest
@TestProfile(LdapFlowTest.Directory.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LdapFlowTest {

    /**
     * The application signing in through the test's slapd, with two group mappings and a small throttle, and
     * through an OpenID provider ({@link OidcFlowTest} starts it on the port reserved here): the boot that every
     * test of sign-in through another system shares.
     */
    public static class Directory implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> m = new HashMap<>();
            m.put("crater.ldap.enabled", "true");
            m.put("crater.ldap.name", "corp");
            m.put("crater.ldap.bind-dn", Slapd.ROOT_DN);
            m.put("crater.ldap.bind-password", Slapd.ROOT_PW);
            m.put("crater.ldap.user-base-dn", "ou=people," + Slapd.SUFFIX);
            m.put("crater.ldap.group-base-dn", "ou=groups," + Slapd.SUFFIX);
            m.put("crater.ldap.connect-timeout", "2s");
            m.put("crater.ldap.read-timeout", "2s");
            m.put("crater.ldap.sync-interval", "0s");
            m.put("crater.ldap.groups.admins.group", "cn=ml-admins,ou=groups," + Slapd.SUFFIX);
            m.put("crater.ldap.groups.admins.account", "ml-lab");
            m.put("crater.ldap.groups.admins.role", "admin");
            m.put("crater.ldap.groups.users.group", "ml-users");
            m.put("crater.ldap.groups.users.account", "ml-lab");
            m.put("crater.ldap.groups.ghost.group", "ml-users");
            m.put("crater.ldap.groups.ghost.account", "no-such-team");
            m.put("crater.auth.max-failures-per-username", "3");
            m.put("crater.oidc.providers.corp-sso.display-name", "Corp SSO");
            m.put("crater.oidc.providers.corp-sso.client-id", OidcFlowTest.CLIENT_ID);
            m.put("crater.oidc.providers.corp-sso.client-secret", OidcFlowTest.CLIENT_SECRET);
            m.put("crater.oidc.providers.corp-sso.scopes", "openid profile email groups");
            m.put("crater.oidc.providers.corp-sso.groups.admins.group", "sso-admins");
            m.put("crater.oidc.providers.corp-sso.groups.admins.account", "sso-lab");
            m.put("crater.oidc.providers.corp-sso.groups.admins.role", "admin");
            m.put("crater.oidc.providers.corp-sso.groups.users.group", "sso-users");
            m.put("crater.oidc.providers.corp-sso.groups.users.account", "sso-lab");
            return m;
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(WithSlapd.class));
        }

        @Override
        public boolean disableGlobalTestResources() {
            return true;
        }
    }

    /** What {@link CraterTestResource} starts, and a slapd with the people and groups of this test. */
    public static class WithSlapd extends CraterTestResource {
        @Override
        public Map<String, String> start() {
            try {
                slapd = Slapd.start(PEOPLE, false);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            Map<String, String> props = new HashMap<>(super.start());
            props.put("crater.ldap.url", slapd.url());
            oidcPort = OidcProvider.freePort();
            props.put("crater.oidc.providers.corp-sso.issuer", "http://127.0.0.1:" + oidcPort);
            return props;
        }

        @Override
        public void stop() {
            super.stop();
            if (slapd != null) {
                slapd.close();
            }
        }
    }

    static Slapd slapd;

    /** Where {@link OidcFlowTest} starts the OpenID provider this boot's {@code corp-sso} names. */
    static int oidcPort;

    static final String PEOPLE = Slapd.person("alice", "Alice Liddell", "alice@example.org", 5001, 5000, "wonderland")
            + Slapd.person("bob", "Bob Builder", "bob@example.org", 5002, 5000, "can-we-fix-it")
            + Slapd.person("carol", "Carol Danvers", null, 5003, 5003, "higher-further")
            + Slapd.person("dave", "Dave Local", null, 5004, 5000, "directory-dave")
            + Slapd.person("erin", "Erin Throttled", null, 5005, 5000, "erin-right")
            + """
            dn: cn=ml-admins,ou=groups,dc=example,dc=org
            objectClass: groupOfNames
            cn: ml-admins
            member: uid=alice,ou=people,dc=example,dc=org

            dn: cn=ml-users,ou=groups,dc=example,dc=org
            objectClass: posixGroup
            cn: ml-users
            gidNumber: 5000
            memberUid: bob
            memberUid: carol
            """;

    static Response login(String username, String password) {
        return given().contentType(ContentType.JSON)
                .body(Map.of("username", username, "password", password))
                .post("/api/v1/auth/login");
    }

    static String token(String username, String password) {
        return login(username, password).then().statusCode(200).extract().path("accessToken");
    }

    /** account slug → role, and who granted it, of a user's team memberships, read from the database. */
    static Map<String, String> grants(String username) throws Exception {
        Map<String, String> out = new HashMap<>();
        try (Connection c = Db.connection();
                PreparedStatement s = c.prepareStatement("SELECT a.slug, m.role, m.granted_by FROM account_members m"
                        + " JOIN accounts a ON a.id = m.account_id JOIN users u ON u.id = m.user_id"
                        + " WHERE u.username = ? AND a.kind = 'team'")) {
            s.setString(1, username);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1), rs.getString(2) + "/" + rs.getString(3));
                }
            }
        }
        return out;
    }

    static JsonPath sync() {
        return admin().post("/api/v1/directory/sync")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }

    @Test
    @Order(1)
    void firstSignInCreatesTheUserWithTheDirectorysIdsAndGroups() throws Exception {
        admin().body(Map.of("slug", "ml-lab", "name", "ML Lab"))
                .post("/api/v1/accounts")
                .then()
                .statusCode(201);
        admin().body(Map.of("slug", "vision", "name", "Vision"))
                .post("/api/v1/accounts")
                .then()
                .statusCode(201);

        JsonPath session =
                login("alice", "wonderland").then().statusCode(200).extract().jsonPath();
        assertThat(session.getString("user.username")).isEqualTo("alice");
        assertThat(session.getString("user.displayName")).isEqualTo("Alice Liddell");

        JsonPath user = admin().get("/api/v1/users/alice")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(user.getInt("uid")).isEqualTo(5001);
        assertThat(user.getInt("gid")).isEqualTo(5000);
        assertThat(user.getString("email")).isEqualTo("alice@example.org");
        assertThat(user.getString("role")).isEqualTo("user");
        assertThat(Db.count("SELECT count(*) FROM external_identities e JOIN users u ON u.id = e.user_id"
                        + " WHERE u.username = 'alice' AND e.provider = 'ldap:corp'"
                        + " AND e.subject = 'uid=alice,ou=people,dc=example,dc=org'"))
                .isEqualTo(1);
        assertThat(Db.count("SELECT count(*) FROM users WHERE username = 'alice' AND password_hash IS NULL"))
                .as("no password is stored for a directory user")
                .isEqualTo(1);
        assertThat(grants("alice")).isEqualTo(Map.of("ml-lab", "admin/ldap:corp"));

        String token = session.getString("accessToken");
        as(token).get("/api/v1/me").then().statusCode(200).body("accounts.slug", hasItem("ml-lab"));
        as(token)
                .get("/api/v1/accounts/ml-lab/members")
                .then()
                .statusCode(200)
                .body("items.find { it.username == 'alice' }.grantedBy", equalTo("ldap:corp"));
        // a second sign-in finds the link and creates nothing
        token("alice", "wonderland");
        assertThat(Db.count("SELECT count(*) FROM users WHERE username = 'alice'"))
                .isEqualTo(1);
    }

    @Test
    @Order(2)
    void aPersonalJobRunsWithTheDirectorysUidAndGid() {
        String alice = token("alice", "wonderland");
        String id = as(alice)
                .body(Map.of(
                        "name",
                        "whoami",
                        "kind",
                        "custom",
                        "image",
                        "python:3.12",
                        "command",
                        List.of("id"),
                        "resources",
                        Map.of("cpu", "1", "memory", "2Gi")))
                .post("/api/v1/jobs")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        try (KubernetesClient k8s =
                KubeClients.forUrl(CraterTestResource.simulator().url())) {
            VolcanoJob vj = await().atMost(Duration.ofSeconds(30))
                    .until(
                            () -> k8s.resources(VolcanoJob.class)
                                    .inNamespace("crater-jobs")
                                    .withName("c-" + id)
                                    .get(),
                            java.util.Objects::nonNull);
            PodSecurityContext sc = vj.getSpec().tasks.get(0).template.getSpec().getSecurityContext();
            assertThat(sc.getRunAsUser()).isEqualTo(5001L);
            assertThat(sc.getRunAsGroup())
                    .as("the directory's gidNumber, not the personal account's GID")
                    .isEqualTo(5000L);
        }
    }

    @Test
    @Order(3)
    void wrongPasswordsAreRefusedAndThrottledLikeLocalOnes() {
        for (int i = 0; i < 3; i++) {
            login("erin", "wrong-" + i)
                    .then()
                    .statusCode(401)
                    .contentType("application/problem+json")
                    .body("code", equalTo("InvalidCredentials"));
        }
        login("erin", "erin-right")
                .then()
                .statusCode(429)
                .body("code", equalTo("TooManyAttempts"))
                .body("detail", containsString("try again in"));
        login("nobody-here", "whatever").then().statusCode(401).body("code", equalTo("InvalidCredentials"));
        admin().get("/api/v1/users/erin").then().statusCode(404);
    }

    @Test
    @Order(4)
    void aLocalUserIsNotTakenOverByTheDirectorysNamesake() throws Exception {
        admin().body(Map.of("username", "dave", "displayName", "Dave", "password", "Local-dave-2026"))
                .post("/api/v1/users")
                .then()
                .statusCode(201);
        login("dave", "directory-dave")
                .then()
                .statusCode(409)
                .contentType("application/problem+json")
                .body("code", equalTo("LocalUserExists"))
                .body("detail", containsString("crater.ldap.link-existing"));
        token("dave", "Local-dave-2026");
        assertThat(Db.count("SELECT count(*) FROM external_identities e JOIN users u ON u.id = e.user_id"
                        + " WHERE u.username = 'dave'"))
                .isZero();
    }

    @Test
    @Order(5)
    void theSyncRemovesWhatTheDirectoryNoLongerGrantsAndKeepsHandGrantedMemberships() throws Exception {
        token("bob", "can-we-fix-it");
        assertThat(grants("bob")).isEqualTo(Map.of("ml-lab", "member/ldap:corp"));
        admin().body(Map.of("role", "member"))
                .put("/api/v1/accounts/vision/members/bob")
                .then()
                .statusCode(200);
        assertThat(grants("bob")).containsEntry("vision", "member/manual");
        admin().get("/api/v1/accounts/vision/members")
                .then()
                .body("items.find { it.username == 'bob' }.grantedBy", equalTo("manual"));

        slapd.modify("""
                dn: cn=ml-users,ou=groups,dc=example,dc=org
                changetype: modify
                delete: memberUid
                memberUid: bob
                """);
        assertThat(grants("bob")).as("nothing changes before the sync").containsKey("ml-lab");
        JsonPath result = sync();
        assertThat(result.getString("outcome")).isEqualTo("partial");
        assertThat(result.getList("errors", String.class)).anyMatch(e -> e.contains("no-such-team"));
        assertThat(result.getInt("counts.membershipsRemoved")).isEqualTo(1);
        assertThat(result.getInt("counts.usersChecked")).isEqualTo(2);
        assertThat(result.getInt("counts.usersDisabled")).isZero();
        assertThat(grants("bob")).isEqualTo(Map.of("vision", "member/manual"));
        assertThat(grants("alice")).isEqualTo(Map.of("ml-lab", "admin/ldap:corp"));
        token("bob", "can-we-fix-it");
        assertThat(grants("bob")).as("sign-in applies the same groups").isEqualTo(Map.of("vision", "member/manual"));
    }

    @Test
    @Order(6)
    void aUserGoneFromTheDirectoryIsDisabledAtTheNextSync() throws Exception {
        token("carol", "higher-further");
        assertThat(admin().get("/api/v1/users/carol")
                        .then()
                        .extract()
                        .jsonPath()
                        .getInt("gid"))
                .isEqualTo(5003);
        slapd.modify("""
                dn: uid=carol,ou=people,dc=example,dc=org
                changetype: delete
                """);
        JsonPath result = sync();
        assertThat(result.getInt("counts.usersDisabled")).isEqualTo(1);
        assertThat(result.getInt("counts.membershipsRemoved")).isEqualTo(1);
        admin().get("/api/v1/users/carol").then().statusCode(200).body("disabled", equalTo(true));
        login("carol", "higher-further").then().statusCode(401).body("code", equalTo("InvalidCredentials"));
        assertThat(grants("carol")).isEmpty();

        JsonPath status = admin().get("/api/v1/directory")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(status.getBoolean("enabled")).isTrue();
        assertThat(status.getString("provider")).isEqualTo("ldap:corp");
        assertThat(status.getString("mode")).isEqualTo("search");
        assertThat(status.getString("lastSync.trigger")).isEqualTo("admin");
        assertThat(status.getInt("lastSync.counts.usersDisabled")).isEqualTo(1);
        assertThat(status.prettify()).doesNotContain(Slapd.ROOT_PW).doesNotContain(Slapd.ROOT_DN);
        // a second sync finds nothing more to do
        JsonPath again = sync();
        assertThat(again.getInt("counts.usersDisabled")).isZero();
        assertThat(again.getInt("counts.membershipsRemoved")).isZero();
    }

    @Test
    @Order(7)
    void withTheDirectoryDownItsUsersGet503AndLocalUsersStillSignIn() throws Exception {
        slapd.stop();
        try {
            login("alice", "wonderland")
                    .then()
                    .statusCode(503)
                    .contentType("application/problem+json")
                    .body("code", equalTo("DirectoryUnavailable"));
            String[] local = CraterTestResource.initialAdmin();
            token(local[0], local[1]);
            login("dave", "wrong-local").then().statusCode(401).body("code", equalTo("InvalidCredentials"));
            JsonPath result = sync();
            assertThat(result.getString("outcome")).isEqualTo("failed");
            assertThat(result.getInt("counts.usersDisabled")).isZero();
            admin().get("/api/v1/users/alice").then().statusCode(200).body("disabled", equalTo(false));
            assertThat(grants("alice")).as("an outage removes nothing").containsKey("ml-lab");
        } finally {
            slapd.start();
        }
        token("alice", "wonderland");
    }

    @Test
    @Order(8)
    void onlyPlatformAdminsSeeOrRunTheSync() {
        String alice = token("alice", "wonderland");
        as(alice).get("/api/v1/directory").then().statusCode(403).body("code", equalTo("NotPlatformAdmin"));
        as(alice).post("/api/v1/directory/sync").then().statusCode(403);
        given().get("/api/v1/directory").then().statusCode(401);
    }

    @AfterAll
    static void noPasswordInTheAuditTrail() throws Exception {
        for (String pw : List.of("wonderland", "can-we-fix-it", "higher-further", Slapd.ROOT_PW)) {
            assertThat(Db.count(
                            "SELECT count(*) FROM audit_log WHERE coalesce(before::text, '') || coalesce(after::text, '')"
                                    + " LIKE '%" + pw + "%'"))
                    .isZero();
        }
    }
}
