package io.crater.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code crater job get}: a job described for a person (state with its reason, requests, pods, how containers
 * ended, the last history entries and events), or the API's detail object in the machine forms.
 */
final class JobDescribe {

    /** How many of the latest history rows and events the description shows ({@code job events} has all). */
    static final int LAST = 10;

    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss'Z'").withZone(ZoneOffset.UTC);

    private JobDescribe() {}

    @Command(
            mixinStandardHelpOptions = true,
            name = "get",
            description = "One job: its state and why, requests, pods and nodes, exits, history and events"
                    + " (-o json/yaml: the API's detail object).")
    static final class Get extends Verb {

        @Parameters(paramLabel = "JOB", description = "The job's id.")
        String job;

        @Override
        protected int execute() {
            Object detail = api().get(JobCommands.path(job));
            if (output().human()) {
                out().print(describe(Values.map(detail), msg()));
            } else {
                output().one(detail, List.of(), o -> Values.text(o, "job.id"));
            }
            return Exit.OK;
        }
    }

    /** A time as the descriptions show it, in UTC to the second; "" when absent. */
    static String time(Object iso) {
        Instant t = Values.instant(iso);
        return t == null ? "" : TIME.format(t);
    }

    /** The description of a job's detail, line by line. */
    static String describe(Map<String, Object> d, Messages msg) {
        Object job = d.get("job");
        List<String[]> head = new ArrayList<>();
        head.add(row(msg, "job.label.id", Values.text(job, "id")));
        head.add(row(msg, "job.label.name", Values.text(job, "name")));
        head.add(row(msg, "job.label.account", Values.text(job, "account")));
        head.add(row(msg, "job.label.owner", Values.text(job, "owner")));
        head.add(row(msg, "job.label.kind", Values.text(job, "kind")));
        head.add(row(msg, "job.label.state", state(d, job)));
        head.add(row(msg, "job.label.requests", requests(job)));
        if (Boolean.TRUE.equals(Values.at(job, "borrowing"))) {
            head.add(row(msg, "job.label.borrowing", msg.get("job.borrowingYes")));
        }
        head.add(row(msg, "job.label.image", Values.text(d, "spec.image")));
        head.add(row(msg, "job.label.timeLimit", Values.text(d, "spec.timeLimit")));
        head.add(row(msg, "job.label.created", time(Values.at(job, "createdAt"))));
        head.add(row(msg, "job.label.started", time(Values.at(job, "startedAt"))));
        head.add(row(msg, "job.label.finished", time(Values.at(job, "finishedAt"))));
        if (d.get("template") != null) {
            head.add(row(
                    msg,
                    "job.label.template",
                    Values.text(d, "template.id") + " v" + Values.text(d, "template.version") + " ("
                            + Values.text(d, "template.name") + ")"));
        }
        head.add(row(msg, "job.label.source", Values.text(d, "sourceJob")));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        labelled(out, head);
        List<Object> reasons = Values.list(Values.at(job, "reasons"));
        if (!reasons.isEmpty()) {
            out.println(msg.get("job.section.reasons"));
            Problems words = new Problems(msg);
            reasons.forEach(r -> out.println("  - " + words.reason(Values.map(r))));
        }
        section(out, msg, "job.section.pods", Values.list(d.get("pods")), podColumns(msg));
        section(out, msg, "job.section.exits", Values.list(d.get("exits")), exitColumns(msg));
        section(out, msg, "job.section.history", last(Values.list(d.get("history"))), historyColumns(msg));
        section(out, msg, "job.section.events", last(Values.list(d.get("events"))), eventColumns(msg));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static String state(Map<String, Object> d, Object job) {
        String s = Values.text(job, "state");
        String reason = Values.str(d.get("stateReason"));
        String message = Values.str(d.get("stateMessage"));
        if (reason != null && !reason.isBlank()) {
            s += " (" + reason + ")";
        }
        if (message != null && !message.isBlank()) {
            s += ": " + message;
        }
        return s;
    }

    /** {@code cpu 1, memory 1Gi, nvidia-a100-80gb 4}. */
    static String requests(Object job) {
        List<String> parts = new ArrayList<>();
        Values.map(Values.at(job, "requests")).forEach((k, v) -> parts.add(k + " " + v));
        return String.join(", ", parts);
    }

    private static String[] row(Messages msg, String key, String value) {
        return new String[] {msg.get(key), value == null ? "" : value};
    }

    /** {@code Label:   value} lines, the values aligned (rows without a value are left out). */
    static void labelled(PrintStream out, List<String[]> rows) {
        int width = 0;
        for (String[] line : rows) {
            width = Math.max(width, Table.width(line[0]));
        }
        for (String[] line : rows) {
            if (!line[1].isEmpty()) {
                out.println(line[0] + " ".repeat(width - Table.width(line[0]) + 2) + line[1]);
            }
        }
    }

    private static List<Object> last(List<Object> all) {
        return all.size() <= LAST ? all : all.subList(all.size() - LAST, all.size());
    }

    private static void section(
            PrintStream out, Messages msg, String title, List<Object> rows, List<Output.Column> columns) {
        if (rows.isEmpty()) {
            return;
        }
        out.println(msg.get(title));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream inner = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        Table t = new Table(columns.stream().map(Output.Column::header).toList(), true);
        List<Function<Object, String>> values =
                columns.stream().map(Output.Column::value).toList();
        t.print(inner, Table.rows(rows, values), Table.Painter.NONE);
        bytes.toString(StandardCharsets.UTF_8).lines().forEach(l -> out.println("  " + l));
    }

    private static List<Output.Column> podColumns(Messages msg) {
        return List.of(
                Output.Column.of(msg.get("col.pod"), o -> Values.text(o, "task") + "-" + Values.text(o, "index")),
                Output.Column.path(msg.get("col.phase"), "phase"),
                Output.Column.path(msg.get("col.node"), "node"),
                Output.Column.of(
                        msg.get("col.accelerators"),
                        o -> Values.at(o, "accelerators") instanceof Number n && n.intValue() > 0
                                ? n + " " + Values.text(o, "acceleratorModel")
                                : ""),
                Output.Column.of(msg.get("col.containers"), JobDescribe::containers),
                Output.Column.of(msg.get("col.started"), o -> time(Values.at(o, "startedAt"))));
    }

    /** {@code main: running, restarts 1}, {@code main: terminated Error exit 1}. */
    private static String containers(Object pod) {
        List<String> parts = new ArrayList<>();
        for (Object c : Values.list(Values.at(pod, "containers"))) {
            StringBuilder b = new StringBuilder(Values.text(c, "name") + ": " + Values.text(c, "state"));
            String reason = Values.text(c, "reason");
            if (reason != null && !reason.isBlank()) {
                b.append(' ').append(reason);
            }
            if (Values.at(c, "exitCode") != null) {
                b.append(" exit ").append(Values.text(c, "exitCode"));
            }
            if (Values.at(c, "restarts") instanceof Number n && n.intValue() > 0) {
                b.append(" restarts ").append(n);
            }
            parts.add(b.toString());
        }
        return String.join("; ", parts);
    }

    private static List<Output.Column> exitColumns(Messages msg) {
        return List.of(
                Output.Column.path(msg.get("col.pod"), "pod"),
                Output.Column.path(msg.get("col.container"), "container"),
                Output.Column.path(msg.get("col.exitCode"), "exitCode"),
                Output.Column.path(msg.get("col.reason"), "reason"),
                Output.Column.path(msg.get("col.message"), "message"));
    }

    private static List<Output.Column> historyColumns(Messages msg) {
        return List.of(
                Output.Column.of(msg.get("col.time"), o -> time(Values.at(o, "at"))),
                Output.Column.of(
                        msg.get("col.state"),
                        o -> (Values.at(o, "from") == null ? "" : Values.text(o, "from") + " → ")
                                + Values.text(o, "to")),
                Output.Column.path(msg.get("col.reason"), "reason"),
                Output.Column.path(msg.get("col.message"), "message"));
    }

    private static List<Output.Column> eventColumns(Messages msg) {
        return List.of(
                Output.Column.of(msg.get("col.time"), o -> time(Values.at(o, "at"))),
                Output.Column.path(msg.get("col.type"), "type"),
                Output.Column.path(msg.get("col.reason"), "reason"),
                Output.Column.path(msg.get("col.object"), "object"),
                Output.Column.path(msg.get("col.message"), "message"));
    }
}
