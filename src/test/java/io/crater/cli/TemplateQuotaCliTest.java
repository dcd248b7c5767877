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
import org.hamcrest.Matchers;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code crater template}, {@code quota}, {@code approval} and {@code cluster} against the running server. */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class TemplateQuotaCliTest {

    @TestHTTPResource("/")
    URL base;

    Cli cli;

    @BeforeEach
    void signIn() {
        cli = new Cli().server(base.toString()).token(TestAuth.adminToken());
    }

    @Test
    void templatesAreListedInTheTerminalsLanguageAndRemembered() throws Exception {
        Cli.Run list = cli.run("template", "list");
        assertThat(list.exit()).isZero();
        assertThat(list.out().lines().findFirst().orElseThrow())
                .matches("ID\\s+NAME\\s+KIND\\s+VISIBILITY\\s+VERSION\\s+OWNER");
        assertThat(list.out()).containsPattern("pytorch-ddp\\s+PyTorch DDP training\\s+pytorch\\s+public");
        assertThat(Files.readString(cli.home().resolve(".cache/crater/names/templates")))
                .contains("batch\n", "pytorch-ddp\n");
        Cli.Run zh = cli.env("CRATER_LANG", "zh-CN").run("template", "list", "--kind", "pytorch");
        assertThat(zh.out()).contains("编号", "PyTorch DDP 训练", "（内置）").doesNotContain("jupyter-pytorch");
        cli.env("CRATER_LANG", null);
        assertThat(Values.items(cli.run("template", "list", "-o", "json").json()))
                .anySatisfy(t -> assertThat(Values.text(t, "id")).isEqualTo("batch"));
    }

    @Test
    void aTemplateShowsItsParametersAndRendersWithValues() {
        for (String lang : List.of("en", "zh-CN")) {
            cli.env("CRATER_LANG", lang);
            Golden.assertMatches(
                    "template-get." + lang + ".txt",
                    CliText.normalise(cli.run("template", "get", "pytorch-ddp").out()));
        }
        cli.env("CRATER_LANG", null);
        assertThat(Values.text(cli.run("template", "get", "batch", "-o", "json").json(), "parameters.0.name"))
                .isNotBlank();
        Cli.Run yaml = cli.run("template", "render", "batch", "--set", "command=echo hello-from-cli");
        assertThat(yaml.exit()).as(yaml.toString()).isZero();
        assertThat(yaml.out()).contains("kind: custom", "hello-from-cli");
        Cli.Run json = cli.run("template", "render", "batch", "--set", "command=echo hi", "-o", "json");
        assertThat(Values.text(json.json(), "kind")).isEqualTo("custom");

        Cli.Run bad = cli.run("template", "render", "pytorch-ddp", "--set", "workers=many");
        assertThat(bad.exit()).as(bad.toString()).isEqualTo(Exit.USAGE);
        assertThat(bad.err()).contains("parameters.workers");
        assertThat(cli.run("template", "render", "tnosuch", "--set", "a=b").exit())
                .isEqualTo(Exit.NOT_FOUND);
        assertThat(cli.run("template", "get", "tnosuch").exit()).isEqualTo(Exit.NOT_FOUND);
    }

    @Test
    void aTemplateIsSavedFromAFileAndThenAsANewVersion(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("t.yaml");
        Files.writeString(file, """
                name: tq-cli echo
                description: says what it is told
                visibility: private
                parameters:
                  - {name: word, label: Word, type: string, default: hello}
                spec:
                  kind: custom
                  name: echo
                  image: busybox
                  command: ["echo", "${word}"]
                  resources: {cpu: "1", memory: 1Gi}
                """);
        Cli.Run saved = cli.run("template", "save", "-f", file.toString(), "-o", "json");
        assertThat(saved.exit()).as(saved.toString()).isZero();
        String id = Values.text(saved.json(), "id");
        assertThat(Values.at(saved.json(), "version")).isEqualTo(1);
        admin().get("/api/v1/templates/" + id).then().body("name", Matchers.is("tq-cli echo"));

        Files.writeString(file, Files.readString(file).replace("says what it is told", "echoes a word"));
        Cli.Run again = cli.run("template", "save", id, "-f", file.toString());
        assertThat(again.out()).contains("Saved template " + id + ": now at version 2.");
        admin().get("/api/v1/templates/" + id).then().body("description", Matchers.is("echoes a word"));
        assertThat(cli.run("template", "render", id, "-o", "json").out()).contains("hello");

        Files.writeString(file, "- just a list\n");
        Cli.Run list = cli.run("template", "save", "-f", file.toString());
        assertThat(list.exit()).isEqualTo(Exit.USAGE);
        assertThat(list.err()).contains("must be a YAML mapping");
        Files.writeString(file, "name: tq-cli nothing\n");
        Cli.Run noSpec = cli.run("template", "save", "-f", file.toString());
        assertThat(noSpec.exit()).as(noSpec.toString()).isEqualTo(Exit.USAGE);
        assertThat(noSpec.err()).contains("spec");
        assertThat(cli.run("template", "save").exit()).isEqualTo(Exit.USAGE);
    }

    @Test
    void aGrantIsAskedForApprovedAndShownInTheQuota() {
        String member = Api.user("tqc-m", "tqc-m-password");
        Flows.account(
                "tqc-lab", List.of(Flows.line("nvidia-a100-80gb", "2", "4"), Flows.line("cpu", "8", "16")), "tqc-m");
        admin().body(java.util.Map.of("maxRunningJobs", 3))
                .put("/api/v1/accounts/tqc-lab/members/tqc-m/limits")
                .then()
                .statusCode(200);
        Cli m = new Cli().server(base.toString()).token(member);

        Cli.Run asked = m.run(
                "approval",
                "request",
                "quota-grant",
                "nvidia-a100-80gb",
                "2",
                "--until",
                "3d",
                "--reason",
                "deadline",
                "-a",
                "tqc-lab",
                "-o",
                "json");
        assertThat(asked.exit()).as(asked.toString()).isZero();
        long id = ((Number) Values.at(asked.json(), "id")).longValue();
        assertThat(Values.text(asked.json(), "state")).isEqualTo("pending");

        Cli.Run review = cli.run("approval", "list", "--scope", "review", "--state", "pending", "-o", "json");
        assertThat(Values.items(review.json()))
                .anySatisfy(a -> assertThat(Values.at(a, "id")).isEqualTo((int) id));
        Cli.Run noTerminal = cli.run("approval", "approve", Long.toString(id));
        assertThat(noTerminal.exit()).isEqualTo(Exit.USAGE);
        assertThat(noTerminal.err()).contains("Approve request " + id + "?", "--yes");
        admin().get("/api/v1/approvals?scope=review&state=pending").then().body("items.id", Matchers.hasItem((int) id));
        Cli.Run own = m.run("approval", "approve", Long.toString(id), "--yes");
        assertThat(own.exit()).isEqualTo(Exit.DENIED);
        Cli.Run ok = cli.run("approval", "approve", Long.toString(id), "--comment", "good luck", "--yes");
        assertThat(ok.exit()).as(ok.toString()).isZero();
        assertThat(ok.err()).contains("Request " + id + " is now approved.");
        admin().get("/api/v1/accounts/tqc-lab")
                .then()
                .body("quota.find { it.resource == 'nvidia-a100-80gb' }.granted", Matchers.is("2"));

        for (String lang : List.of("en", "zh-CN")) {
            m.env("CRATER_LANG", lang);
            Cli.Run show = m.run("quota", "show", "-a", "tqc-lab");
            assertThat(show.out()).containsPattern(id + "\\s+nvidia-a100-80gb\\s+2\\s+\\S+Z\\s+tqc-m");
            Golden.assertMatches(
                    "quota-show." + lang + ".txt",
                    CliText.withoutTableAfter(
                            CliText.normalise(show.out()), lang.equals("en") ? "Active grants:" : "生效中的临时配额："));
            assertThat(m.run("approval", "list").out())
                    .containsPattern(id + "\\s+quota-grant\\s+tqc-m\\s+tqc-lab\\s+2 nvidia-a100-80gb"
                            + (lang.equals("en") ? " until" : "，直到") + ".*approved\\s+\\d+[smh]");
        }
        m.env("CRATER_LANG", null);
        assertThat(m.run("approval", "list").out().lines().findFirst().orElseThrow())
                .matches("ID\\s+KIND\\s+REQUESTER\\s+ACCOUNT\\s+WHAT\\s+STATE\\s+AGE");
        Golden.assertMatches(
                "approval-list.json",
                CliText.json(m.run("approval", "list", "-o", "json").out()));
        m.env("CRATER_LANG", null);
        Cli.Run grants = m.run("quota", "grants", "-a", "tqc-lab", "-o", "json");
        assertThat(Values.items(grants.json()))
                .singleElement()
                .satisfies(g -> assertThat(Values.text(g, "amount")).isEqualTo("2"));
        Cli.Run json = m.run("quota", "show", "-a", "tqc-lab", "-o", "json");
        assertThat(Values.at(json.json(), "myLimits.maxRunningJobs")).isEqualTo(3);
        assertThat(Values.text(json.json(), "account.slug")).isEqualTo("tqc-lab");
        assertThat(m.run("quota", "limits", "-a", "tqc-lab", "--mine").out()).contains("tqc-m", "jobs=3");
    }

    @Test
    void requestsAreRejectedCancelledAndBadOnesRefused() {
        String member = Api.user("tqc-r", "tqc-r-password");
        Flows.account("tqc-rej", List.of(Flows.line("cpu", "8", "16")), "tqc-r");
        Cli m = new Cli().server(base.toString()).token(member).env("CRATER_ACCOUNT", "tqc-rej");
        long first = id(m.run(
                "approval", "request", "quota-grant", "cpu", "4", "--until", "2d", "--reason", "more", "-o", "json"));
        Cli.Run rejected = cli.run("approval", "reject", Long.toString(first), "--comment", "not now", "--yes");
        assertThat(rejected.out()).contains("rejected");
        admin().get("/api/v1/approvals?scope=review&state=rejected")
                .then()
                .body("items.find { it.id == " + first + " }.comment", Matchers.is("not now"));

        Cli.Run open = m.run("approval", "request", "model-access", "nvidia-h100-80gb", "--reason", "x");
        assertThat(open.exit()).isEqualTo(Exit.ERROR);
        assertThat(open.err()).contains("no access request is needed (ModelNotRestricted)");
        long second = id(m.run(
                "approval",
                "request",
                "quota-grant",
                "memory",
                "8Gi",
                "--until",
                "30d",
                "--reason",
                "y",
                "-o",
                "json"));
        assertThat(m.run("approval", "cancel", Long.toString(second)).exit()).isEqualTo(Exit.USAGE);
        assertThat(m.run("approval", "cancel", Long.toString(second), "--yes").exit())
                .isZero();
        Cli.Run mine = m.run("approval", "list", "--state", "cancelled", "-o", "json");
        assertThat(Values.items(mine.json()))
                .singleElement()
                .satisfies(a -> assertThat(Values.text(a, "resource")).isEqualTo("memory"));
        Cli.Run twice = m.run("approval", "cancel", Long.toString(second), "--yes");
        assertThat(twice.exit()).isEqualTo(Exit.ERROR);
        assertThat(twice.err()).contains("(ApprovalNotPending)");

        Cli.Run badTime =
                m.run("approval", "request", "quota-grant", "cpu", "2", "--until", "soonish", "--reason", "x");
        assertThat(badTime.exit()).isEqualTo(Exit.USAGE);
        assertThat(badTime.err()).contains("--until: 'soonish' is not a time");
        Cli.Run noReason = m.run("approval", "request", "quota-grant", "cpu", "2", "--until", "1d");
        assertThat(noReason.exit()).isEqualTo(Exit.USAGE);
        assertThat(noReason.err()).contains("--reason");
        Cli.Run badState = m.run("approval", "list", "--state", "weird");
        assertThat(badState.exit()).isEqualTo(Exit.USAGE);
        assertThat(badState.err()).contains("state: pending, approved, rejected, cancelled or expired");
        assertThat(Values.items(m.run("approval", "list", "-o", "json").json())).hasSize(2);
    }

    private static long id(Cli.Run r) {
        assertThat(r.exit()).as(r.toString()).isZero();
        return ((Number) Values.at(r.json(), "id")).longValue();
    }

    @Test
    void everyoneSeesTheFreeAcceleratorsByModel() {
        Cli m = new Cli().server(base.toString()).token(Api.user("tqc-c", "tqc-c-password"));
        Cli.Run table = m.run("cluster", "accelerators");
        assertThat(table.exit()).isZero();
        assertThat(table.out().lines().findFirst().orElseThrow())
                .matches("MODEL\\s+NAME\\s+VENDOR\\s+NODES\\s+TOTAL\\s+ALLOCATED\\s+FREE");
        Cli.Run json = m.run("cluster", "accelerators", "-o", "json");
        assertThat(Values.items(json.json())).anySatisfy(a -> {
            assertThat(Values.text(a, "model")).isEqualTo("nvidia-a100-80gb");
            assertThat(((Number) Values.at(a, "free")).longValue())
                    .isBetween(0L, ((Number) Values.at(a, "total")).longValue());
        });
        assertThat(m.env("CRATER_LANG", "zh-CN").run("cluster", "gpus").out()).startsWith("型号");
    }
}
