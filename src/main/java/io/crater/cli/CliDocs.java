package io.crater.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * docs/cli.md, written from the command definitions: the fixed sections (resources under io/crater/cli/docs),
 * the global options, then every visible command with its synopsis, description, parameters and options.
 * Pure: the same tree gives the same text.
 */
public final class CliDocs {

    /** The fixed sections, in the page's order. */
    static final List<String> SECTIONS = List.of(
            "01-intro.md",
            "02-install.md",
            "03-configuration.md",
            "04-environment.md",
            "05-output.md",
            "06-exit-codes.md",
            "07-languages.md",
            "08-completion.md",
            "09-skills.md");

    private CliDocs() {}

    public static String markdown(CommandLine root) {
        StringBuilder sb = new StringBuilder();
        for (String section : SECTIONS) {
            sb.append(resource(section).strip()).append("\n\n");
        }
        sb.append("## Global options\n\n");
        sb.append("Every command takes these (they may stand before or after the verb).\n\n");
        sb.append(options(root.getCommandSpec().options().stream()
                .filter(o -> o.scopeType() == CommandLine.ScopeType.INHERIT)
                .toList()));
        sb.append("## Commands\n\n");
        for (Completion.Node node : Completion.nodes(root)) {
            if (!node.path().isEmpty()) {
                sb.append(command(node));
            }
        }
        return sb.toString().stripTrailing() + "\n";
    }

    private static String command(Completion.Node node) {
        CommandSpec spec = node.spec();
        StringBuilder sb = new StringBuilder("### crater ").append(node.path()).append("\n\n");
        for (String line : spec.usageMessage().description()) {
            sb.append(clean(line)).append('\n');
        }
        sb.append("\n```\n").append(synopsis(node)).append("\n```\n\n");
        String[] aliases = spec.aliases();
        if (aliases.length > 0) {
            sb.append("Also: ")
                    .append(String.join(
                            ", ",
                            List.of(aliases).stream().map(a -> "`" + a + "`").toList()))
                    .append(".\n\n");
        }
        if (!node.subcommands().isEmpty()) {
            sb.append("| Command | Description |\n|---|---|\n");
            node.subcommands().values().stream().distinct().forEach(name -> {
                CommandSpec sub = spec.subcommands().get(name).getCommandSpec();
                String[] d = sub.usageMessage().description();
                sb.append("| [`")
                        .append(name)
                        .append("`](#")
                        .append(anchor(node.path() + " " + name))
                        .append(") | ")
                        .append(cell(d.length == 0 ? "" : clean(d[0])))
                        .append(" |\n");
            });
            sb.append('\n');
        }
        List<PositionalParamSpec> params =
                spec.positionalParameters().stream().filter(p -> !p.hidden()).toList();
        if (!params.isEmpty()) {
            sb.append("| Parameter | Description |\n|---|---|\n");
            for (PositionalParamSpec p : params) {
                sb.append("| `")
                        .append(label(p))
                        .append("` | ")
                        .append(cell(describe(p)))
                        .append(" |\n");
            }
            sb.append('\n');
        }
        List<OptionSpec> own =
                spec.options().stream().filter(o -> !o.inherited()).toList();
        sb.append(options(own));
        return sb.toString();
    }

    /** {@code crater job stop [options] JOB...}: the command, options if it has any, its parameters. */
    static String synopsis(Completion.Node node) {
        List<String> words = new ArrayList<>(List.of("crater", node.path()));
        CommandSpec spec = node.spec();
        for (OptionSpec o : spec.options()) {
            if (o.required() && !o.hidden()) {
                words.add(o.longestName() + (o.arity().max() > 0 ? " " + o.paramLabel() : ""));
            }
        }
        if (spec.options().stream().anyMatch(o -> !o.required() && !o.hidden())) {
            words.add("[options]");
        }
        if (!node.subcommands().isEmpty()) {
            words.add("COMMAND");
        }
        for (PositionalParamSpec p : spec.positionalParameters()) {
            if (!p.hidden()) {
                String l = label(p);
                words.add(p.arity().min() == 0 ? "[" + l + "]" : l);
            }
        }
        return String.join(" ", words);
    }

    private static String options(List<OptionSpec> options) {
        List<OptionSpec> visible = options.stream().filter(o -> !o.hidden()).toList();
        if (visible.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder("| Option | Description |\n|---|---|\n");
        for (OptionSpec o : visible) {
            List<String> names = new ArrayList<>();
            for (String n : o.names()) {
                names.add(
                        "`" + n + (o.arity().max() > 0 && n.equals(o.longestName()) ? " " + o.paramLabel() : "") + "`");
            }
            sb.append("| ")
                    .append(String.join(", ", names))
                    .append(" | ")
                    .append(cell(describe(o)))
                    .append(" |\n");
        }
        return sb.append('\n').toString();
    }

    private static String describe(ArgSpec arg) {
        String text = String.join(
                        " ",
                        List.of(arg.description()).stream().map(CliDocs::clean).toList())
                .replace("${DEFAULT-VALUE}", arg.defaultValue() == null ? "none" : arg.defaultValue());
        if (arg.completionCandidates() != null) {
            List<String> words = new ArrayList<>();
            arg.completionCandidates().forEach(words::add);
            text = text.replace("${COMPLETION-CANDIDATES}", String.join(", ", words));
        }
        if (arg.required() && arg instanceof OptionSpec) {
            text = text + " Required.";
        }
        if (arg.defaultValue() != null && !text.contains("default")) {
            text = text + " Default: `" + arg.defaultValue() + "`.";
        }
        return text.strip();
    }

    private static String label(PositionalParamSpec p) {
        return p.paramLabel() + (p.arity().max() > 1 ? "..." : "");
    }

    /** Picocli's own variables and markup, as plain text. */
    private static String clean(String line) {
        return line.replace("%n", " ").replace("<", "\\<").strip();
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }

    /** GitHub's heading anchor: lower case, spaces to hyphens, other punctuation dropped. */
    static String anchor(String path) {
        return ("crater " + path)
                .toLowerCase(java.util.Locale.ROOT)
                .replaceAll("[^a-z0-9 _-]", "")
                .replace(' ', '-');
    }

    private static String resource(String name) {
        try (InputStream in = CliDocs.class.getResourceAsStream("docs/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource io/crater/cli/docs/" + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
