package io.crater.cli;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code crater job wait}: polls the job until it reaches the state asked for, showing its place in the line and
 * its estimated start on a terminal; exit 5 when {@code --timeout} ends it first, 1 when the job ends otherwise.
 */
@Command(
        mixinStandardHelpOptions = true,
        name = "wait",
        description = {
            "Wait until a job runs, ends or reaches a state.",
            "--for running (the default), done or a state. Exit 0 when it does, 5 on --timeout, 1 when the job ends"
                    + " without reaching it (for done: 1 unless it Succeeded)."
        })
final class JobWait extends Verb {

    static final List<String> STATES = List.of(
            "Queued", "Admitted", "Pending", "Running", "Stopping", "Succeeded", "Failed", "Stopped", "Rejected");

    private static final Duration POLL = Duration.ofSeconds(1);
    private static final Duration WAIT_POLL = Duration.ofSeconds(5);

    @Parameters(paramLabel = "JOB", description = "The job's id.")
    String job;

    @Option(
            names = "--for",
            paramLabel = "CONDITION",
            defaultValue = "running",
            description = "running (Running, or Succeeded if it ended first), done (any final state) or a state"
                    + " name such as Pending; default: ${DEFAULT-VALUE}.")
    String condition;

    @Option(
            names = "--timeout",
            paramLabel = "DURATION",
            description = "Give up after this long (30s, 5m, 2h, 1h30m; default: wait as long as it takes).")
    String timeout;

    @Override
    protected int execute() {
        Duration limit = timeout == null ? null : duration(timeout, msg());
        String target = target(condition, msg());
        Map<String, Object> summary = await(this, job, target, limit);
        if (!output().human()) {
            output().object(summary);
        } else {
            err().println(msg().get("wait.reached", job, Values.text(summary, "state")));
        }
        return "done".equals(target) && !"Succeeded".equals(Values.text(summary, "state")) ? Exit.ERROR : Exit.OK;
    }

    /** {@code running}, {@code done} or a state's proper name; anything else is a usage error. */
    static String target(String condition, Messages msg) {
        String c = condition.strip();
        if (c.equalsIgnoreCase("running") || c.equalsIgnoreCase("done")) {
            return c.toLowerCase(Locale.ROOT);
        }
        return STATES.stream()
                .filter(s -> s.equalsIgnoreCase(c))
                .findFirst()
                .orElseThrow(() -> new CliException(Exit.USAGE, msg.get("wait.badFor", condition)));
    }

    /** Whether a job in {@code state} has met {@code target}. */
    static boolean reached(String target, String state) {
        return switch (target) {
            case "running" -> state.equals("Running") || state.equals("Succeeded");
            case "started" -> state.equals("Running") || JobCommands.FINAL.contains(state);
            case "done" -> JobCommands.FINAL.contains(state);
            default -> state.equals(target);
        };
    }

    private static final Pattern PART = Pattern.compile("(\\d+)(ms|s|m|h|d)");

    /** {@code 90} (seconds), {@code 500ms}, {@code 30s}, {@code 5m}, {@code 2h}, {@code 1d}, {@code 1h30m}. */
    static Duration duration(String text, Messages msg) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        if (t.matches("\\d{1,9}")) {
            return Duration.ofSeconds(Long.parseLong(t));
        }
        Matcher m = PART.matcher(t);
        Duration d = Duration.ZERO;
        int at = 0;
        while (m.find() && m.start() == at) {
            long n = Long.parseLong(m.group(1));
            d = d.plus(
                    switch (m.group(2)) {
                        case "ms" -> Duration.ofMillis(n);
                        case "s" -> Duration.ofSeconds(n);
                        case "m" -> Duration.ofMinutes(n);
                        case "h" -> Duration.ofHours(n);
                        default -> Duration.ofDays(n);
                    });
            at = m.end();
        }
        if (at == 0 || at != t.length()) {
            throw new CliException(Exit.USAGE, msg.get("wait.badDuration", text));
        }
        return d;
    }

    /**
     * Polls the job until {@code target} is met and answers its summary; a final state that does not meet it is
     * an error (exit 1) with the state's reason, the limit passing is exit 5.
     */
    static Map<String, Object> await(Verb v, String id, String target, Duration limit) {
        long deadline = limit == null ? Long.MAX_VALUE : System.nanoTime() + limit.toNanos();
        Progress progress = new Progress(v, id);
        try {
            while (true) {
                Map<String, Object> detail = Values.map(v.api().get(JobCommands.path(id)));
                Map<String, Object> summary = Values.map(detail.get("job"));
                String state = Values.text(summary, "state");
                if (reached(target, state)) {
                    return summary;
                }
                if (JobCommands.FINAL.contains(state)) {
                    String why = Values.str(detail.get("stateMessage"));
                    throw new CliException(
                            Exit.ERROR,
                            v.msg()
                                    .get(
                                            "wait.ended",
                                            id,
                                            state,
                                            why == null ? Values.text(detail, "stateReason") : why));
                }
                progress.show(state);
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new CliException(Exit.TIMED_OUT, v.msg().get("wait.timedOut", id, state, limit));
                }
                sleep(Math.min(POLL.toNanos(), left));
            }
        } finally {
            progress.end();
        }
    }

    private static void sleep(long nanos) {
        try {
            Thread.sleep(Duration.ofNanos(nanos).toMillis() + 1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(Exit.ERROR, "interrupted");
        }
    }

    /**
     * What waiting shows on standard error: on a terminal one line rewritten in place with the state, the place
     * in the line and the estimate (read from {@code /wait} every few seconds while queued); elsewhere one line per
     * change of state.
     */
    static final class Progress {
        private final Verb v;
        private final String id;
        private String lastState;
        private String lastLine = "";
        private long nextWait;
        private String whereAndWhen = "";

        Progress(Verb v, String id) {
            this.v = v;
            this.id = id;
        }

        void show(String state) {
            if (!v.term().interactive()) {
                if (!state.equals(lastState)) {
                    v.err().println(v.msg().get("wait.state", id, state));
                }
                lastState = state;
                return;
            }
            if (state.equals("Queued") && System.nanoTime() >= nextWait) {
                whereAndWhen = whereAndWhen(Values.map(v.api().get(JobCommands.path(id) + "/wait")), v.msg());
                nextWait = System.nanoTime() + WAIT_POLL.toNanos();
            } else if (!state.equals("Queued")) {
                whereAndWhen = "";
            }
            String line = v.msg().get("wait.state", id, state) + whereAndWhen;
            v.err().print("\r" + line + " ".repeat(Math.max(0, Table.width(lastLine) - Table.width(line))));
            v.err().flush();
            lastLine = line;
            lastState = state;
        }

        void end() {
            if (v.term().interactive() && !lastLine.isEmpty()) {
                v.err().println();
            }
        }
    }

    /** {@code  · 2 of 3 in its account, 5 of 9 in the cluster · starts by …}, or "" when the API gives neither. */
    static String whereAndWhen(Map<String, Object> wait, Messages msg) {
        StringBuilder b = new StringBuilder();
        Object p = wait.get("position");
        if (p != null) {
            b.append(" · ")
                    .append(msg.get(
                            "why.position",
                            Values.at(p, "inAccount"),
                            Values.at(p, "accountWaiting"),
                            Values.at(p, "inCluster"),
                            Values.at(p, "clusterWaiting")));
        }
        Instant startBy = Values.instant(Values.at(wait, "estimate.startBy"));
        if (startBy != null) {
            b.append(" · ").append(msg.get("why.startBy", JobDescribe.time(startBy.toString())));
        }
        return b.toString();
    }
}
