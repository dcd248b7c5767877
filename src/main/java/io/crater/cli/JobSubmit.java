package io.crater.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code crater job submit}: a job from a spec file (sent as YAML, so the server refuses unknown fields with their
 * line) or from a template with parameter values; {@code --dry-run} shows admission's decision and creates nothing.
 */
@Command(
        mixinStandardHelpOptions = true,
        name = "submit",
        description = {
            "Submit a job from a spec file or a template.",
            "To the current account: a spec file (-f, YAML or JSON; '-' reads stdin) or a template (--template NAME"
                    + " --set PARAM=VALUE ...). Prints the new job's id (-o json: the API's job)."
        })
final class JobSubmit extends Verb {

    /** How long after its log ends a followed job may take to be recorded as ended. */
    static final Duration FINISHING = Duration.ofMinutes(1);

    @Option(
            names = {"-f", "--file"},
            paramLabel = "FILE",
            description = "The job spec (docs/jobs.md), YAML or JSON; '-' reads standard input.")
    String file;

    @Option(
            names = {"-t", "--template"},
            paramLabel = "TEMPLATE",
            description = "Render the job from this template (see 'crater template list').")
    String template;

    @Option(
            names = "--template-version",
            paramLabel = "N",
            description = "With --template: this version (default: the latest).")
    Integer templateVersion;

    @Option(
            names = "--set",
            paramLabel = "PARAM=VALUE",
            description = "With --template: a parameter's value (repeatable).")
    List<String> set = List.of();

    @Option(names = "--name", paramLabel = "NAME", description = "With --template: the job's name.")
    String name;

    @Option(
            names = "--dry-run",
            description = "Only show what admission would decide now (ADMIT, QUEUE with reasons, REJECT) and create"
                    + " nothing; -o yaml prints the Kubernetes objects the job would become.")
    boolean dryRun;

    @Option(
            names = "--wait",
            description = "Then wait until it runs (or ends), showing its place in the line on a terminal.")
    boolean await;

    @Option(names = "--follow", description = "Then wait until it runs and follow its log until it ends.")
    boolean follow;

    @Option(
            names = "--timeout",
            paramLabel = "DURATION",
            description = "With --wait or --follow: give up waiting after this long (exit 5), e.g. 5m.")
    String timeout;

    @Option(
            names = "--idempotency-key",
            paramLabel = "KEY",
            description = "Makes retrying safe: the same key and request answer the job the first one created.")
    String idempotencyKey;

    @Override
    protected int execute() {
        Duration limit = timeout == null ? null : JobWait.duration(timeout, msg());
        Map<String, String> headers = idempotencyKey == null ? Map.of() : Map.of("Idempotency-Key", idempotencyKey);
        Api.Raw raw;
        String path = "/api/v1/jobs" + (dryRun ? "?dryRun=true" : "");
        if (file != null) {
            if (template != null || !set.isEmpty() || name != null || templateVersion != null) {
                throw new CliException(Exit.USAGE, msg().get("submit.fileOrTemplate"));
            }
            raw = api().send("POST", path, readSpec(), "application/yaml", headers);
        } else if (template != null) {
            raw = api().send("POST", path, Api.write(templateBody()), "application/json", headers);
        } else {
            throw new CliException(Exit.USAGE, msg().get("submit.needSpec"));
        }
        Object answer = Api.json(raw);
        if (dryRun) {
            return printDryRun(this, answer);
        }
        String id = Values.text(answer, "id");
        if (output().human()) {
            out().println(id);
        } else {
            output().object(answer);
        }
        if ("true".equals(raw.header("Idempotent-Replayed"))) {
            err().println(msg().get("submit.replayed", id));
        }
        if (follow) {
            JobWait.await(this, id, "started", limit);
            JobLogs.follow(this, id, null);
            JobWait.await(this, id, "Succeeded", FINISHING);
        } else if (await) {
            JobWait.await(this, id, "running", limit);
        }
        return Exit.OK;
    }

    private byte[] readSpec() {
        if (file.equals("-")) {
            return readAll().getBytes(StandardCharsets.UTF_8);
        }
        try {
            return Files.readAllBytes(Path.of(file));
        } catch (IOException e) {
            throw new CliException(Exit.USAGE, msg().get("submit.cannotRead", file, e.getMessage()));
        }
    }

    private Map<String, Object> templateBody() {
        Map<String, Object> ref = new LinkedHashMap<>();
        ref.put("id", template);
        if (templateVersion != null) {
            ref.put("version", templateVersion);
        }
        ref.put("parameters", parameters(set, msg()));
        Map<String, Object> body = new LinkedHashMap<>();
        if (name != null) {
            body.put("name", name);
        }
        body.put("template", ref);
        return body;
    }

    /** {@code k=v} pairs in order (values as strings, as template parameters travel); a pair without '=' is usage. */
    static Map<String, Object> parameters(List<String> pairs, Messages msg) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (String p : pairs) {
            int eq = p.indexOf('=');
            if (eq <= 0) {
                throw new CliException(Exit.USAGE, msg.get("submit.badSet", p));
            }
            out.put(p.substring(0, eq).strip(), p.substring(eq + 1));
        }
        return out;
    }

    /** A dry run's answer: the decision and its reasons for a person, the manifests with -o yaml, else the object. */
    static int printDryRun(Verb v, Object answer) {
        if (v.output().human()) {
            v.out().println(v.msg().get("submit.decision", Values.text(answer, "decision")));
            Problems words = new Problems(v.msg());
            Values.list(Values.at(answer, "reasons"))
                    .forEach(r -> v.out().println("  - " + words.reason(Values.map(r))));
            List<Object> borrowing = Values.list(Values.at(answer, "borrowing"));
            if (!borrowing.isEmpty()) {
                v.out()
                        .println(v.msg()
                                .get(
                                        "submit.borrowing",
                                        String.join(
                                                ", ",
                                                borrowing.stream()
                                                        .map(Values::str)
                                                        .toList())));
            }
            v.err().println(v.msg().get("submit.dryRunNothing"));
        } else if (v.output().yaml()) {
            v.out().print(Values.text(answer, "manifests"));
        } else {
            v.output().object(answer);
        }
        return "REJECT".equals(Values.text(answer, "decision")) ? Exit.ERROR : Exit.OK;
    }
}
