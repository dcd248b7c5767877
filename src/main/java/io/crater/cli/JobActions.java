package io.crater.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** What changes a job: stop, delete, resubmit, clone. */
final class JobActions {

    private JobActions() {}

    /**
     * Does {@code act} for each job, going on past a refusal: every refusal is printed, and the exit code is the
     * first refusal's (0 when all went through).
     */
    static int each(Verb v, List<String> jobs, Function<String, Object> act, String doneKey) {
        List<Object> done = new ArrayList<>();
        int exit = Exit.OK;
        for (String id : jobs) {
            try {
                Object r = act.apply(id);
                done.add(r == null ? Map.of("id", id) : r);
                if (v.output().human()) {
                    v.out().println(v.msg().get(doneKey, id, Values.text(r, "state")));
                }
            } catch (CliException e) {
                v.err().println(v.msg().get("error.prefix") + id + ": " + e.getMessage());
                exit = exit == Exit.OK ? e.exitCode() : exit;
            }
        }
        if (!v.output().human()) {
            v.output().list(List.of(done).iterator(), List.of(), o -> Values.text(o, "id"));
        }
        return exit;
    }

    @Command(
            mixinStandardHelpOptions = true,
            name = "stop",
            description = "Stop jobs (yours; an account admin's or platform admin's any), after asking (--yes).")
    static final class Stop extends Verb {

        @Parameters(arity = "1..*", paramLabel = "JOB", description = "The jobs' ids.")
        List<String> jobs;

        @Override
        protected int execute() {
            confirm(msg().get(
                            jobs.size() == 1 ? "stop.confirm" : "stop.confirmMany",
                            jobs.size(),
                            String.join(", ", jobs)));
            return each(this, jobs, id -> api().post(JobCommands.path(id) + "/stop", null), "stop.done");
        }
    }

    @Command(
            mixinStandardHelpOptions = true,
            name = "delete",
            aliases = "rm",
            description = "Delete finished jobs from every list (kept for usage and audit), after asking (--yes).")
    static final class Delete extends Verb {

        @Parameters(arity = "1..*", paramLabel = "JOB", description = "The jobs' ids.")
        List<String> jobs;

        @Override
        protected int execute() {
            confirm(msg().get(
                            jobs.size() == 1 ? "delete.confirm" : "delete.confirmMany",
                            jobs.size(),
                            String.join(", ", jobs)));
            return each(this, jobs, id -> api().delete(JobCommands.path(id)), "delete.done");
        }
    }

    @Command(
            mixinStandardHelpOptions = true,
            name = "resubmit",
            description = {
                "Submit a job again with the same spec.",
                "In the same account, owned by you and linked to it. --change FIELD=VALUE changes"
                        + " resources.accelerators, resources.acceleratorModel, resources.cpu, resources.memory,"
                        + " timeLimit, priority or backfill. Prints the new job's id."
            })
    static final class Resubmit extends Verb {

        @Parameters(paramLabel = "JOB", description = "The job's id.")
        String job;

        @Option(names = "--change", paramLabel = "FIELD=VALUE", description = "A change to make (repeatable).")
        List<String> changes = List.of();

        @Option(names = "--replace", description = "Also stop the original while it still waits.")
        boolean replace;

        @Override
        protected int execute() {
            Map<String, Object> body = new LinkedHashMap<>();
            if (!changes.isEmpty()) {
                Map<String, Object> typed = new LinkedHashMap<>();
                JobSubmit.parameters(changes, msg()).forEach((k, v) -> typed.put(k, typed(k, Values.str(v), null)));
                body.put("changes", typed);
            }
            if (replace) {
                body.put("replace", true);
            }
            Object created = api().post(JobCommands.path(job) + "/resubmit", body);
            if (output().human()) {
                out().println(Values.text(created, "id"));
            } else {
                output().object(created);
            }
            return Exit.OK;
        }
    }

    /** Integer fields of a job spec: a value given for them on the command line is sent as a number. */
    static final List<String> NUMBERS = List.of("resources.accelerators", "workers");

    /** A command-line value as the spec field wants it: a number, a boolean, a list of words, or text. */
    static Object typed(String field, String value, Object current) {
        if (NUMBERS.contains(field) || current instanceof Number) {
            if (!value.strip().matches("-?\\d{1,9}")) {
                throw new CliException(Exit.USAGE, field + ": '" + value + "' is not a whole number");
            }
            return Integer.parseInt(value.strip());
        }
        if (field.equals("backfill") || current instanceof Boolean) {
            if (!value.strip().matches("true|false")) {
                throw new CliException(Exit.USAGE, field + ": '" + value + "' is not true or false");
            }
            return Boolean.parseBoolean(value.strip());
        }
        if (current instanceof List<?> || field.equals("command") || field.equals("args")) {
            return words(value);
        }
        return value;
    }

    /** A command line split into words as a POSIX shell would, without expanding anything. */
    static List<String> words(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder w = null;
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else if (c == '\\' && quote == '"' && i + 1 < line.length()) {
                    w.append(line.charAt(++i));
                } else {
                    w.append(c);
                }
            } else if (Character.isWhitespace(c)) {
                if (w != null) {
                    out.add(w.toString());
                    w = null;
                }
            } else {
                w = w == null ? new StringBuilder() : w;
                if (c == '\'' || c == '"') {
                    quote = c;
                } else if (c == '\\' && i + 1 < line.length()) {
                    w.append(line.charAt(++i));
                } else {
                    w.append(c);
                }
            }
        }
        if (quote != 0) {
            throw new CliException(Exit.USAGE, "unterminated quote in: " + line);
        }
        if (w != null) {
            out.add(w.toString());
        }
        return out;
    }

    @Command(
            mixinStandardHelpOptions = true,
            name = "clone",
            description = {
                "Submit a copy of a job, with changes.",
                "A job rendered from a template is rendered again from that template version with its values"
                        + " (--set PARAM=VALUE changes them); a job given in full is copied (--set FIELD=VALUE changes"
                        + " a field: image, resources.accelerators, env.NAME, command, ...). Linked to the original."
            })
    static final class Clone extends Verb {

        @Parameters(paramLabel = "JOB", description = "The job to copy.")
        String job;

        @Option(names = "--set", paramLabel = "KEY=VALUE", description = "A parameter's or field's value (repeatable).")
        List<String> set = List.of();

        @Option(
                names = "--name",
                paramLabel = "NAME",
                description = "The copy's name (default: the original's + (copy)).")
        String name;

        @Option(names = "--dry-run", description = "Only show what admission would decide now; create nothing.")
        boolean dryRun;

        @Override
        protected int execute() {
            Map<String, Object> detail = Values.map(api().get(JobCommands.path(job)));
            Map<String, Object> body = JobClones.body(this, job, detail, JobSubmit.parameters(set, msg()), name);
            Object answer = api().post("/api/v1/jobs" + (dryRun ? "?dryRun=true" : ""), body);
            if (dryRun) {
                return JobSubmit.printDryRun(this, answer);
            }
            if (output().human()) {
                out().println(Values.text(answer, "id"));
            } else {
                output().object(answer);
            }
            return Exit.OK;
        }
    }
}
