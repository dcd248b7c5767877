package io.crater.cli;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Shell completion written from the command model: every verb, subcommand, option and fixed option value is
 * spelt out in the script, so completing never starts a JVM. Names that change (jobs, templates, datasets, models,
 * images, accounts) come from the {@link NameCache} files and contexts from the configuration file; a cache older than ten
 * minutes is refreshed by {@code crater __names KIND} in the background, and this completion answers from the
 * cache at once.
 *
 * <p>One POSIX shell core decides what to offer ({@code __crater_complete WORD... CURRENT} prints one candidate
 * per line, {@code ::files} for file names); bash and zsh define it directly, fish runs it with {@code sh}.
 */
public final class Completion {

    /** The shells a script is written for. */
    public static final List<String> SHELLS = List.of("bash", "zsh", "fish");

    /** What a positional parameter or option value completes, by its paramLabel. */
    static final Map<String, String> KINDS = Map.of(
            "JOB", "__crater_names jobs",
            // A dataset's or a model's: the family's own ids ("dataset get" completes datasets).
            "ASSET", "__crater_names \"${1%% *}s\"",
            "IMAGE", "__crater_names images",
            "TEMPLATE", "__crater_names templates",
            "ACCOUNT", "__crater_names accounts",
            "SLUG", "__crater_names accounts",
            "CONTEXT", "__crater_contexts",
            "FILE", "echo ::files",
            "DIR", "echo ::files");

    /** One command of the tree: its path (canonical names joined by spaces, "" for the root) and its spec. */
    record Node(String path, CommandSpec spec, Map<String, String> subcommands) {}

    private Completion() {}

    /** The script for one shell ({@link #SHELLS}); anything else is a usage error. */
    public static String script(CommandLine root, String shell) {
        String core = core(nodes(root));
        return switch (shell) {
            case "bash" -> CompletionShells.bash(core);
            case "zsh" -> CompletionShells.zsh(core);
            case "fish" -> CompletionShells.fish(core);
            default ->
                throw new CliException(Exit.USAGE, "no completion for shell '" + shell + "': use bash, zsh or fish");
        };
    }

    /** Every visible command, parents before children; each with its visible subcommands (word → name). */
    static List<Node> nodes(CommandLine root) {
        List<Node> out = new ArrayList<>();
        walk(root, "", out);
        return out;
    }

    private static void walk(CommandLine cl, String path, List<Node> out) {
        Map<String, String> subs = new LinkedHashMap<>();
        List<CommandLine> children = new ArrayList<>();
        cl.getSubcommands().forEach((word, sub) -> {
            if (sub.getCommandSpec().usageMessage().hidden()) {
                return;
            }
            subs.put(word, sub.getCommandName());
            if (word.equals(sub.getCommandName())) {
                children.add(sub);
            }
        });
        out.add(new Node(path, cl.getCommandSpec(), subs));
        for (CommandLine child : children) {
            walk(child, path.isEmpty() ? child.getCommandName() : path + " " + child.getCommandName(), out);
        }
    }

    /** The shell code that prints an argument's candidates, or null when it has none to offer. */
    static String values(ArgSpec arg) {
        Iterable<String> fixed = arg.completionCandidates();
        if (fixed != null && fixed.iterator().hasNext()) {
            List<String> words = new ArrayList<>();
            fixed.forEach(words::add);
            return "printf '%s\\n' "
                    + String.join(" ", words.stream().map(Completion::quote).toList());
        }
        String label = arg.paramLabel().replaceAll("[<>\\[\\].]", "");
        if (KINDS.containsKey(label)) {
            return KINDS.get(label);
        }
        Class<?> type = arg.type();
        return type == File.class || type == Path.class ? "echo ::files" : null;
    }

    /** The core: the tree as case statements, the walk over the words, and the name and context readers. */
    static String core(List<Node> nodes) {
        StringBuilder sb = new StringBuilder();
        sb.append(caseFunction("__crater_sub", "\"$1|$2\"", subcommandCases(nodes)));
        sb.append(caseFunction("__crater_subs", "\"$1\"", listCases(nodes, n -> distinct(n.subcommands()))));
        sb.append(caseFunction("__crater_own", "\"$1\"", listCases(nodes, n -> optionNames(n.spec(), false))));
        sb.append(caseFunction("__crater_inh", "\"$1\"", listCases(nodes, n -> optionNames(n.spec(), true))));
        Map<String, String> valued = new LinkedHashMap<>();
        Map<String, String> optionValues = new LinkedHashMap<>();
        optionCases(nodes, valued, optionValues);
        sb.append(caseFunction("__crater_valued", "\"$1|$2\"", valued, "  return 1\n"));
        sb.append(caseFunction("__crater_optvalues", "\"$1|$2\"", optionValues));
        sb.append(positionalFunction(nodes));
        sb.append(CompletionShells.resource("core.sh"));
        return sb.toString();
    }

    private static Map<String, String> subcommandCases(List<Node> nodes) {
        Map<String, String> cases = new LinkedHashMap<>();
        for (Node n : nodes) {
            Map<String, List<String>> byName = new LinkedHashMap<>();
            n.subcommands()
                    .forEach((word, name) ->
                            byName.computeIfAbsent(name, k -> new ArrayList<>()).add(quote(n.path() + "|" + word)));
            byName.forEach((name, patterns) -> cases.put(String.join("|", patterns), "echo " + name));
        }
        return cases;
    }

    private static Map<String, String> listCases(List<Node> nodes, java.util.function.Function<Node, List<String>> f) {
        Map<String, String> cases = new LinkedHashMap<>();
        for (Node n : nodes) {
            List<String> words = f.apply(n);
            if (!words.isEmpty()) {
                cases.put(
                        quote(n.path()),
                        "printf '%s\\n' "
                                + String.join(
                                        " ",
                                        words.stream().map(Completion::quote).toList()));
            }
        }
        return cases;
    }

    private static List<String> distinct(Map<String, String> subcommands) {
        return subcommands.values().stream().distinct().toList();
    }

    /**
     * The options a command declares itself (inheritable=false: those only it has; true: those its
     * subcommands inherit). Copies inherited from a parent are left to the parent's entry.
     */
    static List<String> optionNames(CommandSpec spec, boolean inheritable) {
        List<String> names = new ArrayList<>();
        for (OptionSpec o : spec.options()) {
            if (o.hidden() || o.inherited() || (o.scopeType() == CommandLine.ScopeType.INHERIT) != inheritable) {
                continue;
            }
            names.addAll(List.of(o.names()));
        }
        return names;
    }

    /**
     * Which options take a value and what it completes. An option spelt the same with the same meaning
     * everywhere gets one pattern for every command ({@code *|-o}); one whose meaning differs gets one per
     * command.
     */
    private static final String FLAG = "flag";

    private static void optionCases(List<Node> nodes, Map<String, String> valued, Map<String, String> optionValues) {
        Map<String, Map<String, String>> byName = new TreeMap<>();
        for (Node n : nodes) {
            for (OptionSpec o : n.spec().options()) {
                String code = o.arity().min() < 1 ? FLAG : values(o);
                for (String name : o.names()) {
                    byName.computeIfAbsent(name, k -> new LinkedHashMap<>()).put(n.path(), code == null ? "" : code);
                }
            }
        }
        byName.forEach((name, perPath) -> {
            Set<String> codes = Set.copyOf(perPath.values());
            if (codes.size() == 1) {
                String code = codes.iterator().next();
                if (!code.equals(FLAG)) {
                    valued.put("*" + quote("|" + name), "return 0");
                }
                if (!code.isEmpty() && !code.equals(FLAG)) {
                    optionValues.put("*" + quote("|" + name), code);
                }
                return;
            }
            perPath.forEach((path, code) -> {
                if (code.equals(FLAG)) {
                    return;
                }
                valued.put(quote(path + "|" + name), "return 0");
                if (!code.isEmpty()) {
                    optionValues.put(quote(path + "|" + name), code);
                }
            });
        });
    }

    /** {@code __crater_pos PATH N}: the candidates of the N-th positional word (from 0) of a command. */
    private static String positionalFunction(List<Node> nodes) {
        Map<String, String> cases = new LinkedHashMap<>();
        for (Node n : nodes) {
            StringBuilder body = new StringBuilder();
            for (PositionalParamSpec p : n.spec().positionalParameters()) {
                String code = values(p);
                if (code == null || p.hidden()) {
                    continue;
                }
                CommandLine.Range r = p.index();
                body.append("if [ \"$2\" -ge ").append(r.min()).append(" ]");
                if (r.max() != Integer.MAX_VALUE) {
                    body.append(" && [ \"$2\" -le ").append(r.max()).append(" ]");
                }
                body.append("; then ").append(code).append("; return; fi; ");
            }
            if (!body.isEmpty()) {
                cases.put(quote(n.path()), body.toString().strip().replaceAll(";$", ""));
            }
        }
        return caseFunction("__crater_pos", "\"$1\"", cases);
    }

    private static String caseFunction(String name, String subject, Map<String, String> cases) {
        return caseFunction(name, subject, cases, "");
    }

    private static String caseFunction(String name, String subject, Map<String, String> cases, String after) {
        StringBuilder sb =
                new StringBuilder(name).append("() {\n  case ").append(subject).append(" in\n");
        cases.forEach((pattern, body) ->
                sb.append("    ").append(pattern).append(") ").append(body).append(" ;;\n"));
        return sb.append("  esac\n").append(after).append("}\n").toString();
    }

    /** A word in single quotes for the shell. */
    static String quote(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }
}
