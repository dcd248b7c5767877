package io.crater.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The agent skills under skills/: well formed, every command parses with the client, installed as promised. */
class SkillsTest {

    static final Path DIR = Path.of("skills");

    @TempDir
    Path tmp;

    @Test
    void everySkillIsWellFormedAndEveryCrateLineParses() {
        List<Skills.Skill> skills = Skills.in(DIR);
        assertThat(skills)
                .extracting(Skills.Skill::folder)
                .contains(
                        "submit-job",
                        "debug-pending-job",
                        "debug-failed-job",
                        "connect-to-job",
                        "manage-quota",
                        "review-approvals",
                        "cluster-capacity");
        List<Skills.Problem> problems = skills.stream()
                .flatMap(s -> Skills.check(s, () -> CraterCli.full(CompletionTest.quiet())).stream())
                .toList();
        assertThat(problems)
                .as("skills that do not match the client:\n"
                        + problems.stream().map(Skills.Problem::toString).collect(Collectors.joining("\n")))
                .isEmpty();
    }

    @Test
    void theClientBundlesTheRepositorysSkills() {
        assertThat(Skills.bundled())
                .extracting(Skills.Skill::folder, Skills.Skill::text)
                .containsExactlyElementsOf(Skills.in(DIR).stream()
                        .map(s -> org.assertj.core.groups.Tuple.tuple(s.folder(), s.text()))
                        .toList());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiterString = " ~ ",
            quoteCharacter = '"',
            value = {
                "bad-name ~ Bad_Name ~ crater account list -o json ~ name 'Bad_Name' is not 1-64 of [a-z0-9-]",
                "a--b ~ a--b ~ crater account list -o json ~ name 'a--b' is not 1-64",
                "-lead ~ -lead ~ crater account list -o json ~ name '-lead' is not 1-64",
                "other ~ mine ~ crater account list -o json ~ name 'mine' differs from its folder",
                "typo ~ typo ~ crater account lst -o json ~ line 6: `crater account lst -o json`: Unmatched argument",
                "group ~ group ~ crater account -o json ~ 'crater account' is a group",
                "missing ~ missing ~ crater account use ~ Missing required parameter: 'SLUG'",
                "piped ~ piped ~ crater account list | jq . ~ no shell operator '|'",
                "flag ~ flag ~ crater account list --jsn ~ Unknown option: '--jsn'",
            })
    void theCheckNamesTheSkillTheLineAndTheError(String folder, String name, String line, String expected) {
        String text = "---\nname: " + name + "\ndescription: Does a thing. Use when testing.\n---\n```bash\n" + line
                + "\n```\n";
        List<Skills.Problem> problems =
                Skills.check(Skills.parse(folder, text), () -> CraterCli.full(CompletionTest.quiet()));
        assertThat(problems)
                .extracting(Skills.Problem::toString)
                .anySatisfy(p -> assertThat(p).startsWith(folder).contains(expected));
    }

    @Test
    void placeholdersQuotesAndAGoodSkillPass() {
        String text = "---\nname: ok\ndescription: Does a thing. Use when testing.\n---\n```bash\n"
                + "crater account use <account>\n"
                + "crater account list -o 'jsonpath={.items[*].slug}'\n```\n"
                + "```text\ncrater not checked here\n```\n";
        assertThat(Skills.check(Skills.parse("ok", text), () -> CraterCli.full(CompletionTest.quiet())))
                .isEmpty();
        String longer = "---\nname: long\ndescription: " + "x".repeat(1025) + "\n---\n";
        assertThat(Skills.check(Skills.parse("long", longer), () -> CraterCli.full(CompletionTest.quiet())))
                .extracting(Skills.Problem::toString)
                .contains(
                        "long: description has 1025 characters (1-1024)", "long: no crater command in a ```bash block");
        assertThat(Skills.check(
                        Skills.parse("bare", "# no front matter\n"), () -> CraterCli.full(CompletionTest.quiet())))
                .extracting(Skills.Problem::toString)
                .containsExactly("bare: no front matter with name and description");
    }

    @Test
    void installCopiesEachSkillAndKeepsChangedOnesUnlessOverwrite() throws IOException {
        Cli cli = new Cli();
        Path target = tmp.resolve("agent-skills");
        Cli.Run first = cli.run("skills", "install", target.toString(), "-o", "json");
        assertThat(first.exit()).as(first.toString()).isZero();
        List<Skills.Skill> skills = Skills.in(DIR);
        assertThat(items(first))
                .hasSize(skills.size())
                .allSatisfy(i -> assertThat(i.get("result")).isEqualTo("installed"));
        for (Skills.Skill s : skills) {
            assertThat(target.resolve(s.folder()).resolve("SKILL.md")).hasContent(s.text());
        }

        Path edited = target.resolve("submit-job/SKILL.md");
        Files.writeString(edited, "my own notes\n", StandardCharsets.UTF_8);
        Cli.Run again = cli.run("skills", "install", target.toString());
        assertThat(again.exit()).as(again.toString()).isZero();
        assertThat(again.out()).containsPattern("submit-job\\s+kept").containsPattern("debug-failed-job\\s+unchanged");
        assertThat(again.err()).contains("1 skill(s) kept as they are").contains("--overwrite");
        assertThat(edited).hasContent("my own notes");

        Cli.Run forced = cli.run("skills", "install", target.toString(), "--overwrite", "-o", "json");
        assertThat(items(forced))
                .filteredOn(i -> i.get("name").equals("submit-job"))
                .singleElement()
                .satisfies(i -> assertThat(i.get("result")).isEqualTo("replaced"));
        assertThat(Files.readString(edited)).startsWith("---\nname: submit-job\n");
    }

    @Test
    void installGoesToTheDataHomeByDefaultAndListShowsTheSkills() {
        Cli cli = new Cli().env("XDG_DATA_HOME", tmp.resolve("data").toString());
        Cli.Run r = cli.run("skills", "install");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(tmp.resolve("data/crater/skills/review-approvals/SKILL.md")).exists();
        Cli.Run list = cli.run("skills", "list", "-o", "name");
        assertThat(list.out().lines().toList())
                .containsExactlyElementsOf(
                        Skills.in(DIR).stream().map(Skills.Skill::name).toList());
    }

    @Test
    void checkOfAFolderExitsOneAndPrintsEachProblem() throws IOException {
        Path bad = Files.createDirectories(tmp.resolve("mine/oops"));
        Files.writeString(bad.resolve("SKILL.md"), "---\nname: oops\ndescription: x\n---\n```bash\ncrater jobz\n```\n");
        Cli.Run r = new Cli().run("skills", "check", tmp.resolve("mine").toString());
        assertThat(r.exit()).isEqualTo(Exit.ERROR);
        assertThat(r.out()).contains("oops/SKILL.md line 6: `crater jobz`: Unmatched argument");
        assertThat(r.err()).contains("1 problem(s) in 1 skill(s).");
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> items(Cli.Run r) {
        return (List<Map<String, Object>>) ((Map<String, Object>) r.json()).get("items");
    }
}
