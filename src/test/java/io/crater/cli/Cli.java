package io.crater.cli;

import io.crater.TestDirs;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Runs the client in-process, as a user would from a shell: its own configuration directory, an environment,
 * standard input, and the exit code with what it printed. Tests point it at the test server with
 * {@link #server(String)} and sign in with {@link #token(String)} (or through {@code crater login}).
 */
public final class Cli {

    /** What one command line did. */
    public record Run(int exit, String out, String err) {

        /** Parsed standard output ({@code -o json}). */
        public Object json() {
            try {
                return Json.parse(out);
            } catch (java.io.IOException e) {
                throw new AssertionError("not JSON: " + out + "\nstderr: " + err, e);
            }
        }

        @Override
        public String toString() {
            return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    private final Map<String, String> env = new HashMap<>();
    private final Path home;
    private boolean interactive;

    public Cli() {
        home = TestDirs.create("crater-cli-test");
        env.put("HOME", home.toString());
        env.put("XDG_CONFIG_HOME", home.resolve(".config").toString());
        env.put("XDG_CACHE_HOME", home.resolve(".cache").toString());
        env.put("LANG", "en_US.UTF-8");
    }

    /** CRATER_SERVER for every later run (the test server's URL, without a trailing slash). */
    public Cli server(String url) {
        env.put("CRATER_SERVER", url.replaceAll("/+$", ""));
        return this;
    }

    /** CRATER_TOKEN for every later run. */
    public Cli token(String token) {
        env.put("CRATER_TOKEN", token);
        return this;
    }

    public Cli env(String name, String value) {
        if (value == null) {
            env.remove(name);
        } else {
            env.put(name, value);
        }
        return this;
    }

    /** Whether the fake terminal is a person's (colours, prompts); false by default, like a pipe. */
    public Cli interactive(boolean tty) {
        this.interactive = tty;
        return this;
    }

    public Path home() {
        return home;
    }

    public Run run(String... args) {
        return runWithInput("", args);
    }

    public Run runWithInput(String stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Terminal t = new Terminal(
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                Map.copyOf(env),
                interactive,
                0);
        int exit = CraterCli.run(t, args);
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** A command line running on its own thread, whose standard error can be read while it runs. */
    public static final class Running {
        private final ByteArrayOutputStream err;
        private final java.util.concurrent.CompletableFuture<Run> done;

        Running(ByteArrayOutputStream err, java.util.concurrent.CompletableFuture<Run> done) {
            this.err = err;
            this.done = done;
        }

        /** What it has printed on standard error so far. */
        public String errSoFar() {
            return err.toString(StandardCharsets.UTF_8);
        }

        /** Waits for it to end. */
        public Run await(java.time.Duration timeout) throws Exception {
            return done.get(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        }
    }

    /** Starts a command line on its own thread (for verbs that wait on something the test does meanwhile). */
    public Running start(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Terminal t = new Terminal(
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                new ByteArrayInputStream(new byte[0]),
                Map.copyOf(env),
                interactive,
                0);
        var done = new java.util.concurrent.CompletableFuture<Run>();
        Thread thread = new Thread(
                () -> {
                    try {
                        int exit = CraterCli.run(t, args);
                        done.complete(new Run(
                                exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)));
                    } catch (Throwable e) {
                        done.completeExceptionally(e);
                    }
                },
                "crater-cli-test");
        thread.setDaemon(true);
        thread.start();
        return new Running(err, done);
    }
}
