package io.crater.cli;

import static io.crater.Api.admin;
import static org.assertj.core.api.Assertions.assertThat;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.crater.TestAuth;
import io.crater.job.Flows;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The {@code crater admin ...} verbs against the running server: output, exit codes and what they change. */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class AdminCliTest {

    @TestHTTPResource("/")
    URL base;

    Cli cli;

    @BeforeEach
    void signIn() {
        cli = new Cli().server(base.toString()).token(TestAuth.adminToken());
    }

    @Test
    void usersAreCreatedReadChangedDisabledAndGivenNewPasswords() {
        assertThat(cli.run("admin", "account", "create", "acli-team", "--name", "ACli Team")
                        .exit())
                .isZero();
        Cli.Run created = cli.run(
                "admin",
                "user",
                "create",
                "acli-u1",
                "--name",
                "U One",
                "--email",
                "u1@example.org",
                "--member-of",
                "acli-team:admin",
                "-o",
                "json");
        assertThat(created.exit()).as(created.toString()).isZero();
        assertThat(Values.text(created.json(), "user.email")).isEqualTo("u1@example.org");
        assertThat(Values.text(created.json(), "password")).hasSizeGreaterThanOrEqualTo(10);
        admin().get("/api/v1/accounts/acli-team/members")
                .then()
                .body("items.find { it.username == 'acli-u1' }.role", org.hamcrest.Matchers.is("admin"));

        Cli.Run get = cli.run("admin", "user", "get", "acli-u1");
        assertThat(get.out()).contains("USER", "acli-u1", "U One", "u1@example.org", "active", "u-acli-u1");
        assertThat(cli.run("admin", "user", "list", "-q", "acli-u", "-o", "name")
                        .out())
                .contains("acli-u1\n");

        assertThat(cli.run("admin", "user", "set-role", "acli-u1", "admin").exit())
                .isZero();
        admin().get("/api/v1/users/acli-u1").then().body("role", org.hamcrest.Matchers.is("admin"));
        assertThat(cli.run("admin", "user", "set-role", "acli-u1", "user").exit())
                .isZero();
        admin().get("/api/v1/users/acli-u1").then().body("role", org.hamcrest.Matchers.is("user"));

        Cli.Run refused = cli.run("admin", "user", "disable", "acli-u1");
        assertThat(refused.exit()).isEqualTo(Exit.USAGE);
        assertThat(refused.err()).contains("Disable user acli-u1?", "add --yes");
        admin().get("/api/v1/users/acli-u1").then().body("disabled", org.hamcrest.Matchers.is(false));
        assertThat(cli.run("admin", "user", "disable", "acli-u1", "--yes").out())
                .contains("disabled");
        admin().get("/api/v1/users/acli-u1").then().body("disabled", org.hamcrest.Matchers.is(true));
        assertThat(cli.run("admin", "user", "enable", "acli-u1").out()).contains("active");
        admin().get("/api/v1/users/acli-u1").then().body("disabled", org.hamcrest.Matchers.is(false));

        Cli.Run reset = cli.run("admin", "user", "reset-password", "acli-u1", "--yes");
        assertThat(reset.exit()).isZero();
        String password = reset.out().strip().replaceAll("(?s).*: ", "");
        assertThat(Api.login("acli-u1", password)).isNotBlank();

        Cli.Run taken = cli.run("admin", "user", "create", "acli-u1");
        assertThat(taken.exit()).isEqualTo(Exit.ERROR);
        assertThat(taken.err()).contains("(UserExists)");
        Cli.Run unknown = cli.run("admin", "user", "get", "acli-nobody");
        assertThat(unknown.exit()).isEqualTo(Exit.NOT_FOUND);
    }

    @Test
    void aCsvImportReportsEachLineAndCreatesTheGoodOnes(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path csv = dir.resolve("users.csv");
        Files.writeString(
                csv,
                "username,displayName,email,password,account,accountRole\n"
                        + "acli-s1,Student One,s1@example.org,,,\n"
                        + "acli-s2,Student Two,,,acli-no-such-team,member\n");
        Cli.Run r = cli.run("admin", "user", "import", "-f", csv.toString());
        assertThat(r.exit()).as(r.toString()).isEqualTo(Exit.ERROR);
        assertThat(r.out()).containsPattern("acli-s1\\s+created\\s+\\S{10,}");
        assertThat(r.out()).containsPattern("acli-s2\\s+refused\\s+no team account 'acli-no-such-team'");
        assertThat(r.err()).contains("1 created, 1 refused.");
        admin().get("/api/v1/users/acli-s1").then().statusCode(200);
        admin().get("/api/v1/users/acli-s2").then().statusCode(404);

        Cli.Run missing =
                cli.run("admin", "user", "import", "-f", dir.resolve("none.csv").toString());
        assertThat(missing.exit()).isEqualTo(Exit.NOT_FOUND);
        assertThat(missing.err()).contains("no file");
    }

    @Test
    void quotasMembersAndLimitsAreSetAndMergedWithWhatIsThere() {
        Api.user("acli-m1", "acli-m1-password");
        Api.user("acli-m2", "acli-m2-password");
        assertThat(cli.run("admin", "account", "create", "acli-lab", "--name", "ACli Lab", "--admin", "acli-m2")
                        .exit())
                .isZero();
        assertThat(cli.run("admin", "quota", "set", "acli-lab", "nvidia-a100-80gb", "--guaranteed", "2", "--max", "4")
                        .exit())
                .isZero();
        Cli.Run cpu = cli.run("admin", "quota", "set", "acli-lab", "cpu", "--guaranteed", "8", "--max", "16");
        assertThat(cpu.out()).contains("GUARANTEED", "nvidia-a100-80gb", "cpu");
        admin().get("/api/v1/accounts/acli-lab")
                .then()
                .body("quota.find { it.resource == 'nvidia-a100-80gb' }.max", org.hamcrest.Matchers.is("4"))
                .body("quota.find { it.resource == 'cpu' }.guaranteed", org.hamcrest.Matchers.is("8"));
        assertThat(cli.run("admin", "quota", "set", "acli-lab", "memory", "--guaranteed", "64Gi", "--max", "128Gi")
                        .exit())
                .isZero();

        assertThat(cli.run("admin", "member", "add", "acli-lab", "acli-m1", "--files", "ro")
                        .exit())
                .isZero();
        assertThat(cli.run("admin", "member", "set-role", "acli-lab", "acli-m1", "admin")
                        .exit())
                .isZero();
        admin().get("/api/v1/accounts/acli-lab/members")
                .then()
                .body("items.find { it.username == 'acli-m1' }.role", org.hamcrest.Matchers.is("admin"))
                .body("items.find { it.username == 'acli-m1' }.fileAccess", org.hamcrest.Matchers.is("ro"));

        assertThat(cli.run(
                                "admin",
                                "limit",
                                "set",
                                "acli-lab",
                                "acli-m1",
                                "--resource",
                                "nvidia-a100-80gb=1",
                                "--max-running-jobs",
                                "2")
                        .exit())
                .isZero();
        Cli.Run more = cli.run("admin", "limit", "set", "acli-lab", "acli-m1", "--max-interactive-sessions", "1");
        assertThat(more.out()).contains("Limits of acli-m1 in acli-lab: nvidia-a100-80gb=1, jobs=2, sessions=1");
        admin().get("/api/v1/accounts/acli-lab/members/acli-m1/limits")
                .then()
                .body("resources.nvidia-a100-80gb", org.hamcrest.Matchers.is("1"))
                .body("maxRunningJobs", org.hamcrest.Matchers.is(2))
                .body("maxInteractiveSessions", org.hamcrest.Matchers.is(1));
        assertThat(cli.run("admin", "limit", "set", "acli-lab", "--max-running-jobs", "5")
                        .out())
                .contains("Default member limits of acli-lab: jobs=5");
        Cli.Run times = cli.run("admin", "limit", "time-set", "acli-lab", "--batch-max", "3d");
        assertThat(times.exit()).as(times.toString()).isZero();
        admin().get("/api/v1/accounts/acli-lab/time-limits").then().body("batchMax", org.hamcrest.Matchers.is("3d"));

        for (String lang : List.of("en", "zh-CN")) {
            cli.env("CRATER_LANG", lang);
            Golden.assertMatches(
                    "admin-member-list." + lang + ".txt",
                    CliText.normalise(
                            cli.run("admin", "member", "list", "acli-lab").out()));
            Golden.assertMatches(
                    "admin-account-get." + lang + ".txt",
                    CliText.normalise(
                            cli.run("admin", "account", "get", "acli-lab").out(), gid("acli-lab"), "<GID>"));
        }
        cli.env("CRATER_LANG", null);
        Golden.assertMatches(
                "admin-quota-show.json",
                CliText.normalise(cli.run("admin", "quota", "show", "acli-lab", "-o", "json")
                        .out()));

        assertThat(cli.run("admin", "member", "remove", "acli-lab", "acli-m1").exit())
                .isEqualTo(Exit.USAGE);
        assertThat(cli.run("admin", "member", "remove", "acli-lab", "acli-m1", "--yes")
                        .err())
                .contains("Removed acli-m1 from account acli-lab.");
        admin().get("/api/v1/accounts/acli-lab/members")
                .then()
                .body("items.username", org.hamcrest.Matchers.not(org.hamcrest.Matchers.hasItem("acli-m1")));
    }

    private String gid(String slug) {
        return String.valueOf((Integer)
                admin().get("/api/v1/accounts/" + slug).then().extract().path("gid"));
    }

    @Test
    void accountsAreListedUpdatedAndArchived() throws Exception {
        assertThat(cli.run("admin", "account", "create", "acli-old", "--expires", "30d")
                        .exit())
                .isZero();
        Cli.Run list = cli.run("admin", "account", "list", "-q", "acli-old", "-o", "json");
        assertThat(Values.items(list.json()))
                .singleElement()
                .satisfies(a -> assertThat(Values.text(a, "slug")).isEqualTo("acli-old"));
        assertThat(Files.readString(cli.home().resolve(".cache/crater/names/accounts")))
                .contains("acli-old");
        assertThat(cli.run("admin", "account", "update", "acli-old", "--name", "Old Lab", "--no-expiry")
                        .exit())
                .isZero();
        admin().get("/api/v1/accounts/acli-old")
                .then()
                .body("name", org.hamcrest.Matchers.is("Old Lab"))
                .body("expiresAt", org.hamcrest.Matchers.nullValue());
        Cli.Run both = cli.run("admin", "account", "update", "acli-old", "--expires", "1d", "--no-expiry");
        assertThat(both.exit()).isEqualTo(Exit.USAGE);
        Cli.Run archived = cli.run("admin", "account", "archive", "acli-old", "--yes", "-o", "json");
        assertThat(archived.exit()).as(archived.toString()).isZero();
        assertThat(Values.at(archived.json(), "jobsStopped")).isEqualTo(0);
        admin().get("/api/v1/accounts/acli-old").then().body("archivedAt", org.hamcrest.Matchers.notNullValue());
        Cli.Run again = cli.run("admin", "account", "archive", "acli-old", "--yes");
        assertThat(again.exit()).isEqualTo(Exit.ERROR);
        assertThat(again.err()).contains("(AccountArchived)");
    }

    @Test
    void anAccountsFeaturesAndCapsAreShownAndMergedWithWhatIsThere() {
        Flows.account("acli-feat", List.of(Flows.line("cpu", "4", "8")));
        Cli.Run shown = cli.run("admin", "account", "features", "acli-feat");
        assertThat(shown.exit()).as(shown.toString()).isZero();
        assertThat(shown.out()).contains("FEATURE", "pytorch", "high-priority", "egress", "1G", "platform default");

        Cli.Run set = cli.run(
                "admin", "account", "features", "acli-feat", "--off", "pytorch,ssh", "--ingress", "100M", "-o", "json");
        assertThat(set.exit()).as(set.toString()).isZero();
        assertThat(Values.at(set.json(), "effective.features.pytorch")).isEqualTo(false);
        // A second change keeps what the first set.
        Cli.Run more = cli.run("admin", "account", "features", "acli-feat", "--on", "ssh", "--egress", "none");
        assertThat(more.exit()).as(more.toString()).isZero();
        admin().get("/api/v1/accounts/acli-feat/features")
                .then()
                .body("features.pytorch", org.hamcrest.Matchers.is(false))
                .body("features.ssh", org.hamcrest.Matchers.is(true))
                .body("ingressBandwidth", org.hamcrest.Matchers.is("100M"))
                .body("egressBandwidth", org.hamcrest.Matchers.is("none"));

        Cli.Run bad = cli.run("admin", "account", "features", "acli-feat", "--ingress", "fast", "--default", "pytorch");
        assertThat(bad.exit()).as(bad.toString()).isEqualTo(Exit.USAGE);
        assertThat(bad.err()).contains("ingressBandwidth");
        admin().get("/api/v1/accounts/acli-feat/features")
                .then()
                .body("features.pytorch", org.hamcrest.Matchers.is(false))
                .body("ingressBandwidth", org.hamcrest.Matchers.is("100M"));
    }

    @Test
    void badValuesAreRefusedWithTheServersWordsAndChangeNothing() {
        Flows.account("acli-bad", List.of(Flows.line("cpu", "4", "8")));
        Cli.Run bad = cli.run("admin", "quota", "set", "acli-bad", "cpu", "--max", "lots");
        assertThat(bad.exit()).as(bad.toString()).isEqualTo(Exit.USAGE);
        assertThat(bad.err()).contains("items[0].max");
        admin().get("/api/v1/accounts/acli-bad").then().body("quota[0].max", org.hamcrest.Matchers.is("8"));
        Cli.Run nothing = cli.run("admin", "quota", "set", "acli-bad", "cpu");
        assertThat(nothing.exit()).isEqualTo(Exit.USAGE);
        assertThat(nothing.err()).contains("Give --guaranteed, --max or both.");
        Cli.Run flag = cli.run("admin", "quota", "set", "acli-bad", "cpu", "--maximum", "3");
        assertThat(flag.exit()).isEqualTo(Exit.USAGE);
        assertThat(flag.err()).contains("Unknown options: '--maximum'");
        assertThat(cli.run("admin", "model", "get", "acli-no-model").exit()).isEqualTo(Exit.NOT_FOUND);
        assertThat(cli.run("admin", "member", "set-role", "acli-bad", "acli-nobody", "admin")
                        .exit())
                .isEqualTo(Exit.NOT_FOUND);
    }

    @Test
    void aMemberIsDeniedTheAdminVerbsWithTheServersReason() {
        String token = Api.user("acli-plain", "acli-plain-password");
        Flows.account("acli-mine", List.of(Flows.line("cpu", "4", "8")), "acli-plain");
        Cli member = new Cli().server(base.toString()).token(token);
        Map<List<String>, String> denied = Map.of(
                List.of("admin", "user", "list"), "only a platform administrator may do this",
                List.of("admin", "quota", "set", "acli-mine", "cpu", "--max", "100"), "(NotPlatformAdmin)",
                List.of("admin", "audit"), "only platform administrators read the audit trail",
                List.of("admin", "node", "list"), "",
                List.of("admin", "account", "create", "acli-mine2"), "(NotPlatformAdmin)",
                List.of("admin", "model", "update", "nvidia-a100-80gb", "--vendor", "X"), "");
        denied.forEach((args, words) -> {
            Cli.Run r = member.run(args.toArray(String[]::new));
            assertThat(r.exit()).as(args + "\n" + r).isEqualTo(Exit.DENIED);
            assertThat(r.err()).contains(words);
        });
        admin().get("/api/v1/accounts/acli-mine").then().body("quota[0].max", org.hamcrest.Matchers.is("8"));
        admin().get("/api/v1/accounts/acli-mine2").then().statusCode(404);
    }

    @Test
    void theCatalogueTheAuditTrailAndTheNodes() {
        Cli.Run models = cli.run("admin", "model", "list", "-o", "json");
        Object a100 = Values.items(models.json()).stream()
                .filter(m -> "nvidia-a100-80gb".equals(Values.text(m, "key")))
                .findFirst()
                .orElseThrow();
        String vendor = Values.text(a100, "vendor");
        Cli.Run updated = cli.run("admin", "model", "update", "nvidia-a100-80gb", "--vendor", "Acli Vendor");
        assertThat(updated.out()).contains("nvidia-a100-80gb", "Acli Vendor");
        assertThat(cli.run("admin", "model", "get", "nvidia-a100-80gb", "-o", "jsonpath={.vendor}")
                        .out())
                .isEqualTo("Acli Vendor\n");
        assertThat(cli.run("admin", "model", "update", "nvidia-a100-80gb", "--vendor", vendor)
                        .exit())
                .isZero();

        String adminName = CraterTestResource.initialAdmin()[0];
        Cli.Run audit = cli.run(
                "admin",
                "audit",
                "--actor",
                adminName,
                "--action",
                "accelerator-model.update",
                "--since",
                "1h ago",
                "--max-items",
                "2",
                "-o",
                "json");
        assertThat(audit.exit()).as(audit.toString()).isZero();
        assertThat(Values.items(audit.json()))
                .hasSize(2)
                .allSatisfy(e -> assertThat(Values.text(e, "targetId")).isEqualTo("nvidia-a100-80gb"));
        assertThat(cli.run("admin", "audit", "--since", "yesterday-ish").err()).contains("is not a time");

        Cli.Run nodes = cli.run("admin", "node", "list");
        assertThat(nodes.exit()).isZero();
        assertThat(nodes.out()).startsWith("NODE").contains("Ready");
        assertThat(Values.items(cli.run("admin", "node", "list", "-o", "json").json()))
                .isNotEmpty();
    }

    @Test
    void nodesAreCordonedGivenToAnAccountSharedAndTheirHealthReadAndCleared() {
        Flows.account("acli-excl", List.of(Flows.line("cpu", "4", "8")));
        String node = "cpu-1";
        try {
            Cli.Run cordoned = cli.run("admin", "node", "cordon", node, "--reason", "fan swap");
            assertThat(cordoned.exit()).as(cordoned.toString()).isZero();
            assertThat(cordoned.out()).contains(node).contains("Cordoned");
            Object json =
                    cli.run("admin", "node", "uncordon", node, "-o", "json").json();
            assertThat(Values.at(json, "schedulable")).isEqualTo(true);
            assertThat(cli.run("admin", "node", "cordon", node).err()).contains("--reason");

            Object given = cli.run("admin", "node", "exclusive", node, "acli-excl", "-o", "json")
                    .json();
            assertThat(Values.text(given, "exclusive.account")).isEqualTo("acli-excl");
            Cli.Run personal = cli.run("admin", "node", "exclusive", node, "u-admin");
            assertThat(personal.exit()).as(personal.toString()).isNotZero();
            assertThat(personal.err()).contains("InvalidExclusive");
            assertThat(Values.at(
                            cli.run("admin", "node", "share", node, "-o", "json")
                                    .json(),
                            "exclusive"))
                    .isNull();

            Cli.Run health = cli.run("admin", "node", "health", node);
            assertThat(health.exit()).as(health.toString()).isZero();
            assertThat(health.out()).contains("Node " + node + ": HEALTHY");
            Cli.Run cleared = cli.run("admin", "node", "clear", node, "--reason", "checked the cards");
            assertThat(cleared.exit()).as(cleared.toString()).isZero();
            assertThat(Values.text(
                            cli.run("admin", "node", "health", node, "-o", "json")
                                    .json(),
                            "clearedBy"))
                    .isEqualTo("admin");
            assertThat(cli.run("admin", "node", "health", "no-such-node").exit())
                    .isEqualTo(Exit.NOT_FOUND);
        } finally {
            cli.run("admin", "node", "uncordon", node);
            cli.run("admin", "node", "share", node);
        }
    }
}
