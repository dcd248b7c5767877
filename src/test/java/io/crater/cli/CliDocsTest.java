package io.crater.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/cli.md is what {@link CliDocs} writes from the command definitions. {@code make cli-docs} (this test with
 * {@code -Dcrater.docs.update=true}) rewrites it.
 */
class CliDocsTest {

    static final Path FILE = Path.of("docs/cli.md");

    @Test
    void docsCliMdIsCurrent() throws IOException {
        String generated = CliDocs.markdown(CraterCli.full(CompletionTest.quiet()));
        if (Boolean.getBoolean("crater.docs.update")) {
            Files.writeString(FILE, generated, StandardCharsets.UTF_8);
        }
        String current = Files.exists(FILE) ? Files.readString(FILE, StandardCharsets.UTF_8) : "";
        assertThat(current)
                .as("docs/cli.md is not what the command definitions give: run `make cli-docs` (mvn test"
                        + " -Dtest=CliDocsTest -Dcrater.docs.update=true) and review the diff")
                .isEqualTo(generated);
    }

    @Test
    void everyVisibleCommandHasItsSectionAndEveryParameterItsRow() {
        String md = CliDocs.markdown(CraterCli.full(CompletionTest.quiet()));
        assertThat(md)
                .contains("### crater account use\n\nAct in this account from now on (kept in the context).\n")
                .contains("```\ncrater account use [options] SLUG\n```")
                .contains("```\ncrater context add --server URL [options] NAME\n```")
                .contains("| `-u`, `--username USER` | Your username. |")
                .contains("| [`use`](#crater-account-use) |")
                .contains("| `-o`, `--output FORMAT` |")
                .contains("help text (`--help` and this page) is English")
                .doesNotContain("### crater __names")
                .doesNotContain("### crater __warmup");
    }
}
