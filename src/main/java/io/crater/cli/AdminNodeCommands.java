package io.crater.cli;

import java.util.List;
import picocli.CommandLine.Command;

/** The cluster's nodes with their accelerators and allocation (platform admins). */
@Command(
        name = "node",
        description = "The cluster's nodes (platform admins).",
        subcommands = {AdminNodeCommands.ListNodes.class})
final class AdminNodeCommands {

    static List<Output.Column> columns(Messages msg) {
        return List.of(
                Output.Column.path(msg.get("col.node"), "name"),
                Output.Column.state(msg.get("col.state"), AdminNodeCommands::state),
                Output.Column.path(msg.get("col.model"), "accelerator.model"),
                Output.Column.of(
                        msg.get("col.accelerators"),
                        o -> Values.at(o, "accelerator") == null
                                ? "-"
                                : Values.text(o, "accelerator.allocated") + "/" + Values.text(o, "accelerator.total")),
                Output.Column.of(
                        msg.get("col.cpu"),
                        o -> cores(Values.at(o, "cpu.allocatedMilli")) + "/" + cores(Values.at(o, "cpu.totalMilli"))),
                Output.Column.of(
                        msg.get("col.memory"),
                        o -> gib(Values.at(o, "memory.allocatedBytes")) + "/" + gib(Values.at(o, "memory.totalBytes"))),
                Output.Column.path(msg.get("col.pods"), "pods"));
    }

    static String state(Object node) {
        if (!Boolean.TRUE.equals(Values.at(node, "ready"))) {
            return "NotReady";
        }
        return Boolean.TRUE.equals(Values.at(node, "schedulable")) ? "Ready" : "Cordoned";
    }

    static String cores(Object milli) {
        if (!(milli instanceof Number n)) {
            return "";
        }
        long m = n.longValue();
        return m % 1000 == 0
                ? Long.toString(m / 1000)
                : java.math.BigDecimal.valueOf(m, 3).stripTrailingZeros().toPlainString();
    }

    static String gib(Object bytes) {
        if (!(bytes instanceof Number n)) {
            return "";
        }
        return java.math.BigDecimal.valueOf(n.longValue())
                        .divide(java.math.BigDecimal.valueOf(1L << 30), 0, java.math.RoundingMode.HALF_EVEN)
                        .toPlainString()
                + "Gi";
    }

    @Command(
            name = "list",
            aliases = "ls",
            description = "Nodes: state, accelerator model, accelerators/CPU/memory allocated of allocatable, pods.")
    static final class ListNodes extends Verb {
        @Override
        protected int execute() {
            output().list(
                            List.of(Values.items(api().get("/api/v1/cluster/nodes")))
                                    .iterator(),
                            columns(msg()),
                            o -> Values.text(o, "name"));
            return Exit.OK;
        }
    }
}
