package io.crater.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code crater tensorboard …}: TensorBoard panels ({@code /api/v1/tensorboards}, docs/assets.md): one's log
 * folders and jobs' working directories shown by a TensorBoard that runs as a job, on its own app origin.
 */
@Command(
        name = "tensorboard",
        description = "Your TensorBoard panels: log folders and jobs' working directories shown by a TensorBoard that"
                + " runs as a job; unused panels stop.",
        subcommands = {
            TensorboardCommands.ListPanels.class,
            TensorboardCommands.Get.class,
            TensorboardCommands.Create.class,
            TensorboardCommands.Open.class,
            TensorboardCommands.Stop.class,
            TensorboardCommands.Start.class,
            TensorboardCommands.Delete.class
        })
final class TensorboardCommands {

    static final String PATH = "/api/v1/tensorboards";
    private static final Pattern ID = Pattern.compile("tb_[a-z0-9]{4,40}");
    private static final Pattern PREFIX = Pattern.compile("([A-Za-z0-9][A-Za-z0-9._-]{0,39})=(.+)");

    /** The path of the panel a word names: its id, or the name of one of one's panels. */
    static String path(Verb v, String word) {
        if (ID.matcher(word).matches()) {
            return PATH + "/" + Api.seg(word);
        }
        for (Object p : Values.items(v.api().get(PATH))) {
            if (word.equals(Values.text(p, "name"))) {
                return PATH + "/" + Api.seg(Values.text(p, "id"));
            }
        }
        throw new CliException(
                Exit.NOT_FOUND, v.msg().get("catalogue.none", v.msg().get("tensorboard.noun"), word));
    }

    static List<Output.Column> columns(Messages msg) {
        return List.of(
                Output.Column.path(msg.get("col.id"), "id"),
                Output.Column.path(msg.get("col.name"), "name"),
                Output.Column.path(msg.get("col.state"), "state"),
                Output.Column.path(msg.get("col.job"), "job"),
                Output.Column.of(msg.get("col.sources"), TensorboardCommands::sources),
                Output.Column.path(msg.get("col.reason"), "stoppedReason"),
                Output.Column.wide(msg.get("col.account"), o -> Values.text(o, "account")),
                Output.Column.wide(msg.get("col.lastUsed"), o -> Values.text(o, "lastUsedAt")));
    }

    /** {@code exp1=user:tb/runs/exp1, train=job:j7k3f9}. */
    static String sources(Object o) {
        List<String> out = new ArrayList<>();
        for (Object s : Values.list(Values.at(o, "sources"))) {
            String job = Values.text(s, "job");
            out.add(Values.text(s, "name") + "="
                    + (job != null ? "job:" + job : Values.text(s, "space") + ":" + Values.text(s, "path")));
        }
        return String.join(", ", out);
    }

    /** A source word: {@code [NAME=]SPACE:/PATH} or {@code [NAME=]job:ID}. */
    static Map<String, Object> source(Verb v, String word) {
        Map<String, Object> s = new LinkedHashMap<>();
        String rest = word;
        var named = PREFIX.matcher(word);
        if (named.matches() && !word.startsWith("account:") && !word.startsWith("job:")) {
            s.put("name", named.group(1));
            rest = named.group(2);
        }
        if (rest.startsWith("job:")) {
            s.put("job", rest.substring(4));
            return s;
        }
        FileAddress at = FileCommands.address(v, rest);
        s.put("space", at.space());
        s.put("path", "/" + String.join("/", at.segments()));
        return s;
    }

    @Command(name = "list", aliases = "ls", description = "Your panels, newest first, with their state.")
    static final class ListPanels extends Verb {
        @Override
        protected int execute() {
            output().list(List.of(Values.items(api().get(PATH))).iterator(), columns(msg()), o -> Values.text(o, "id"));
            return Exit.OK;
        }
    }

    @Command(name = "get", description = "One panel (-o json/yaml: the API's object).")
    static final class Get extends Verb {
        @Parameters(paramLabel = "PANEL", description = "Its id or its name.")
        String ref;

        @Override
        protected int execute() {
            output().one(api().get(path(this, ref)), columns(msg()), o -> Values.text(o, "id"));
            return Exit.OK;
        }
    }

    @Command(
            name = "create",
            description = {
                "Make a panel over one to eight log folders and start its TensorBoard as a job in the current account.",
                "A source is SPACE:/PATH (user:/runs/exp1, account:SLUG:/logs, public:/x) or job:ID (that job's"
                        + " working directory), each optionally NAME= for its runs' prefix (train=job:j7k3f9)."
            })
    static final class Create extends Verb {
        @Parameters(index = "0", paramLabel = "NAME", description = "1 to 63 lowercase letters, digits or -.")
        String name;

        @Parameters(index = "1..*", arity = "1..*", paramLabel = "SOURCE", description = "The log folders.")
        List<String> sources;

        @Override
        protected int execute() {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("name", name);
            body.put("sources", sources.stream().map(w -> source(this, w)).toList());
            Object made = api().post(PATH, body);
            if (output().human()) {
                out().println(msg().get(
                                "tensorboard.created",
                                Values.text(made, "name"),
                                Values.text(made, "id"),
                                Values.text(made, "job")));
            } else {
                output().object(made);
            }
            return Exit.OK;
        }
    }

    @Command(
            name = "open",
            description = "Print a one-time URL into a running panel, on its own app origin (good for a minute).")
    static final class Open extends Verb {
        @Parameters(paramLabel = "PANEL", description = "Its id or its name.")
        String ref;

        @Override
        protected int execute() {
            Object opened = api().post(path(this, ref) + "/open", Map.of());
            if (output().human()) {
                out().println(Values.text(opened, "url"));
            } else {
                output().object(opened);
            }
            return Exit.OK;
        }
    }

    @Command(name = "stop", description = "Stop a panel's TensorBoard (its folders stay).")
    static final class Stop extends Verb {
        @Parameters(paramLabel = "PANEL", description = "Its id or its name.")
        String ref;

        @Override
        protected int execute() {
            Object p = api().post(path(this, ref) + "/stop", Map.of());
            err().println(msg().get("tensorboard.stopped", Values.text(p, "name")));
            return Exit.OK;
        }
    }

    @Command(name = "start", description = "Start a stopped panel again (a new job, so a new origin: open it again).")
    static final class Start extends Verb {
        @Parameters(paramLabel = "PANEL", description = "Its id or its name.")
        String ref;

        @Override
        protected int execute() {
            Object p = api().post(path(this, ref) + "/start", Map.of());
            err().println(msg().get("tensorboard.started", Values.text(p, "name"), Values.text(p, "job")));
            return Exit.OK;
        }
    }

    @Command(
            name = "delete",
            aliases = "rm",
            description = "Stop and delete a panel; the log folders are never touched.")
    static final class Delete extends Verb {
        @Parameters(paramLabel = "PANEL", description = "Its id or its name.")
        String ref;

        @Override
        protected int execute() {
            String at = path(this, ref);
            confirm(msg().get("tensorboard.confirmDelete", ref));
            api().delete(at);
            err().println(msg().get("tensorboard.deleted", ref));
            return Exit.OK;
        }
    }
}
