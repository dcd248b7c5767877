package io.crater.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Job templates: list them, read one with its parameters, save one from a file, render one with values. */
@Command(
        name = "template",
        description = "Job templates: list, read, save (a new one or a new version) and render with values.",
        subcommands = {
            TemplateCommands.ListTemplates.class,
            TemplateCommands.Get.class,
            TemplateCommands.Save.class,
            TemplateCommands.Render.class
        })
final class TemplateCommands {

    static List<Output.Column> columns(Messages msg) {
        return List.of(
                Output.Column.path(msg.get("col.id"), "id"),
                Output.Column.of(msg.get("col.name"), o -> VerbInputs.localised(msg, o, "name")),
                Output.Column.path(msg.get("col.kind"), "kind"),
                Output.Column.path(msg.get("col.visibility"), "visibility"),
                Output.Column.path(msg.get("col.version"), "version"),
                Output.Column.of(
                        msg.get("col.owner"),
                        o -> Boolean.TRUE.equals(Values.at(o, "builtin"))
                                ? msg.get("template.builtin")
                                : Values.text(o, "owner")),
                Output.Column.wide(msg.get("col.account"), o -> Values.text(o, "account")),
                Output.Column.wide(msg.get("col.description"), o -> VerbInputs.localised(msg, o, "description")));
    }

    @Command(
            name = "list",
            aliases = "ls",
            description = "The templates you may use: built-in, public, shared with your accounts, your own.")
    static final class ListTemplates extends Verb {
        @Option(
                names = "--kind",
                paramLabel = "KIND",
                description = "Only templates of this job kind (jupyter, webide, training, inference, batch, ...).")
        String kind;

        @Override
        protected int execute() {
            Map<String, Object> q = new LinkedHashMap<>();
            q.put("kind", kind);
            List<Object> items = Values.items(api().get("/api/v1/templates", q));
            NameCache.remember(
                    term(),
                    NameCache.TEMPLATES,
                    items.stream().map(o -> Values.text(o, "id")).toList());
            output().list(List.of(items).iterator(), columns(msg()), o -> Values.text(o, "id"));
            return Exit.OK;
        }
    }

    @Command(
            name = "get",
            description = "A template: what it is and the parameters it asks for (type, default, required).")
    static final class Get extends Verb {
        @Parameters(paramLabel = "TEMPLATE", description = "The template's id (see 'crater template list').")
        String id;

        @Option(names = "--version", paramLabel = "N", description = "An older version (default: the latest).")
        Integer version;

        @Override
        protected int execute() {
            Map<String, Object> q = new LinkedHashMap<>();
            q.put("version", version);
            Object t = api().get("/api/v1/templates/" + Api.seg(id), q);
            if (!output().human()) {
                output().object(t);
                return Exit.OK;
            }
            Messages m = msg();
            out().println(m.get("template.header", Values.text(t, "id"), VerbInputs.localised(m, t, "name")));
            out().println(m.get("template.kind", Values.text(t, "kind"), Values.text(t, "visibility")));
            out().println(m.get("template.version", Values.text(t, "version"), Values.text(t, "updatedAt")));
            String description = VerbInputs.localised(m, t, "description");
            if (description != null && !description.isBlank()) {
                out().println(description);
            }
            out().println();
            List<Object> params = Values.list(Values.at(t, "parameters"));
            if (params.isEmpty()) {
                out().println(m.get("template.noParameters"));
                return Exit.OK;
            }
            output().list(List.of(params).iterator(), parameterColumns(m), o -> Values.text(o, "name"));
            return Exit.OK;
        }

        static List<Output.Column> parameterColumns(Messages m) {
            return List.of(
                    Output.Column.path(m.get("col.parameter"), "name"),
                    Output.Column.path(m.get("col.type"), "type"),
                    Output.Column.path(m.get("col.default"), "default"),
                    Output.Column.of(
                            m.get("col.required"),
                            o -> Boolean.TRUE.equals(Values.at(o, "required")) ? m.get("word.yes") : m.get("word.no")),
                    Output.Column.of(m.get("col.label"), o -> label(m, o)),
                    Output.Column.wide(m.get("col.options"), o -> String.join(",", strings(Values.at(o, "options")))));
        }

        private static String label(Messages m, Object p) {
            String label = VerbInputs.localised(m, p, "label");
            return label == null ? "" : label;
        }

        private static List<String> strings(Object o) {
            return Values.list(o).stream().map(Object::toString).toList();
        }
    }

    @Command(
            name = "save",
            description = {
                "Save a template from a YAML file: a new template, or a new version of TEMPLATE (or of the file's 'id').",
                "The file has name, description, visibility (private, account or public), account, parameters and spec,"
                        + " as 'crater template get -o yaml' prints them."
            })
    static final class Save extends Verb {
        @Parameters(
                arity = "0..1",
                paramLabel = "TEMPLATE",
                description = "Save as a new version of this template (default: the file's 'id', else a new template).")
        String id;

        @Option(
                names = {"-f", "--file"},
                required = true,
                paramLabel = "FILE",
                description = "The template as YAML or JSON ('-' reads standard input).")
        String file;

        private static final List<String> FIELDS =
                List.of("name", "description", "visibility", "account", "parameters", "spec");

        @Override
        protected int execute() {
            Map<String, Object> doc = VerbInputs.yamlMap(this, file, VerbInputs.file(this, file));
            Map<String, Object> body = new LinkedHashMap<>();
            FIELDS.forEach(f -> body.put(f, doc.get(f)));
            if (body.get("visibility") == null) {
                body.put("visibility", "private");
            }
            String target = id != null ? id : Values.str(doc.get("id"));
            Object saved = target == null
                    ? api().post("/api/v1/templates", body)
                    : api().put("/api/v1/templates/" + Api.seg(target), body);
            if (output().human()) {
                out().println(msg().get(
                                target == null ? "template.created" : "template.saved",
                                Values.text(saved, "id"),
                                Values.text(saved, "version")));
            } else {
                output().one(saved, columns(msg()), o -> Values.text(o, "id"));
            }
            return Exit.OK;
        }
    }

    @Command(
            name = "render",
            description =
                    "The job spec a template gives with these values, as YAML (what 'job submit --template' sends).")
    static final class Render extends Verb {
        @Parameters(paramLabel = "TEMPLATE", description = "The template's id.")
        String id;

        @Option(
                names = "--set",
                paramLabel = "NAME=VALUE",
                description = "A parameter's value (repeat for several); an absent one takes its default.")
        Map<String, String> values = new LinkedHashMap<>();

        @Option(names = "--version", paramLabel = "N", description = "Render an older version (default: the latest).")
        Integer version;

        @Override
        protected int execute() {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("version", version);
            body.put("parameters", new LinkedHashMap<>(values));
            Object rendered = api().post("/api/v1/templates/" + Api.seg(id) + "/render", body);
            if (output().human()) {
                out().print(Values.text(rendered, "yaml"));
            } else {
                output().object(Values.at(rendered, "spec"));
            }
            return Exit.OK;
        }
    }
}
