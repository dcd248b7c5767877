package io.crater.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The accelerator catalogue: the models Crater knows, their display names, vendors and restriction. */
@Command(
        name = "model",
        description = "The accelerator catalogue: list, read, and curate names, vendors and restriction (platform"
                + " admins).",
        subcommands = {
            AdminModelCommands.ListModels.class,
            AdminModelCommands.Get.class,
            AdminModelCommands.Update.class
        })
final class AdminModelCommands {

    static List<Output.Column> columns(Messages msg) {
        return List.of(
                Output.Column.path(msg.get("col.model"), "key"),
                Output.Column.path(msg.get("col.name"), "displayName"),
                Output.Column.path(msg.get("col.vendor"), "vendor"),
                Output.Column.path(msg.get("col.resource"), "resource"),
                Output.Column.of(
                        msg.get("col.restricted"),
                        o -> Boolean.TRUE.equals(Values.at(o, "restricted"))
                                ? msg.get("word.yes")
                                : msg.get("word.no")),
                Output.Column.wide(
                        msg.get("col.label"),
                        o -> Values.text(o, "labelKey") == null
                                ? "-"
                                : Values.text(o, "labelKey") + "=" + Values.text(o, "labelValue")));
    }

    static List<Object> models(Verb v) {
        return Values.items(v.api().get("/api/v1/accelerator-models"));
    }

    @Command(name = "list", aliases = "ls", description = "Every accelerator model of the catalogue.")
    static final class ListModels extends Verb {
        @Override
        protected int execute() {
            output().list(List.of(models(this)).iterator(), columns(msg()), o -> Values.text(o, "key"));
            return Exit.OK;
        }
    }

    @Command(name = "get", description = "One accelerator model: resource, node label, name, vendor, restriction.")
    static final class Get extends Verb {
        @Parameters(paramLabel = "MODEL", description = "The model's key (nvidia-a100-80gb).")
        String key;

        @Override
        protected int execute() {
            Object model = models(this).stream()
                    .filter(o -> key.equals(Values.text(o, "key")))
                    .findFirst()
                    .orElseThrow(() -> new CliException(Exit.NOT_FOUND, msg().get("model.none", key)));
            output().one(model, columns(msg()), o -> Values.text(o, "key"));
            return Exit.OK;
        }
    }

    @Command(name = "update", description = "Change a model's display name, vendor or restriction (platform admins).")
    static final class Update extends Verb {
        @Parameters(paramLabel = "MODEL", description = "The model's key.")
        String key;

        @Option(names = "--name", paramLabel = "TEXT", description = "The display name (NVIDIA A100 80GB).")
        String name;

        @Option(names = "--vendor", paramLabel = "TEXT", description = "The vendor (NVIDIA, Huawei).")
        String vendor;

        @Option(
                names = "--restricted",
                negatable = true,
                description = "Whether using it needs an approved model-access request (--no-restricted lifts it).")
        Boolean restricted;

        @Override
        protected int execute() {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("displayName", name);
            body.put("vendor", vendor);
            body.put("restricted", restricted);
            Object model = api().patch("/api/v1/accelerator-models/" + Api.seg(key), body);
            output().one(model, columns(msg()), o -> Values.text(o, "key"));
            return Exit.OK;
        }
    }
}
