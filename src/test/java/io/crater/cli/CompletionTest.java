package io.crater.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/** The completion scripts: what they spell out, and what bash, zsh and fish complete with them. */
class CompletionTest {

    static Terminal quiet() {
        PrintStream sink = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        return new Terminal(sink, sink, java.io.InputStream.nullInputStream(), Map.of(), false, 0);
    }

    static CommandLine tree() {
        return CraterCli.full(quiet());
    }

    @Test
    void theScriptsSpellOutTheTreeAndLeaveHiddenVerbsOut() {
        String bash = Completion.script(tree(), "bash");
        assertThat(bash)
                .contains("complete -F _crater crater")
                .contains("'|account') echo account ;;")
                .contains("'account|list'|'account|ls') echo list ;;")
                .contains("*'|-o') printf '%s\\n' 'table' 'wide' 'json' 'yaml' 'name' 'jsonpath=' 'custom-columns='")
                .contains(
                        "'account use') if [ \"$2\" -ge 0 ] && [ \"$2\" -le 0 ]; then __crater_names accounts; return; fi")
                .contains("'context use') if [ \"$2\" -ge 0 ] && [ \"$2\" -le 0 ]; then __crater_contexts; return; fi")
                .contains(
                        "'completion') if [ \"$2\" -ge 0 ] && [ \"$2\" -le 0 ]; then printf '%s\\n' 'bash' 'zsh' 'fish'")
                .doesNotContain("'|__names'")
                .doesNotContain("'|__warmup'");
        assertThat(Completion.script(tree(), "zsh"))
                .startsWith("#compdef crater\n")
                .contains("compdef _crater crater");
        assertThat(Completion.script(tree(), "fish"))
                .contains("complete -c crater -f -a '(__crater_candidates)'")
                .contains("set -g __crater_core '");
    }

    @Test
    void anUnknownShellIsAUsageError() {
        Cli.Run r = new Cli().run("completion", "tcsh");
        assertThat(r.exit()).as(r.toString()).isEqualTo(Exit.USAGE);
        assertThat(r.err()).contains("no completion for shell 'tcsh': use bash, zsh or fish");
        Cli.Run ok = new Cli().run("completion", "bash");
        assertThat(ok.exit()).as(ok.toString()).isZero();
        assertThat(ok.out()).contains("complete -F _crater crater").contains("'|completion') echo completion ;;");
    }

    // What each shell completes, from scripts loaded the way a user loads them. The cache files and the
    // configuration file are written here, in a home of the test's own.

    @TempDir
    Path home;

    static Stream<Arguments> cases() {
        List<Object[]> table = List.of(
                new Object[] {"crater acc", List.of("account")},
                new Object[] {"crater jo", List.of("job")},
                new Object[] {"crater job stop ", List.of("j-30", "j-20", "j-10")},
                new Object[] {"crater account use ", List.of("team-a", "team-b")},
                new Object[] {"crater account use team-a ", List.of()},
                new Object[] {"crater --context ", List.of("lab", "prod")},
                new Object[] {"crater context use p", List.of("prod")},
                new Object[] {"crater account list -o js", List.of("json", "jsonpath=")},
                new Object[] {"crater -a team-a acc", List.of("account")},
                new Object[] {"crater completion ", List.of("bash", "zsh", "fish")},
                new Object[] {"crater account list --no-h", List.of("--no-headers")},
                new Object[] {"crater context add lab --s", List.of("--server")});
        List<Arguments> out = new ArrayList<>();
        for (String shell : Completion.SHELLS) {
            table.forEach(row -> out.add(Arguments.of(shell, row[0], row[1])));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("cases")
    void theShellCompletes(String shell, String line, List<String> expected) throws Exception {
        cache(NameCache.JOBS, "j-30", "j-20", "j-10");
        cache(NameCache.ACCOUNTS, "team-a", "team-b");
        Config config = Config.load(home.resolve("config/crater/config.yaml"));
        config.put(new Config.Context("lab", "http://127.0.0.1:8080", "ada", "t1", 1L, null));
        config.put(new Config.Context("prod", "https://crater.example.org", "ada", "t2", 2L, "team-a"));
        config.save();

        assertThat(complete(shell, line)).as(shell + ": " + line).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void aStaleCacheAnswersAtOnceAndIsRefreshedInTheBackground() throws Exception {
        Path cache = cache(NameCache.ACCOUNTS, "team-a", "team-b");
        Files.setLastModifiedTime(cache, FileTime.from(Instant.now().minus(Duration.ofMinutes(20))));
        Path called = home.resolve("called");
        Path bin = Files.createDirectories(home.resolve("bin"));
        Path fake = bin.resolve("crater");
        Files.writeString(fake, "#!/bin/sh\necho \"$@\" >> '" + called + "'\n");
        fake.toFile().setExecutable(true);

        assertThat(complete("bash", "crater account use ")).containsExactly("team-a", "team-b");
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(called));
        assertThat(Files.readString(called)).isEqualTo("__names accounts\n");
    }

    @Test
    void theFishScriptIsValidFish() throws Exception {
        Path script = home.resolve("crater.fish");
        Files.writeString(script, Completion.script(tree(), "fish"));
        Result r = exec(List.of("fish", "--no-execute", script.toString()));
        assertThat(r.exit()).as(r.err()).isZero();
    }

    private Path cache(String kind, String... names) throws IOException {
        Path dir = Files.createDirectories(home.resolve("cache/crater/names"));
        return Files.writeString(dir.resolve(kind), String.join("\n", names) + "\n");
    }

    /** The candidates the shell offers for the line (a trailing space: a new, empty word). */
    private List<String> complete(String shell, String line) throws Exception {
        List<String> words = new ArrayList<>(Arrays.asList(line.split(" ")));
        if (line.endsWith(" ")) {
            words.add("");
        }
        Path scripts = Files.createDirectories(home.resolve("scripts"));
        Path script = scripts.resolve(shell.equals("zsh") ? "_crater" : "crater." + shell);
        Files.writeString(script, Completion.script(tree(), shell));
        List<String> cmd = new ArrayList<>();
        switch (shell) {
            case "bash" -> cmd.addAll(List.of("bash", "--norc", "--noprofile", "-c", BASH, "bash", script.toString()));
            case "zsh" -> cmd.addAll(List.of("zsh", "-f", "-c", ZSH, "zsh", scripts.toString()));
            default -> cmd.addAll(List.of("fish", "--no-config", "-c", FISH, script.toString(), line));
        }
        if (!shell.equals("fish")) {
            cmd.addAll(words);
        }
        Result r = exec(cmd);
        assertThat(r.exit()).as(shell + " failed: " + r.err()).isZero();
        return r.out()
                .lines()
                .map(l -> l.split("\t")[0])
                .filter(l -> !l.isEmpty())
                .toList();
    }

    /** bash: the function `complete` registered for crater, called as bash calls it. */
    private static final String BASH = String.join(
            "\n",
            "source \"$1\"; shift",
            "[ \"$(complete -p crater)\" = 'complete -F _crater crater' ] || { echo 'crater is not registered' >&2; exit 3; }",
            "COMP_WORDS=(\"$@\"); COMP_CWORD=$(($# - 1)); COMPREPLY=()",
            "_crater",
            "printf '%s\\n' \"${COMPREPLY[@]}\"");

    /** zsh: compinit finds _crater in $fpath; compadd is replaced by one that prints what it is given. */
    private static final String ZSH = String.join(
            "\n",
            "fpath=(\"$1\" $fpath); shift",
            "autoload -Uz compinit && compinit -u -D",
            "[[ ${_comps[crater]} == _crater ]] || { print -u2 'crater is not registered'; exit 3 }",
            "compadd() {",
            "  while (( $# )) && [[ $1 != -- ]]; do [[ $1 == -[SPpqJVX] ]] && shift; shift; done; shift",
            "  local c; for c in \"$@\"; do [[ $c == ${words[CURRENT]}* ]] && print -r -- $c; done; return 0",
            "}",
            "_files() { print -r -- ::files }",
            "words=(\"$@\"); CURRENT=$#",
            "_crater");

    /** fish: its own completion of a command line. */
    private static final String FISH = "source $argv[1]; complete -C $argv[2]";

    record Result(int exit, String out, String err) {}

    private Result exec(List<String> cmd) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd);
        Map<String, String> env = pb.environment();
        env.clear();
        env.put("HOME", home.toString());
        env.put("XDG_CACHE_HOME", home.resolve("cache").toString());
        env.put("XDG_CONFIG_HOME", home.resolve("config").toString());
        env.put("PATH", home.resolve("bin") + ":/usr/local/bin:/usr/bin:/bin");
        env.put("LANG", "C.UTF-8");
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Path err = Files.createTempFile(home, "err", ".txt");
        pb.redirectError(err.toFile());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int exit = p.waitFor();
        return new Result(exit, out, Files.readString(err));
    }
}
