package io.crater.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code crater job why}: the wait explanation ({@code GET /api/v1/jobs/{id}/wait}) in words: every reason with
 * its numbers, the place in the line, the estimate and the numbered suggestions; {@code --apply N} follows one as
 * the console does (a resubmission with the change that replaces the waiting job, or a request for a quota grant).
 */
@Command(
        mixinStandardHelpOptions = true,
        name = "why",
        description = {
            "Explain why a job waits, and follow a suggestion.",
            "Every reason with its numbers, its place in the line, when it should start, and what would make it start"
                    + " now (numbered). --apply N follows suggestion N after asking (--yes for scripts)."
        })
final class JobWhy extends Verb {

    /** Suggestions followed by resubmitting the job with their change (and stopping the waiting one). */
    static final Set<String> RESUBMIT = Set.of("FewerAccelerators", "OtherModel", "RunAsBackfill");

    @Parameters(paramLabel = "JOB", description = "The job's id.")
    String job;

    @Option(
            names = "--apply",
            paramLabel = "N",
            description = "Follow suggestion N: resubmit with its change, replacing the waiting job; or, for a"
                    + " quota grant, ask the account's admins for it.")
    Integer apply;

    @Option(
            names = "--reason",
            paramLabel = "TEXT",
            description = "With --apply of a grant: why you need it (default: the suggestion's own sentence).")
    String reason;

    @Option(
            names = "--until",
            paramLabel = "DURATION",
            defaultValue = "1d",
            description = "With --apply of a grant: how long it should last (default: ${DEFAULT-VALUE}).")
    String until;

    @Override
    protected int execute() {
        Map<String, Object> wait = Values.map(api().get(JobCommands.path(job) + "/wait"));
        if (apply == null) {
            if (output().human()) {
                out().print(explain(job, wait, msg()));
            } else {
                output().object(wait);
            }
            return Exit.OK;
        }
        List<Object> suggestions = Values.list(wait.get("suggestions"));
        if (apply < 1 || apply > suggestions.size()) {
            throw new CliException(Exit.USAGE, msg().get("why.noSuggestion", apply, suggestions.size()));
        }
        Map<String, Object> s = Values.map(suggestions.get(apply - 1));
        String code = Values.str(s.get("code"));
        Object result;
        if (RESUBMIT.contains(code)) {
            confirm(msg().get("why.confirmResubmit", job, new Problems(msg()).suggestion(s)));
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("changes", s.get("change"));
            body.put("replace", true);
            result = api().post(JobCommands.path(job) + "/resubmit", body);
            err().println(msg().get("why.resubmitted", Values.text(result, "id"), job));
        } else if ("RequestGrant".equals(code)) {
            result = requestGrant(s);
        } else {
            throw new CliException(Exit.USAGE, msg().get("why.cannotApply", apply, code));
        }
        if (output().human()) {
            out().println(Values.text(result, "id"));
        } else {
            output().object(result);
        }
        return Exit.OK;
    }

    private Object requestGrant(Map<String, Object> s) {
        Duration d = JobWait.duration(until, msg());
        String account = Values.text(api().get(JobCommands.path(job)), "job.account");
        Map<String, Object> change = Values.map(s.get("change"));
        confirm(msg().get("why.confirmGrant", change.get("amount"), change.get("resource"), account, until));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("kind", "quota-grant");
        body.put("account", account);
        body.put("resource", change.get("resource"));
        body.put("amount", Values.str(change.get("amount")));
        body.put("until", now().plus(d).toString());
        body.put("reason", reason != null ? reason : "job " + job + ": " + s.get("message"));
        Object approval = api().post("/api/v1/approvals", body);
        err().println(msg().get("why.requested", Values.text(approval, "id")));
        return approval;
    }

    /** The explanation for a person, section by section (sections without content are left out). */
    static String explain(String id, Map<String, Object> wait, Messages msg) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        out.println(msg.get("why.state", id, Values.str(wait.get("state"))));
        Problems words = new Problems(msg);
        List<Object> reasons = Values.list(wait.get("reasons"));
        if (!reasons.isEmpty()) {
            out.println(msg.get("why.reasons"));
            reasons.forEach(r -> out.println("  - " + words.reason(Values.map(r))));
        }
        Object p = wait.get("position");
        if (p != null) {
            out.println(msg.get("why.positionLine")
                    + msg.get(
                            "why.position",
                            Values.at(p, "inAccount"),
                            Values.at(p, "accountWaiting"),
                            Values.at(p, "inCluster"),
                            Values.at(p, "clusterWaiting")));
            for (Object a : Values.list(Values.at(p, "ahead"))) {
                out.println("  " + ahead(a, msg));
            }
        }
        estimate(out, Values.map(wait.get("estimate")), words, msg);
        List<Object> suggestions = Values.list(wait.get("suggestions"));
        if (!suggestions.isEmpty()) {
            out.println(msg.get("why.suggestions"));
            for (int i = 0; i < suggestions.size(); i++) {
                Object s = suggestions.get(i);
                out.println(
                        "  " + (i + 1) + ". " + words.suggestion(Values.map(s)) + " [" + Values.text(s, "code") + "]");
            }
            out.println(msg.get("why.applyHint", id));
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static String ahead(Object a, Messages msg) {
        String who = Values.text(a, "id") == null
                ? msg.get("why.hiddenJob")
                : Values.text(a, "id") + " " + Values.text(a, "name") + " (" + Values.text(a, "owner") + ")";
        return who + " · " + Values.text(a, "priority") + " · " + JobDescribe.requests(a)
                + (Boolean.TRUE.equals(Values.at(a, "sameAccount")) ? " · " + msg.get("why.sameAccount") : "");
    }

    private static void estimate(PrintStream out, Map<String, Object> e, Problems words, Messages msg) {
        if (e.isEmpty()) {
            return;
        }
        Instant startBy = Values.instant(e.get("startBy"));
        if (startBy != null) {
            out.println(msg.get("why.estimateLine") + msg.get("why.startBy", JobDescribe.time(e.get("startBy"))));
            List<Object> jobs = Values.list(e.get("jobs"));
            if (!jobs.isEmpty()) {
                out.println(msg.get(
                        "why.waitsFor",
                        String.join(
                                ", ",
                                jobs.stream()
                                        .map(j -> Values.text(j, "id") == null
                                                ? msg.get("why.hiddenJob")
                                                : Values.text(j, "id") + " (" + Values.text(j, "name") + ")")
                                        .toList())));
            }
        } else if (e.get("unknown") != null) {
            out.println(
                    msg.get("why.estimateLine") + msg.get("why.unknown", words.reason(Values.map(e.get("unknown")))));
        }
    }
}
