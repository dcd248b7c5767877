package io.crater.cli;

import static io.crater.Api.as;
import static org.assertj.core.api.Assertions.assertThat;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.crater.job.Flows;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.ServerSocket;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * {@code crater job …} against a running server and the simulated cluster, as a user runs it: exit codes, what
 * it prints (golden files for the list, get and why in both languages and for -o json), error text, and what the
 * server holds afterwards.
 */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JobCliTest {

    static final String PW = "Job-cli-pass-2026";
    static final String ACCOUNT = "cli-jobs";
    /** The account of the jobs the golden files show: nothing else happens in it. */
    static final String GOLD = "cli-gold";

    @TestHTTPResource("/")
    URL base;

    String ann;
    String bob;
    String running;
    String queued;
    String goldRunning;
    String goldQueued;
    Cli cli;
    Cli gold;

    @BeforeEach
    void jobs() {
        if (running != null) {
            return;
        }
        ann = Api.user("cli-ann", PW);
        bob = Api.user("cli-bob", PW);
        Flows.account(ACCOUNT, List.of(Flows.line("cpu", "3", "3"), Flows.line("memory", "8Gi", "8Gi")), "cli-ann");
        Flows.account(GOLD, List.of(Flows.line("cpu", "3", "3"), Flows.line("memory", "8Gi", "8Gi")), "cli-ann");
        Flows.account("cli-other", List.of(Flows.line("cpu", "2", "2"), Flows.line("memory", "4Gi", "4Gi")), "cli-bob");
        running = Flows.submit(ann, ACCOUNT, spec("trainer", "1", "30m"));
        Flows.awaitRunning(ann, running);
        queued = Flows.submit(ann, ACCOUNT, spec("big-run", "3", "30m"));
        goldRunning = Flows.submit(ann, GOLD, spec("trainer", "1", "30m"));
        Flows.awaitRunning(ann, goldRunning);
        goldQueued = Flows.submit(ann, GOLD, spec("big-run", "3", "30m"));
        // The golden files show the reason admission gives: wait for its round to have written it.
        awaitReason(queued);
        awaitReason(goldQueued);
        cli = new Cli().server(base.toString()).token(ann).env("CRATER_ACCOUNT", ACCOUNT);
        gold = new Cli().server(base.toString()).token(ann).env("CRATER_ACCOUNT", GOLD);
    }

    void awaitReason(String id) {
        org.awaitility.Awaitility.await()
                .atMost(java.time.Duration.ofSeconds(30))
                .until(() -> {
                    List<String> codes = io.crater.Api.as(ann)
                            .get("/api/v1/jobs/" + id)
                            .then()
                            .extract()
                            .path("job.reasons.code");
                    return codes != null && codes.contains("AccountQuotaExceeded");
                });
    }

    static Map<String, Object> spec(String name, String cpu, String duration) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("name", name);
        s.put("kind", "custom");
        s.put("image", "python:3.12");
        s.put("command", List.of("python", "train.py"));
        s.put("env", Map.of("SIM_DURATION", duration));
        s.put("resources", Map.of("cpu", cpu, "memory", "1Gi"));
        return s;
    }

    /** Ids become J1, J2 (in the order given), times and ages placeholders, so the output compares across runs. */
    String normal(String text) {
        return text.replace(goldRunning, "J-RUNNING")
                .replace(goldQueued, "J-QUEUED")
                .replaceAll("\\d{4}-\\d\\d-\\d\\d[T ][\\d:.]+Z", "<time>")
                .replaceAll("(?<=\\s)\\d+[smhd](\\d+[smh])?(?=\\s|$)", "<age>")
                .replaceAll("\\d+ of \\d+ in the cluster", "N of M in the cluster")
                .replaceAll("集群内第 \\d+ / \\d+", "集群内第 N / M")
                .replaceAll("(?m)^  \\((a job you may not see|你无权查看的作业)\\).*\\n", "")
                .replaceAll("(?m)^  (once these end|待这些作业结束)(: |：).*$", "  $1$2<jobs>");
    }

    /** JSON with every object's keys sorted (the API's maps of numbers have no fixed order), then normalised. */
    String json(String text) throws Exception {
        com.fasterxml.jackson.databind.ObjectMapper m = new com.fasterxml.jackson.databind.ObjectMapper()
                .enable(com.fasterxml.jackson.databind.SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);
        return normal(m.writerWithDefaultPrettyPrinter().writeValueAsString(m.readValue(text, Object.class)) + "\n");
    }

    /** {@link #normal} with runs of spaces made one gap, since ages of different widths move later columns. */
    String table(String text) {
        return normal(text).replaceAll(" {2,}", "  ");
    }

    int jobCount() {
        return as(ann).get("/api/v1/jobs?account=" + ACCOUNT + "&limit=200")
                .then()
                .statusCode(200)
                .extract()
                .path("items.size()");
    }

    // ---- list ----

    @Test
    void listPrintsTheAccountsJobsAsATableInBothLanguagesAndAsJson() throws Exception {
        Cli.Run en = gold.run("job", "list", "--state", "Queued");
        assertThat(en.exit()).as(en.toString()).isZero();
        Golden.assertMatches("job-list.en.txt", table(en.out()));
        Cli.Run zh = gold.env("CRATER_LANG", "zh-CN").run("job", "list", "--state", "Queued");
        gold.env("CRATER_LANG", null);
        assertThat(zh.exit()).isZero();
        Golden.assertMatches("job-list.zh-CN.txt", table(zh.out()));

        Cli.Run json = gold.run("job", "list", "-o", "json", "--state", "Queued");
        assertThat(json.exit()).isZero();
        assertThat(Values.text(json.json(), "items.0.id")).isEqualTo(goldQueued);
        Golden.assertMatches("job-list.json", json(json.out()));

        Cli.Run wide = gold.run("job", "list", "-o", "wide", "--state", "Queued");
        assertThat(wide.out()).contains("REASONS").contains("AccountQuotaExceeded");

        Cli.Run names = gold.run("job", "list", "-o", "name", "--max-items", "1");
        assertThat(names.out().lines().toList()).containsExactly(goldQueued);
        assertThat(Files.readAllLines(gold.home().resolve(".cache/crater/names/jobs")))
                .containsExactly(goldQueued);
    }

    @Test
    void listFiltersAreTheApisAndABadOneSaysWhichField() {
        Cli.Run mine = cli.run("job", "list", "-o", "name", "--state", "Running", "--mine");
        assertThat(mine.out().lines().toList()).contains(running).doesNotContain(queued);
        Cli.Run bad = cli.run("job", "list", "--state", "Sleeping");
        assertThat(bad.exit()).isEqualTo(Exit.USAGE);
        assertThat(bad.err()).contains("the filters are not valid").contains("state: one of");
        Cli.Run other = cli.run("job", "list", "-a", "cli-other");
        assertThat(other.exit()).isEqualTo(Exit.DENIED);
        assertThat(other.err()).contains("you are not a member of account 'cli-other'");
    }

    // ---- get ----

    @Test
    void getDescribesTheJobForAPersonAndGivesTheApisObjectAsJson() throws Exception {
        Cli.Run en = gold.run("job", "get", goldQueued);
        assertThat(en.exit()).as(en.toString()).isZero();
        Golden.assertMatches("job-get.en.txt", table(en.out()));
        Cli.Run zh = gold.env("CRATER_LANG", "zh-CN").run("job", "get", goldQueued);
        gold.env("CRATER_LANG", null);
        Golden.assertMatches("job-get.zh-CN.txt", table(zh.out()));
        Cli.Run json = gold.run("job", "get", goldQueued, "-o", "json");
        assertThat(Values.text(json.json(), "job.state")).isEqualTo("Queued");
        Golden.assertMatches("job-get.json", json(json.out()));

        Cli.Run run = gold.run("job", "get", goldRunning);
        assertThat(run.out()).contains("Running").contains("main-0").contains("Pods:");
    }

    @Test
    void anUnknownJobIsExit3WithTheServersWords() {
        Cli.Run r = cli.run("job", "get", "zzzz9999");
        assertThat(r.exit()).isEqualTo(Exit.NOT_FOUND);
        assertThat(r.err()).isEqualTo("crater: no job zzzz9999 (NotFound)\n");
    }

    @Test
    void anotherAccountsMemberIsRefusedAsTheApiRefuses() {
        int status = as(bob).get("/api/v1/jobs/" + running).then().extract().statusCode();
        Cli.Run r = new Cli().server(base.toString()).token(bob).run("job", "get", running);
        assertThat(r.exit()).isEqualTo(Exit.forStatus(status)).isIn(Exit.NOT_FOUND, Exit.DENIED);
        assertThat(r.err()).isEqualTo("crater: this job belongs to an account you are not a member of (NotAMember)\n");
        Cli.Run stop = new Cli().server(base.toString()).token(bob).run("job", "stop", running, "--yes");
        assertThat(stop.exit()).isIn(Exit.NOT_FOUND, Exit.DENIED);
        assertThat(Flows.state(ann, running)).isEqualTo("Running");
    }

    @Test
    void badFlagsAreUsageErrorsAndADownServerSaysSo() throws Exception {
        Cli.Run flag = cli.run("job", "list", "--bogus");
        assertThat(flag.exit()).isEqualTo(Exit.USAGE);
        assertThat(flag.err()).contains("Unknown option: '--bogus'").contains("crater job list --help");
        Cli.Run cond = cli.run("job", "wait", queued, "--for", "sleeping");
        assertThat(cond.exit()).isEqualTo(Exit.USAGE);
        assertThat(cond.err()).contains("--for 'sleeping': use running, done or a state");
        Cli.Run noSpec = cli.run("job", "submit");
        assertThat(noSpec.exit()).isEqualTo(Exit.USAGE);
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        Cli.Run down = new Cli().server("http://127.0.0.1:" + closed).token(ann).run("job", "list");
        assertThat(down.exit()).isEqualTo(Exit.ERROR);
        assertThat(down.err()).contains("cannot reach http://127.0.0.1:" + closed);
    }

    // ---- submit ----

    @Test
    void aDryRunShowsTheDecisionAndCreatesNothing() throws Exception {
        Path file = Files.createTempFile("job", ".yaml");
        Files.writeString(file, """
                name: dry
                kind: custom
                image: python:3.12
                command: [python, run.py]
                resources: {cpu: "3", memory: 1Gi}
                """);
        int before = jobCount();
        Cli.Run r = cli.run("job", "submit", "-f", file.toString(), "--dry-run");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).startsWith("Decision: QUEUE\n").contains("[AccountQuotaExceeded]");
        assertThat(r.err()).contains("Dry run: nothing was created");
        Cli.Run yaml = cli.run("job", "submit", "-f", file.toString(), "--dry-run", "-o", "yaml");
        assertThat(yaml.out()).contains("kind: \"Job\"").contains("schedulerName: \"volcano\"");
        assertThat(jobCount()).isEqualTo(before);
    }

    @Test
    void aSpecWithAnUnknownFieldIsRefusedWithItsLine() {
        int before = jobCount();
        Cli.Run r = cli.runWithInput(
                "name: typo\nkind: custom\nimage: python:3.12\ncomand: [python]\n", "job", "submit", "-f", "-");
        assertThat(r.exit()).isEqualTo(Exit.USAGE);
        assertThat(r.err()).contains("InvalidYaml").contains("comand").contains("line");
        assertThat(jobCount()).isEqualTo(before);
    }

    @Test
    void submitWaitsUntilTheJobRunsThenLogsAndEventsReadIt() {
        Cli.Run ok = bobCli().runWithInput(
                        "name: waited\nkind: custom\nimage: python:3.12\ncommand: [python, run.py]\n"
                                + "env: {SIM_DURATION: 4s}\nresources: {cpu: \"1\", memory: 1Gi}\n",
                        "job",
                        "submit",
                        "-f",
                        "-",
                        "--follow",
                        "--timeout",
                        "60s");
        assertThat(ok.exit()).as(ok.toString()).isZero();
        String id = ok.out().lines().findFirst().orElseThrow();
        assertThat(ok.out()).contains("step 1: running on");
        assertThat(ok.err()).contains(id + ": Queued");
        assertThat(Flows.state(bob, id)).isEqualTo("Succeeded");
        Cli.Run logs = bobCli().run("job", "logs", id, "--tail", "2");
        assertThat(logs.exit()).isZero();
        assertThat(logs.out().lines().count()).isEqualTo(2);
        Cli.Run events = bobCli().run("job", "events", id);
        assertThat(events.out()).contains("Submitted").contains("Running → Succeeded");
        Cli.Run waitDone = bobCli().run("job", "wait", id, "--for", "done");
        assertThat(waitDone.exit()).isZero();
    }

    @Test
    void waitGivesUpWithExit5AndLeavesTheJob() {
        Cli.Run r = cli.run("job", "wait", queued, "--timeout", "1s");
        assertThat(r.exit()).isEqualTo(Exit.TIMED_OUT);
        assertThat(r.err()).contains("job " + queued + " is still Queued after").contains("stopped waiting");
        assertThat(Flows.state(ann, queued)).isEqualTo("Queued");
    }

    // ---- why ----

    @Test
    void whyExplainsTheWaitInBothLanguagesAndAsJson() {
        Cli.Run en = gold.run("job", "why", goldQueued);
        assertThat(en.exit()).as(en.toString()).isZero();
        assertThat(en.out()).contains("[AccountQuotaExceeded]").contains("1. ").contains("[RequestGrant]");
        Golden.assertMatches("job-why.en.txt", table(en.out()));
        Cli.Run zh = gold.env("CRATER_LANG", "zh-CN").run("job", "why", goldQueued);
        gold.env("CRATER_LANG", null);
        Golden.assertMatches("job-why.zh-CN.txt", table(zh.out()));
        Cli.Run json = gold.run("job", "why", goldQueued, "-o", "json");
        assertThat(Values.text(json.json(), "reasons.0.code")).isEqualTo("AccountQuotaExceeded");
        assertThat(Values.text(json.json(), "position.inAccount")).isEqualTo("1");
        assertThat(Values.list(Values.at(json.json(), "estimate.waitsFor"))).contains(goldRunning);
    }

    @Test
    void whyApplyAsksForTheSuggestedGrantAfterConfirmation() {
        List<Object> suggestions = Values.list(
                Values.at(cli.run("job", "why", queued, "-o", "json").json(), "suggestions"));
        int n = 1
                + suggestions.stream().map(s -> Values.text(s, "code")).toList().indexOf("RequestGrant");
        assertThat(n).isPositive();
        Cli.Run refused = cli.run("job", "why", queued, "--apply", Integer.toString(n));
        assertThat(refused.exit()).isEqualTo(Exit.USAGE);
        assertThat(refused.err()).contains("add --yes to confirm");
        Cli.Run none = cli.run("job", "why", queued, "--apply", "99", "--yes");
        assertThat(none.exit()).isEqualTo(Exit.USAGE);
        assertThat(none.err()).contains("there is no suggestion 99");
        Cli.Run applied = cli.run("job", "why", queued, "--apply", Integer.toString(n), "--yes", "-o", "json");
        assertThat(applied.exit()).as(applied.toString()).isZero();
        Object approval = applied.json();
        assertThat(Values.text(approval, "kind")).isEqualTo("quota-grant");
        assertThat(Values.text(approval, "state")).isEqualTo("pending");
        String id = Values.text(approval, "id");
        List<Map<String, Object>> mine = as(ann).get("/api/v1/approvals?scope=mine&state=pending")
                .then()
                .statusCode(200)
                .extract()
                .path("items");
        assertThat(mine)
                .filteredOn(a -> id.equals(String.valueOf(a.get("id"))))
                .singleElement()
                .satisfies(a -> assertThat((String) a.get("reason")).contains("job " + queued));
    }

    // ---- stop, delete, resubmit, clone ----

    @Test
    void stopAsksFirstAndRefusesWithoutATerminalOrYes() {
        String id = Flows.submit(ann, ACCOUNT, spec("to-stop", "1", "30m"));
        Cli.Run refused = cli.run("job", "stop", id);
        assertThat(refused.exit()).isEqualTo(Exit.USAGE);
        assertThat(refused.err()).contains("Stop job " + id + "?").contains("add --yes to confirm");
        assertThat(Flows.state(ann, id)).isNotIn("Stopping", "Stopped");
        Cli.Run no = cli.interactive(true).runWithInput("n\n", "job", "stop", id);
        cli.interactive(false);
        assertThat(no.exit()).isEqualTo(Exit.ERROR);
        assertThat(no.err()).contains("cancelled: nothing was changed");
        Cli.Run yes = cli.run("job", "stop", id, "--yes");
        assertThat(yes.exit()).as(yes.toString()).isZero();
        assertThat(yes.out()).startsWith(id + ": Stop");
        org.awaitility.Awaitility.await()
                .atMost(java.time.Duration.ofSeconds(30))
                .until(() -> "Stopped".equals(Flows.state(ann, id)));
        Cli.Run deleted = cli.run("job", "delete", id, "--yes");
        assertThat(deleted.exit()).as(deleted.toString()).isZero();
        assertThat(deleted.out()).isEqualTo(id + ": deleted\n");
        assertThat(cli.run("job", "get", id).exit()).isEqualTo(Exit.NOT_FOUND);
        Cli.Run unfinished = cli.run("job", "delete", queued, "--yes");
        assertThat(unfinished.exit()).isEqualTo(Exit.ERROR);
        assertThat(unfinished.err()).contains(queued).contains("JobNotFinished");
    }

    @Test
    void resubmitAndCloneMakeLinkedCopies() {
        Cli.Run re = cli.run("job", "resubmit", queued, "--change", "resources.cpu=1", "-o", "json");
        assertThat(re.exit()).as(re.toString()).isZero();
        String copy = Values.text(re.json(), "id");
        assertThat(as(ann).get("/api/v1/jobs/" + copy).then().extract().<String>path("sourceJob"))
                .isEqualTo(queued);
        assertThat(as(ann).get("/api/v1/jobs/" + copy).then().extract().<String>path("job.requests.cpu"))
                .isEqualTo("1");
        cli.run("job", "stop", copy, "--yes");

        Cli.Run full = cli.run("job", "clone", running, "--set", "env.SIM_DURATION=5s", "--set", "resources.cpu=1");
        assertThat(full.exit()).as(full.toString()).isZero();
        String fullCopy = full.out().strip();
        var detail = as(ann).get("/api/v1/jobs/" + fullCopy).then().extract();
        assertThat(detail.<String>path("job.name")).isEqualTo("trainer (copy)");
        assertThat(detail.<String>path("spec.env.SIM_DURATION")).isEqualTo("5s");
        assertThat(detail.<String>path("sourceJob")).isEqualTo(running);

        Cli.Run t = cli.run(
                "job",
                "submit",
                "--template",
                "batch",
                "--set",
                "command=echo hi",
                "--set",
                "cpu=1",
                "--set",
                "memory=1Gi",
                "--name",
                "from-template");
        assertThat(t.exit()).as(t.toString()).isZero();
        String rendered = t.out().strip();
        Cli.Run tc = cli.run("job", "clone", rendered, "--set", "command=echo again", "--dry-run", "-o", "json");
        assertThat(tc.exit()).as(tc.toString()).isZero();
        assertThat(Values.text(tc.json(), "manifests")).contains("again");
        Cli.Run made = cli.run("job", "clone", rendered, "--set", "command=echo again");
        String templated = made.out().strip();
        var td = as(ann).get("/api/v1/jobs/" + templated).then().extract();
        assertThat(td.<String>path("spec.template.id")).isEqualTo("batch");
        assertThat(td.<String>path("spec.template.parameters.command")).isEqualTo("echo again");
        assertThat(td.<String>path("job.name")).isEqualTo("from-template (copy)");
        assertThat(td.<String>path("sourceJob")).isEqualTo(rendered);
    }

    // ---- ssh, port-forward, open ----

    @Test
    void sshBuildsTheGatewaysCommandAndRunsOpenSsh() throws Exception {
        Cli.Run printed = cli.run("job", "ssh", running, "--print", "--", "-i", "k", "nvidia-smi");
        assertThat(printed.exit()).as(printed.toString()).isZero();
        assertThat(printed.out()).matches("ssh -p \\d+ -i k cli-ann\\+" + running + "@localhost nvidia-smi\n");
        Cli.Run fwd = cli.run("job", "port-forward", running, "6006:7007", "--print");
        assertThat(fwd.out())
                .matches("ssh -N -o ExitOnForwardFailure=yes -L 6006:127.0.0.1:7007 -p \\d+ cli-ann\\+" + running
                        + "@localhost\n");
        Cli.Run noPod = cli.run("job", "ssh", running, "--pod", "worker-3", "--print");
        assertThat(noPod.exit()).isEqualTo(Exit.NOT_FOUND);
        assertThat(noPod.err()).contains("no running pod worker-3").contains("main-0");
        Cli.Run queuedOne = cli.run("job", "ssh", queued);
        assertThat(queuedOne.exit()).isEqualTo(Exit.ERROR);
        assertThat(queuedOne.err()).contains("is Queued, not running");

        Path dir = Files.createTempDirectory("cli-ssh");
        Path key = dir.resolve("ann");
        io.crater.interactive.OpenSsh.run(List.of("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key.toString()));
        as(ann).body(Map.of("name", "cli", "publicKey", Files.readString(dir.resolve("ann.pub"))))
                .post("/api/v1/me/ssh-keys")
                .then()
                .statusCode(201);
        Cli.Run real = cli.run(
                "job",
                "ssh",
                running,
                "--",
                "-i",
                key.toString(),
                "-o",
                "IdentitiesOnly=yes",
                "-o",
                "StrictHostKeyChecking=no",
                "-o",
                "UserKnownHostsFile=/dev/null",
                "-o",
                "BatchMode=yes",
                "-o",
                "LogLevel=ERROR",
                "echo",
                "hello-from-the-job");
        assertThat(real.exit()).as(real.toString()).isZero();
        assertThat(real.out()).isEqualTo("hello-from-the-job\n");
    }

    @Test
    void openRefusesAJobWithoutAnApp() {
        Cli.Run r = cli.run("job", "open", running, "--print");
        assertThat(r.exit()).isEqualTo(Exit.ERROR);
        assertThat(r.err()).contains("serves no web app of its own");
    }

    Cli bobCli() {
        return new Cli().server(base.toString()).token(bob).env("CRATER_ACCOUNT", "cli-other");
    }
}
