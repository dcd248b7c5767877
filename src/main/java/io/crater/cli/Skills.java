package io.crater.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import picocli.CommandLine;

/**
 * Agent skills ({@code skills/<name>/SKILL.md}, bundled in the client under io/crater/cli/skills): their front
 * matter, and a check that each is well formed and that every {@code crater …} line of its bash blocks parses
 * with this client's commands.
 */
public final class Skills {

    /** One skill: its folder name, its front matter's name and description, and its text. */
    public record Skill(String folder, String name, String description, String text) {}

    /** Something wrong in a skill: where (line 0 for the skill as a whole) and what. */
    public record Problem(String skill, int line, String text, String message) {
        @Override
        public String toString() {
            return line == 0
                    ? skill + ": " + message
                    : skill + "/SKILL.md line " + line + ": `" + text + "`: " + message;
        }
    }

    static final Pattern NAME = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*");
    private static final String RESOURCES = "io/crater/cli/skills/";
    private static final Pattern ENTRY = Pattern.compile(Pattern.quote(RESOURCES) + "([^/]+)/SKILL\\.md");
    private static final Pattern PLACEHOLDER = Pattern.compile("<[^<>\\s]+>");

    private Skills() {}

    /** Reads a SKILL.md; a text without front matter gets null name and description (and a problem). */
    public static Skill parse(String folder, String text) {
        String name = null;
        String description = null;
        if (text.startsWith("---\n")) {
            int end = text.indexOf("\n---\n", 4);
            if (end > 0) {
                Object yaml;
                try {
                    yaml = new Yaml(new SafeConstructor(new LoaderOptions())).load(text.substring(4, end));
                } catch (RuntimeException e) {
                    yaml = null;
                }
                name = Values.str(Values.map(yaml).get("name"));
                description = Values.str(Values.map(yaml).get("description"));
            }
        }
        return new Skill(folder, name, description, text);
    }

    /** Every problem of a skill: its front matter, and each command line against the tree {@code commands} makes. */
    public static List<Problem> check(Skill s, Supplier<CommandLine> commands) {
        List<Problem> problems = new ArrayList<>();
        if (s.name() == null || s.description() == null) {
            problems.add(new Problem(s.folder(), 0, "", "no front matter with name and description"));
            return problems;
        }
        if (s.name().length() > 64 || !NAME.matcher(s.name()).matches()) {
            problems.add(new Problem(
                    s.folder(),
                    0,
                    "",
                    "name '" + s.name() + "' is not 1-64 of [a-z0-9-]"
                            + " without a leading, trailing or double hyphen"));
        }
        if (!s.name().equals(s.folder())) {
            problems.add(new Problem(s.folder(), 0, "", "name '" + s.name() + "' differs from its folder"));
        }
        if (s.description().isBlank() || s.description().length() > 1024) {
            problems.add(new Problem(
                    s.folder(), 0, "", "description has " + s.description().length() + " characters (1-1024)"));
        }
        List<Map.Entry<Integer, String>> lines = commandLines(s.text());
        if (lines.isEmpty()) {
            problems.add(new Problem(s.folder(), 0, "", "no crater command in a ```bash block"));
        }
        for (Map.Entry<Integer, String> line : lines) {
            String error = parses(line.getValue(), commands);
            if (error != null) {
                problems.add(new Problem(s.folder(), line.getKey(), line.getValue(), error));
            }
        }
        return problems;
    }

    /** The lines starting with {@code crater } inside ```bash blocks, by line number (from 1). */
    static List<Map.Entry<Integer, String>> commandLines(String text) {
        List<Map.Entry<Integer, String>> out = new ArrayList<>();
        boolean bash = false;
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String l = lines[i].strip();
            if (l.startsWith("```")) {
                bash = !bash && l.equals("```bash");
            } else if (bash && l.startsWith("crater ")) {
                out.add(Map.entry(i + 1, l));
            }
        }
        return out;
    }

    /** Null when the line parses to a command (not a group), else why not. */
    static String parses(String line, Supplier<CommandLine> commands) {
        List<String> words;
        try {
            words = split(line);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        List<String> args = words.subList(1, words.size()).stream()
                .map(w -> PLACEHOLDER.matcher(w).matches() ? "1" : w)
                .toList();
        try {
            List<CommandLine> parsed =
                    commands.get().parseArgs(args.toArray(String[]::new)).asCommandLineList();
            CommandLine leaf = parsed.get(parsed.size() - 1);
            if (!leaf.getSubcommands().isEmpty()) {
                return "'" + leaf.getCommandSpec().qualifiedName() + "' is a group: name one of its commands";
            }
            return null;
        } catch (CommandLine.ParameterException e) {
            return e.getMessage();
        }
    }

    /** Words as a POSIX shell splits them: '…' literal, "…" with \ escapes, \ outside; no operators. */
    static List<String> split(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        boolean inWord = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\'' || c == '"') {
                int end = line.indexOf(c, i + 1);
                if (end < 0) {
                    throw new IllegalArgumentException("unclosed " + c);
                }
                String quoted = line.substring(i + 1, end);
                w.append(c == '"' ? quoted.replaceAll("\\\\([\"\\\\$`])", "$1") : quoted);
                inWord = true;
                i = end;
            } else if (c == '<' && placeholderEnd(line, i) > 0) {
                int end = placeholderEnd(line, i);
                w.append(line, i, end + 1);
                inWord = true;
                i = end;
            } else if (c == '\\' && i + 1 < line.length()) {
                w.append(line.charAt(++i));
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    words.add(w.toString());
                    w.setLength(0);
                    inWord = false;
                }
            } else if ("|;&><`$".indexOf(c) >= 0) {
                throw new IllegalArgumentException("one crater command per line: no shell operator '" + c + "'");
            } else {
                w.append(c);
                inWord = true;
            }
        }
        if (inWord) {
            words.add(w.toString());
        }
        return words;
    }

    /** Where a {@code <placeholder>} starting at {@code i} ends (its '>'), or -1 when it is not one. */
    private static int placeholderEnd(String line, int i) {
        int end = line.indexOf('>', i);
        return end > i + 1 && line.substring(i + 1, end).matches("[^<>\\s]+") ? end : -1;
    }

    /** The skills in a directory of skill folders ({@code skills/} of the repository). */
    public static List<Skill> in(Path dir) {
        try (Stream<Path> folders = Files.list(dir)) {
            List<Skill> out = new ArrayList<>();
            for (Path f : folders.filter(Files::isDirectory).sorted().toList()) {
                Path md = f.resolve("SKILL.md");
                String text = Files.exists(md) ? Files.readString(md, StandardCharsets.UTF_8) : "";
                out.add(parse(f.getFileName().toString(), text));
            }
            return out;
        } catch (IOException e) {
            throw new CliException(Exit.ERROR, "cannot read " + dir + ": " + e.getMessage());
        }
    }

    /** The skills bundled in this client (its jar, or its classes directory), by name. */
    public static List<Skill> bundled() {
        Map<String, String> texts = new TreeMap<>();
        try {
            Path home = Path.of(Skills.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
            if (Files.isDirectory(home)) {
                Path dir = home.resolve(RESOURCES);
                return Files.isDirectory(dir) ? in(dir) : List.of();
            }
            try (JarFile jar = new JarFile(home.toFile())) {
                for (JarEntry e : Collections.list(jar.entries())) {
                    Matcher m = ENTRY.matcher(e.getName());
                    if (m.matches()) {
                        texts.put(m.group(1), new String(jar.getInputStream(e).readAllBytes(), StandardCharsets.UTF_8));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        return texts.entrySet().stream()
                .map(e -> parse(e.getKey(), e.getValue()))
                .toList();
    }
}
