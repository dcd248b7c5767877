package io.crater.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Requests for quota grants, job locks and restricted models: ask, list, decide, withdraw. */
@Command(
        name = "approval",
        description = "Requests for a quota grant, a job lock or a restricted model, and their review.",
        subcommands = {
            ApprovalCommands.ListApprovals.class,
            ApprovalRequestCommands.class,
            ApprovalCommands.Approve.class,
            ApprovalCommands.Reject.class,
            ApprovalCommands.Cancel.class
        })
final class ApprovalCommands {

    static List<Output.Column> columns(Messages msg, java.time.Instant now) {
        return List.of(
                Output.Column.path(msg.get("col.id"), "id"),
                Output.Column.path(msg.get("col.kind"), "kind"),
                Output.Column.path(msg.get("col.requester"), "requester.username"),
                Output.Column.path(msg.get("col.account"), "account"),
                Output.Column.of(msg.get("col.what"), o -> what(msg, o)),
                Output.Column.state(msg.get("col.state"), o -> Values.text(o, "state")),
                Output.Column.of(msg.get("col.age"), o -> Values.age(Values.at(o, "createdAt"), now)),
                Output.Column.wide(msg.get("col.reason"), o -> Values.text(o, "reason")),
                Output.Column.wide(msg.get("col.reviewer"), o -> Values.text(o, "reviewer.username")),
                Output.Column.wide(msg.get("col.comment"), o -> Values.text(o, "comment")));
    }

    /** What a request asks for, in words: {@code 4 nvidia-a100-80gb until 2026-12-06T00:00:00Z}. */
    static String what(Messages msg, Object a) {
        String until = Values.text(a, "until");
        return switch (String.valueOf(Values.text(a, "kind"))) {
            case "quota-grant" ->
                msg.get("approval.what.grant", Values.text(a, "amount"), Values.text(a, "resource"), until);
            case "job-lock" -> msg.get("approval.what.lock", Values.text(a, "jobId"), until);
            case "model-access" -> msg.get("approval.what.model", Values.text(a, "model"));
            default -> "";
        };
    }

    /** Prints one request (its row, or the API object) and reports its new state. */
    static void print(Verb v, Object approval) {
        v.output().one(approval, columns(v.msg(), v.now()), o -> Values.text(o, "id"));
    }

    @Command(
            name = "list",
            aliases = "ls",
            description = "Your requests (--scope mine, the default) or those you may decide (--scope review).")
    static final class ListApprovals extends Verb {
        @Option(
                names = "--scope",
                paramLabel = "SCOPE",
                description = "mine (what you asked for) or review (what you may approve or reject).")
        String scope = "mine";

        @Option(
                names = "--state",
                paramLabel = "STATE",
                description = "Only requests in this state: pending, approved, rejected, cancelled or expired.")
        String state;

        @Option(names = "--max-items", paramLabel = "N", description = "Stop after N requests (default: all).")
        int max;

        @Override
        protected int execute() {
            Map<String, Object> q = new LinkedHashMap<>();
            q.put("scope", scope);
            q.put("state", state);
            output().list(pages("/api/v1/approvals", q, max), columns(msg(), now()), o -> Values.text(o, "id"));
            return Exit.OK;
        }
    }

    /** Approve or reject: a decision with an optional comment, asked for first. */
    abstract static class Decide extends Verb {
        @Parameters(paramLabel = "ID", description = "The request's id (see 'crater approval list --scope review').")
        long id;

        @Option(
                names = "--comment",
                paramLabel = "TEXT",
                description = "Why; the requester reads it with the decision.")
        String comment;

        abstract String decision();

        @Override
        protected int execute() {
            confirm(msg().get("approval.confirm." + decision(), Long.toString(id)));
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("comment", comment);
            Object a = api().post("/api/v1/approvals/" + id + "/" + decision(), body);
            if (output().human()) {
                err().println(msg().get("approval.decided", Long.toString(id), Values.text(a, "state")));
            }
            print(this, a);
            return Exit.OK;
        }
    }

    @Command(name = "approve", description = "Approve a pending request (never your own); asks first unless --yes.")
    static final class Approve extends Decide {
        @Override
        String decision() {
            return "approve";
        }
    }

    @Command(name = "reject", description = "Reject a pending request; asks first unless --yes.")
    static final class Reject extends Decide {
        @Override
        String decision() {
            return "reject";
        }
    }

    @Command(name = "cancel", description = "Withdraw your own pending request; asks first unless --yes.")
    static final class Cancel extends Verb {
        @Parameters(paramLabel = "ID", description = "The request's id (see 'crater approval list').")
        long id;

        @Override
        protected int execute() {
            confirm(msg().get("approval.confirm.cancel", Long.toString(id)));
            Object a = api().post("/api/v1/approvals/" + id + "/cancel", null);
            if (output().human()) {
                err().println(msg().get("approval.decided", Long.toString(id), Values.text(a, "state")));
            }
            print(this, a);
            return Exit.OK;
        }
    }
}
