package io.crater.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The audit trail, newest first (platform admins); {@code --denied} lists the refused calls instead. */
@Command(
        name = "audit",
        description = "The audit trail, newest first (platform admins); --denied lists refused (403) calls instead.")
final class AdminAuditCommand extends Verb {

    @Option(names = "--since", paramLabel = "TIME", description = "From this time: ISO, a date, or a span ago (24h).")
    String since;

    @Option(names = "--until", paramLabel = "TIME", description = "Up to this time, in the same forms.")
    String until;

    @Option(names = "--actor", paramLabel = "USER", description = "Only what this user did.")
    String actor;

    @Option(
            names = "--action",
            paramLabel = "ACTION",
            description = "Only this action (user.create, quota.update, ...).")
    String action;

    @Option(names = "--in-account", paramLabel = "ACCOUNT", description = "Only changes made as this account.")
    String inAccount;

    @Option(names = "--denied", description = "The refused calls (method, path, code) instead of the changes.")
    boolean denied;

    @Option(names = "--max-items", paramLabel = "N", description = "Stop after N entries (default: 100; 0: all).")
    int max = 100;

    static List<Output.Column> columns(Messages msg) {
        return List.of(
                Output.Column.path(msg.get("col.time"), "at"),
                Output.Column.path(msg.get("col.actor"), "actor"),
                Output.Column.path(msg.get("col.action"), "action"),
                Output.Column.of(
                        msg.get("col.target"), o -> Values.text(o, "targetType") + "/" + Values.text(o, "targetId")),
                Output.Column.path(msg.get("col.account"), "account"),
                Output.Column.path(msg.get("col.result"), "result"),
                Output.Column.wide(msg.get("col.address"), o -> Values.text(o, "clientAddress")),
                Output.Column.wide(msg.get("col.id"), o -> Values.text(o, "id")));
    }

    static List<Output.Column> deniedColumns(Messages msg) {
        return List.of(
                Output.Column.path(msg.get("col.time"), "at"),
                Output.Column.path(msg.get("col.actor"), "actor"),
                Output.Column.path(msg.get("col.method"), "method"),
                Output.Column.path(msg.get("col.path"), "path"),
                Output.Column.path(msg.get("col.code"), "code"),
                Output.Column.wide(msg.get("col.address"), o -> Values.text(o, "clientAddress")));
    }

    @Override
    protected int execute() {
        if (denied) {
            output().list(
                            pages("/api/v1/audit/denied", Map.of(), max),
                            deniedColumns(msg()),
                            o -> Values.text(o, "id"));
            return Exit.OK;
        }
        Map<String, Object> q = new LinkedHashMap<>();
        q.put("actor", actor);
        q.put("action", action);
        q.put("account", inAccount);
        q.put(
                "from",
                since == null
                        ? null
                        : VerbInputs.time(since, now(), "--since", msg()).toString());
        q.put(
                "to",
                until == null
                        ? null
                        : VerbInputs.time(until, now(), "--until", msg()).toString());
        output().list(pages("/api/v1/audit", q, max), columns(msg()), o -> Values.text(o, "id"));
        return Exit.OK;
    }
}
