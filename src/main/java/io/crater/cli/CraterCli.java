package io.crater.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * {@code crater}, the command-line client. Every verb is a call of the public HTTP API; nothing here boots
 * Quarkus or reaches the cluster. Its class path is this package, picocli, Jackson and SnakeYAML.
 */
@Command(
        name = "crater",
        mixinStandardHelpOptions = true,
        scope = ScopeType.INHERIT,
        versionProvider = Version.class,
        sortOptions = false,
        usageHelpAutoWidth = true,
        description = "Crater's command-line client: jobs, templates, quotas, approvals and administration.",
        footer = {
            "",
            "Exit codes: 0 ok, 1 error, 2 usage, 3 not found, 4 denied, 5 timed out waiting.",
            "Environment: CRATER_SERVER, CRATER_TOKEN, CRATER_ACCOUNT override the context; CRATER_CONFIG the"
                    + " file; NO_COLOR; CRATER_LANG=zh-CN or en."
        },
        subcommands = {CommandLine.HelpCommand.class})
public final class CraterCli implements Runnable {

    @Option(
            names = {"-o", "--output"},
            scope = ScopeType.INHERIT,
            paramLabel = "FORMAT",
            completionCandidates = Output.Formats.class,
            description = "table (default), wide, json, yaml, name, jsonpath=TEMPLATE, custom-columns=HEADER:.path,...")
    String output;

    @Option(names = "--no-headers", scope = ScopeType.INHERIT, description = "Tables without their header line.")
    boolean noHeaders;

    @Option(names = "--no-color", scope = ScopeType.INHERIT, description = "No colours (also: NO_COLOR).")
    boolean noColor;

    @Option(
            names = {"-a", "--account"},
            scope = ScopeType.INHERIT,
            paramLabel = "SLUG",
            description = "The account to act in (X-Crater-Account); default: the context's.")
    String account;

    @Option(
            names = "--context",
            scope = ScopeType.INHERIT,
            paramLabel = "CONTEXT",
            description = "The context (server) to use; default: the current one.")
    String context;

    @Option(
            names = {"-y", "--yes"},
            scope = ScopeType.INHERIT,
            description = "Answer yes to confirmations (for scripts).")
    boolean yes;

    private final Terminal terminal;
    private Messages messages;
    private Config config;
    private Output out;

    CraterCli(Terminal terminal) {
        this.terminal = terminal;
    }

    public static void main(String... args) {
        System.exit(run(Terminal.system(), args));
    }

    /** Runs one command line and returns its exit code (the process's, in {@link #main}). */
    public static int run(Terminal terminal, String... args) {
        CraterCli root = new CraterCli(terminal);
        CommandLine cl = commandLine(root, args);
        cl.setOut(new PrintWriter(terminal.out(), true));
        cl.setErr(new PrintWriter(terminal.err(), true));
        cl.setUsageHelpLongOptionsMaxWidth(28);
        cl.setParameterExceptionHandler((e, argv) -> {
            CommandLine c = e.getCommandLine();
            terminal.err().println("crater: " + e.getMessage());
            terminal.err()
                    .println(root.messages()
                            .get("error.seeHelp", c.getCommandSpec().qualifiedName()));
            return Exit.USAGE;
        });
        cl.setExecutionExceptionHandler((e, c, parsed) -> {
            if (e instanceof CliException ce) {
                terminal.err().println(root.messages().get("error.prefix") + ce.getMessage());
                return ce.exitCode();
            }
            terminal.err().println("crater: unexpected error: " + e);
            return Exit.ERROR;
        });
        return cl.execute(args);
    }

    /**
     * The command line with only the commands the arguments name (picocli reads every registered class's
     * annotations when it is built, which would cost every run the whole tree): for {@code crater job list} the
     * root, a bare {@code job} holding only {@code list}, and {@code list}. Help, completion and the docs get all.
     */
    static CommandLine commandLine(CraterCli root, String... args) {
        CommandLine cl = new CommandLine(root);
        java.util.List<String> words = leadingWords(args);
        Map<String, Supplier<Object>> verbs = Commands.all();
        if (words.isEmpty() && args.length > 0 && java.util.Arrays.stream(args).allMatch(VERSION::contains)) {
            return cl;
        }
        if (!words.isEmpty() && verbs.containsKey(words.get(0))) {
            cl.addSubcommand(words.get(0), lean(verbs.get(words.get(0)).get(), words.subList(1, words.size())));
        } else {
            verbs.forEach((name, make) -> cl.addSubcommand(name, make.get()));
        }
        return cl;
    }

    /** A command holding only the subcommand the next word names (recursively); the whole command otherwise. */
    static CommandLine lean(Object command, java.util.List<String> rest) {
        Command ann = command.getClass().getAnnotation(Command.class);
        if (ann == null || rest.isEmpty() || ann.subcommands().length == 0) {
            return new CommandLine(command);
        }
        for (Class<?> sub : ann.subcommands()) {
            Command s = sub.getAnnotation(Command.class);
            if (s != null
                    && (s.name().equals(rest.get(0))
                            || java.util.Arrays.asList(s.aliases()).contains(rest.get(0)))) {
                CommandLine shell = new CommandLine(CommandLine.Model.CommandSpec.wrapWithoutInspection(command));
                Object leaf;
                try {
                    leaf = CommandLine.defaultFactory().create(sub);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                shell.addSubcommand(s.name(), lean(leaf, rest.subList(1, rest.size())), s.aliases());
                return shell;
            }
        }
        return new CommandLine(command);
    }

    /** The words before the first option, skipping the values of the root's options that take one. */
    static java.util.List<String> leadingWords(String... args) {
        java.util.List<String> words = new java.util.ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (VALUED.contains(a)) {
                i++;
            } else if (a.startsWith("-")) {
                if (!words.isEmpty()) {
                    break;
                }
            } else {
                words.add(a);
            }
        }
        return words;
    }

    /** The first argument that is not an option or an option's value: the verb. */
    static String firstWord(String... args) {
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (VALUED.contains(a)) {
                i++;
            } else if (!a.startsWith("-")) {
                return a;
            }
        }
        return null;
    }

    private static final Set<String> VERSION = Set.of("-V", "--version");

    private static final Set<String> VALUED = Set.of("-o", "--output", "-a", "--account", "--context");

    /** The whole tree (docs, completion). */
    public static CommandLine full(Terminal terminal) {
        return commandLine(new CraterCli(terminal));
    }

    @Override
    public void run() {
        CommandLine.usage(this, terminal.out());
    }

    Terminal terminal() {
        return terminal;
    }

    Messages messages() {
        if (messages == null) {
            messages = new Messages(terminal.locale());
        }
        return messages;
    }

    Config config() {
        if (config == null) {
            config = Config.load(Config.defaultFile(terminal));
        }
        return config;
    }

    Output output() {
        if (out == null) {
            out = Output.parse(output, noHeaders, terminal.colours(noColor), terminal.out());
        }
        return out;
    }

    boolean yes() {
        return yes;
    }

    /** The chosen context, or null when none is configured (CRATER_SERVER alone still works). */
    Config.Context chosenContext() {
        Config.Context ctx = config().context(context);
        if (context != null && ctx == null) {
            throw new CliException(Exit.NOT_FOUND, messages().get("context.none", context));
        }
        return ctx;
    }

    /** The API to call: CRATER_SERVER/CRATER_TOKEN/CRATER_ACCOUNT over the chosen context. */
    Api api(boolean signedIn) {
        Config.Context ctx = chosenContext();
        String server = terminal.env("CRATER_SERVER") != null
                ? terminal.env("CRATER_SERVER")
                : ctx == null ? null : ctx.server();
        if (server == null) {
            throw new CliException(Exit.DENIED, messages().get("error.noServer"));
        }
        String token =
                terminal.env("CRATER_TOKEN") != null ? terminal.env("CRATER_TOKEN") : ctx == null ? null : ctx.token();
        if (signedIn && token == null) {
            throw new CliException(Exit.DENIED, messages().get("error.signIn"));
        }
        String acct = account != null
                ? account
                : terminal.env("CRATER_ACCOUNT") != null
                        ? terminal.env("CRATER_ACCOUNT")
                        : ctx == null ? null : ctx.account();
        return new Api(server, token, acct, new Problems(messages()));
    }

    Path configFile() {
        return config().file();
    }
}
