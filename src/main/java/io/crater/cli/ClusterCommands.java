package io.crater.cli;

import java.util.List;
import picocli.CommandLine.Command;

/** What the cluster has: accelerators per model, free ones included (everyone signed in). */
@Command(
        name = "cluster",
        description = "The cluster's capacity: accelerators per model, and how many are free now.",
        subcommands = {ClusterCommands.Accelerators.class})
final class ClusterCommands {

    static List<Output.Column> columns(Messages msg) {
        return List.of(
                Output.Column.path(msg.get("col.model"), "model"),
                Output.Column.path(msg.get("col.name"), "displayName"),
                Output.Column.path(msg.get("col.vendor"), "vendor"),
                Output.Column.path(msg.get("col.nodes"), "nodes"),
                Output.Column.path(msg.get("col.total"), "total"),
                Output.Column.path(msg.get("col.allocated"), "allocated"),
                Output.Column.path(msg.get("col.free"), "free"),
                Output.Column.wide(msg.get("col.resource"), o -> Values.text(o, "resource")));
    }

    @Command(
            name = "accelerators",
            aliases = "gpus",
            description = "Per accelerator model: nodes, total, allocated, and free on nodes that take pods now.")
    static final class Accelerators extends Verb {
        @Override
        protected int execute() {
            output().list(
                            List.of(Values.items(api().get("/api/v1/cluster/accelerators")))
                                    .iterator(),
                            columns(msg()),
                            o -> Values.text(o, "model"));
            return Exit.OK;
        }
    }
}
