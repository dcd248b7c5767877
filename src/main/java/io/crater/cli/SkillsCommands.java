package io.crater.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The agent skills bundled in the client: list them, install them where an agent reads skills, check them. */
@Command(
        name = "skills",
        description = "The agent skills bundled with this client (docs/agents.md): list, install and check them.",
        subcommands = {SkillsCommands.ListSkills.class, SkillsCommands.Install.class, SkillsCommands.Check.class})
final class SkillsCommands {

    static Map<String, Object> view(Skills.Skill s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", s.name());
        m.put("description", s.description());
        return m;
    }

    @Command(name = "list", aliases = "ls", description = "The bundled skills with what each is for.")
    static final class ListSkills extends Verb {
        @Override
        protected int execute() {
            List<Object> items = new ArrayList<>();
            Skills.bundled().forEach(s -> items.add(view(s)));
            output().list(
                            List.of(items).iterator(),
                            List.of(
                                    Output.Column.path(msg().get("col.name"), "name"),
                                    Output.Column.path(msg().get("col.description"), "description")),
                            o -> Values.text(o, "name"));
            return Exit.OK;
        }
    }

    @Command(
            name = "install",
            description = {
                "Copy the bundled skills into DIR, one folder per skill (DIR/<name>/SKILL.md).",
                "DIR defaults to $XDG_DATA_HOME/crater/skills (else ~/.local/share/crater/skills); give the folder"
                        + " your agent reads skills from, e.g. ~/.claude/skills (Claude Code, personal) or"
                        + " .claude/skills (one project).",
                "A skill already there with other text is kept unless --overwrite."
            })
    static final class Install extends Verb {
        @Parameters(arity = "0..1", paramLabel = "DIR", description = "Where to put the skills.")
        Path dir;

        @Option(names = "--overwrite", description = "Replace skills that exist with other text.")
        boolean overwrite;

        @Override
        protected int execute() {
            Path target = dir != null ? dir : defaultDir(term());
            List<Object> items = new ArrayList<>();
            int kept = 0;
            for (Skills.Skill s : Skills.bundled()) {
                Path file = target.resolve(s.folder()).resolve("SKILL.md");
                String result = install(file, s.text());
                kept += result.equals("kept") ? 1 : 0;
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("name", s.folder());
                m.put("path", file.toString());
                m.put("result", result);
                items.add(m);
            }
            output().list(
                            List.of(items).iterator(),
                            List.of(
                                    Output.Column.path(msg().get("col.name"), "name"),
                                    Output.Column.path(msg().get("col.result"), "result"),
                                    Output.Column.path(msg().get("col.path"), "path")),
                            o -> Values.text(o, "name"));
            if (kept > 0) {
                err().println(msg().get("skills.kept", kept));
            }
            return Exit.OK;
        }

        /** installed, replaced, unchanged, or kept (exists with other text, no --overwrite). */
        private String install(Path file, String text) {
            try {
                boolean exists = Files.exists(file);
                if (exists && Files.readString(file, StandardCharsets.UTF_8).equals(text)) {
                    return "unchanged";
                }
                if (exists && !overwrite) {
                    return "kept";
                }
                Files.createDirectories(file.getParent());
                Files.writeString(file, text, StandardCharsets.UTF_8);
                return exists ? "replaced" : "installed";
            } catch (IOException e) {
                throw new CliException(Exit.ERROR, msg().get("skills.cannotWrite", file, e.getMessage()));
            }
        }
    }

    static Path defaultDir(Terminal term) {
        String xdg = term.env("XDG_DATA_HOME");
        Path base = xdg != null ? Path.of(xdg) : Path.of(Config.home(term), ".local", "share");
        return base.resolve("crater").resolve("skills");
    }

    @Command(
            name = "check",
            description = {
                "Check skills: front matter (name of 1-64 [a-z0-9-] equal to the folder, a description of at most"
                        + " 1024 characters) and that every line starting with 'crater ' in a ```bash block parses"
                        + " with this client (<placeholders> count as values).",
                "Exits 1 and lists every problem when there is one."
            })
    static final class Check extends Verb {
        @Parameters(
                arity = "0..1",
                paramLabel = "DIR",
                description = "A folder of skill folders (default: the bundled skills).")
        Path dir;

        @Override
        protected int execute() {
            List<Skills.Skill> skills = dir != null ? Skills.in(dir) : Skills.bundled();
            List<Skills.Problem> problems = new ArrayList<>();
            skills.forEach(s -> problems.addAll(Skills.check(s, () -> CraterCli.full(term()))));
            problems.forEach(p -> out().println(p));
            if (!problems.isEmpty()) {
                throw new CliException(Exit.ERROR, msg().get("skills.problems", problems.size(), skills.size()));
            }
            err().println(msg().get("skills.ok", skills.size()));
            return Exit.OK;
        }
    }
}
