package io.crater.cli;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code crater job …}: submit, list, read, follow, wait for, explain, change and reach jobs. */
@Command(
        mixinStandardHelpOptions = true,
        name = "job",
        description = "Jobs: submit, list, read, wait for, explain, stop, clone and connect to them.",
        subcommands = {
            JobCommands.ListJobs.class,
            JobDescribe.Get.class,
            JobSubmit.class,
            JobLogs.class,
            JobCommands.Events.class,
            JobWait.class,
            JobWhy.class,
            JobActions.Stop.class,
            JobActions.Delete.class,
            JobActions.Resubmit.class,
            JobActions.Clone.class,
            JobConnect.Ssh.class,
            JobConnect.PortForward.class,
            JobConnect.Open.class
        })
final class JobCommands {

    /** The states a job ends in. */
    static final Set<String> FINAL = Set.of("Succeeded", "Failed", "Stopped", "Rejected");

    JobCommands() {}

    /** The path of a job (its id checked to be one before it reaches a URL). */
    static String path(String id) {
        return "/api/v1/jobs/" + Api.seg(id);
    }

    /** The list's columns, kueuectl's choice where the API gives the value. */
    static List<Output.Column> columns(Messages msg, Instant now) {
        return List.of(
                Output.Column.path(msg.get("col.id"), "id"),
                Output.Column.path(msg.get("col.name"), "name"),
                Output.Column.path(msg.get("col.account"), "account"),
                Output.Column.path(msg.get("col.owner"), "owner"),
                Output.Column.path(msg.get("col.kind"), "kind"),
                Output.Column.state(msg.get("col.state"), o -> Values.text(o, "state")),
                Output.Column.of(msg.get("col.accelerators"), JobCommands::accelerators),
                Output.Column.of(msg.get("col.jobAge"), o -> Values.age(Values.at(o, "createdAt"), now)),
                Output.Column.of(
                        msg.get("col.duration"),
                        o -> Values.between(Values.at(o, "startedAt"), Values.at(o, "finishedAt"), now)),
                Output.Column.wide(msg.get("col.cpu"), o -> Values.text(o, "requests.cpu")),
                Output.Column.wide(msg.get("col.memory"), o -> Values.text(o, "requests.memory")),
                Output.Column.wide(
                        msg.get("col.borrowing"),
                        o -> Boolean.TRUE.equals(Values.at(o, "borrowing")) ? msg.get("word.yes") : ""),
                Output.Column.wide(msg.get("col.reasons"), JobCommands::reasonCodes));
    }

    /** {@code 4 nvidia-a100-80gb}: every requested resource but CPU and memory, with its count. */
    static String accelerators(Object job) {
        List<String> parts = new ArrayList<>();
        Values.map(Values.at(job, "requests")).forEach((res, amount) -> {
            if (!res.equals("cpu") && !res.equals("memory") && !"0".equals(Values.str(amount))) {
                parts.add(amount + " " + res);
            }
        });
        return String.join(", ", parts);
    }

    static String reasonCodes(Object job) {
        return String.join(
                ",",
                Values.list(Values.at(job, "reasons")).stream()
                        .map(r -> Values.text(r, "code"))
                        .toList());
    }

    @Command(
            mixinStandardHelpOptions = true,
            name = "list",
            aliases = "ls",
            description = {
                "List jobs, newest first.",
                "The current account's jobs; with --all-accounts (or no account chosen) those of all your accounts,"
                        + " every account's for a platform admin. Pages are fetched as they are printed."
            })
    static final class ListJobs extends Verb {

        @Option(
                names = "--state",
                paramLabel = "STATE",
                description = "Only jobs in this state: Queued, Admitted, Pending, Running, Stopping, Succeeded,"
                        + " Failed, Stopped or Rejected.")
        String state;

        @Option(
                names = "--kind",
                paramLabel = "KIND",
                description = "Only jobs of this kind: jupyter, webide, custom, pytorch or inference.")
        String kind;

        @Option(names = "--model", paramLabel = "MODEL", description = "Only jobs asking for this accelerator model.")
        String model;

        @Option(names = "--owner", paramLabel = "USER", description = "Only jobs of this user (a username).")
        String owner;

        @Option(names = "--mine", description = "Only your own jobs.")
        boolean mine;

        @Option(
                names = {"-A", "--all-accounts"},
                description = "Jobs of all your accounts (every account for a platform admin), not only the current.")
        boolean allAccounts;

        @Option(names = "--oldest-first", description = "Oldest first instead of newest first.")
        boolean oldestFirst;

        @Option(
                names = "--max-items",
                paramLabel = "N",
                description = "Stop after N jobs (default: all of them, page by page).")
        int maxItems;

        @Override
        protected int execute() {
            if (maxItems < 0) {
                throw new CliException(Exit.USAGE, msg().get("job.badMaxItems", maxItems));
            }
            Map<String, Object> q = new LinkedHashMap<>();
            q.put("account", allAccounts ? null : api().account());
            q.put("state", state);
            q.put("kind", kind);
            q.put("model", model);
            q.put("owner", owner);
            q.put("mine", mine);
            q.put("sort", oldestFirst ? "created" : null);
            List<String> ids = new ArrayList<>();
            Iterator<List<Object>> pages = pages("/api/v1/jobs", q, maxItems);
            Iterator<List<Object>> remembering = new Iterator<>() {
                @Override
                public boolean hasNext() {
                    return pages.hasNext();
                }

                @Override
                public List<Object> next() {
                    List<Object> page = pages.next();
                    page.forEach(j -> ids.add(Values.text(j, "id")));
                    return page;
                }
            };
            output().list(remembering, columns(msg(), now()), o -> Values.text(o, "id"));
            NameCache.remember(term(), NameCache.JOBS, ids);
            return Exit.OK;
        }
    }

    @Command(
            mixinStandardHelpOptions = true,
            name = "events",
            description = "A job's state history and its Kubernetes events, oldest first"
                    + " (-o json: {\"history\": [...], \"events\": [...]} as the API gives them).")
    static final class Events extends Verb {

        @Parameters(paramLabel = "JOB", description = "The job's id.")
        String job;

        @Override
        protected int execute() {
            Map<String, Object> detail = Values.map(api().get(path(job)));
            if (!output().human()) {
                Map<String, Object> both = new LinkedHashMap<>();
                both.put("history", detail.get("history"));
                both.put("events", detail.get("events"));
                output().object(both);
                return Exit.OK;
            }
            List<Object> rows = timeline(detail, msg());
            output().list(
                            List.of(rows).iterator(),
                            List.of(
                                    Output.Column.of(msg().get("col.time"), o -> JobDescribe.time(Values.at(o, "at"))),
                                    Output.Column.path(msg().get("col.type"), "type"),
                                    Output.Column.path(msg().get("col.reason"), "reason"),
                                    Output.Column.path(msg().get("col.object"), "object"),
                                    Output.Column.path(msg().get("col.message"), "message")),
                            o -> Values.text(o, "reason"));
            return Exit.OK;
        }

        /** History rows ({@code State}, {@code from → to}) and events merged by time. */
        static List<Object> timeline(Map<String, Object> detail, Messages msg) {
            List<Map<String, Object>> rows = new ArrayList<>();
            for (Object h : Values.list(detail.get("history"))) {
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("at", Values.at(h, "at"));
                r.put("type", msg.get("job.event.state"));
                r.put("reason", Values.text(h, "reason"));
                String from = Values.text(h, "from");
                r.put("object", (from == null ? "" : from + " → ") + Values.str(Values.at(h, "to")));
                r.put("message", Values.text(h, "message"));
                rows.add(r);
            }
            for (Object e : Values.list(detail.get("events"))) {
                Map<String, Object> r = new LinkedHashMap<>(Values.map(e));
                Object count = r.get("count");
                if (count instanceof Number n && n.intValue() > 1) {
                    r.put("message", r.get("message") + " (×" + n + ")");
                }
                rows.add(r);
            }
            rows.sort(Comparator.comparing(r -> {
                Instant t = Values.instant(r.get("at"));
                return t == null ? Instant.EPOCH : t;
            }));
            return new ArrayList<>(rows);
        }
    }
}
