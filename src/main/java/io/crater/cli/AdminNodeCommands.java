package io.crater.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The cluster's nodes with their accelerators and allocation (platform admins). */
@Command(
        name = "node",
        description = "The cluster's nodes (platform admins).",
        subcommands = {
            AdminNodeCommands.ListNodes.class,
            AdminNodeCommands.Cordon.class,
            AdminNodeCommands.Uncordon.class,
            AdminNodeCommands.Drain.class,
            AdminNodeCommands.Exclusive.class,
            AdminNodeCommands.Share.class,
            AdminNodeCommands.Health.class,
            AdminNodeCommands.Clear.class
        })
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

    static String path(String node, String action) {
        return "/api/v1/admin/nodes/" + Api.seg(node) + (action.isEmpty() ? "" : "/" + action);
    }

    /** A verb on one node that prints the node as it became. */
    abstract static class OnNode extends Verb {
        @Parameters(index = "0", paramLabel = "NODE", description = "The node's name.")
        String node;

        void show(Object view) {
            output().one(view, columns(msg()), o -> Values.text(o, "name"));
        }
    }

    /** A verb on one node that asks why. */
    abstract static class WithReason extends OnNode {
        @Option(names = "--reason", required = true, paramLabel = "TEXT", description = "Why (at most 256 characters).")
        String reason;
    }

    @Command(name = "cordon", description = "Cordon a node with a reason: no new pods; waiting jobs name it.")
    static final class Cordon extends WithReason {

        @Override
        protected int execute() {
            show(api().post(path(node, "cordon"), Map.of("reason", reason)));
            return Exit.OK;
        }
    }

    @Command(name = "uncordon", description = "Uncordon a node: it takes pods again.")
    static final class Uncordon extends OnNode {
        @Override
        protected int execute() {
            show(api().post(path(node, "uncordon"), Map.of()));
            return Exit.OK;
        }
    }

    @Command(
            name = "drain",
            description =
                    "Cordon a node and evict its pods; Crater's jobs there stop with NodeDrained, or wait again in"
                            + " their places with --requeue.")
    static final class Drain extends WithReason {

        @Option(names = "--requeue", description = "Put a copy of each stopped job in its place in line.")
        boolean requeue;

        @Override
        protected int execute() {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("reason", reason);
            body.put("requeue", requeue);
            Object result = api().post(path(node, "drain"), body);
            if (!output().human()) {
                output().object(result);
                return Exit.OK;
            }
            out().println(msg().get(
                            "node.drained",
                            node,
                            Values.list(Values.at(result, "evicted")).size()));
            for (Object job : Values.list(Values.at(result, "stoppedJobs"))) {
                Object copy = Values.map(Values.at(result, "requeued")).get(String.valueOf(job));
                out().println(
                                copy == null
                                        ? msg().get("node.drained.stopped", job)
                                        : msg().get("node.drained.requeued", job, copy));
            }
            for (Object b : Values.list(Values.at(result, "blocked"))) {
                out().println(msg().get(
                                "node.drained.blocked",
                                Values.text(b, "namespace"),
                                Values.text(b, "pod"),
                                Values.text(b, "message")));
            }
            return Exit.OK;
        }
    }

    @Command(name = "exclusive", description = "Make a node exclusive to a team account: only its jobs go there.")
    static final class Exclusive extends OnNode {
        @Parameters(index = "1", paramLabel = "ACCOUNT", description = "The team account's slug.")
        String account;

        @Override
        protected int execute() {
            show(api().put(path(node, "exclusive"), Map.of("account", account)));
            return Exit.OK;
        }
    }

    @Command(name = "share", description = "Share an exclusive node with every account again.")
    static final class Share extends OnNode {
        @Override
        protected int execute() {
            show(api().delete(path(node, "exclusive")));
            return Exit.OK;
        }
    }

    @Command(name = "health", description = "A node's GPU health: suspect or quarantined, why, and the evidence.")
    static final class Health extends OnNode {
        @Override
        protected int execute() {
            Object health = api().get(path(node, "health"));
            if (!output().human()) {
                output().object(health);
                return Exit.OK;
            }
            out().println(msg().get("node.health", node, Values.text(health, "state")));
            for (Object r : Values.list(Values.at(health, "reasons"))) {
                out().println("  " + Values.text(r, "code") + ": " + Values.text(r, "message"));
            }
            for (Object e : Values.list(Values.at(health, "evidence"))) {
                out().println("  " + Values.text(e, "at") + "  " + Values.text(e, "kind")
                        + (Values.at(e, "gpu") == null ? "" : "  GPU " + Values.text(e, "gpu"))
                        + "  " + Values.text(e, "value")
                        + (Values.at(e, "job") == null ? "" : "  " + Values.text(e, "job")));
            }
            return Exit.OK;
        }
    }

    @Command(
            name = "clear",
            description = "Clear a node's GPU quarantine: healthy again, its quarantine cordon lifted.")
    static final class Clear extends WithReason {

        @Override
        protected int execute() {
            Object health = api().post(path(node, "health/clear"), Map.of("reason", reason));
            if (!output().human()) {
                output().object(health);
                return Exit.OK;
            }
            out().println(msg().get("node.health", node, Values.text(health, "state")));
            return Exit.OK;
        }
    }
}
