package io.crater.cli;

import java.util.List;
import java.util.Map;

/**
 * Turns the API's RFC 9457 problems into the sentences a person reads: the detail, each field error under its
 * field, and every admission reason in words with its numbers.
 */
public final class Problems {

    /** A refusal by the API, with the problem it answered (for commands that look inside it). */
    public static final class ApiError extends CliException {
        private final int status;
        private final Map<?, ?> problem;

        ApiError(int exitCode, String message, int status, Map<?, ?> problem) {
            super(exitCode, message);
            this.status = status;
            this.problem = problem;
        }

        public int status() {
            return status;
        }

        public Map<?, ?> problem() {
            return problem;
        }

        public String code() {
            return problem == null ? null : Values.str(problem.get("code"));
        }
    }

    private final Messages msg;
    private final java.time.Clock clock;

    public Problems(Messages msg) {
        this(msg, java.time.Clock.systemUTC());
    }

    /** With the clock reasons that say "since when" are dated by. */
    public Problems(Messages msg, java.time.Clock clock) {
        this.msg = msg;
        this.clock = clock;
    }

    ApiError error(Api.Raw raw) {
        Map<?, ?> problem = null;
        if (raw.contentType().contains("json") && raw.body().length > 0) {
            try {
                if (Json.parse(raw.body()) instanceof Map<?, ?> m) {
                    problem = m;
                }
            } catch (java.io.IOException e) {
                problem = null;
            }
        }
        String text = problem != null
                ? describe(problem)
                : msg.get("error.status", raw.status(), raw.text().strip());
        String code = problem == null ? null : Values.str(problem.get("code"));
        if (raw.status() == 401 && (code == null || code.equals("Unauthenticated"))) {
            text = text + "\n" + msg.get("error.signIn");
        }
        return new ApiError(Exit.forStatus(raw.status()), text, raw.status(), problem);
    }

    /** The detail, then one indented line per field error and per reason. */
    public String describe(Map<?, ?> problem) {
        StringBuilder b = new StringBuilder();
        String detail = Values.str(problem.get("detail"));
        b.append(detail != null ? detail : Values.str(problem.get("title")));
        String code = Values.str(problem.get("code"));
        if (code != null) {
            b.append(" (").append(code).append(')');
        }
        if (problem.get("errors") instanceof List<?> errors) {
            for (Object e : errors) {
                if (e instanceof Map<?, ?> m) {
                    b.append("\n  ")
                            .append(Values.str(m.get("field")))
                            .append(": ")
                            .append(Values.str(m.get("message")));
                }
            }
        }
        if (problem.get("reasons") instanceof List<?> reasons) {
            for (Object r : reasons) {
                if (r instanceof Map<?, ?> m) {
                    b.append("\n  - ").append(reason(m));
                }
            }
        }
        return b.toString();
    }

    /**
     * One reason: its sentence (which carries the numbers) and its code. In Chinese the sentence is built from the
     * code, numbers and args as the console builds it; otherwise, or when that cannot be done, it is the server's.
     */
    public String reason(Map<?, ?> r) {
        String code = Values.str(r.get("code"));
        String words = msg.chinese() && code != null ? Reasons.chinese().reason(r, clock.instant()) : null;
        String message = words != null ? words : Values.str(r.get("message"));
        return (message != null ? message : code) + (code != null && message != null ? " [" + code + "]" : "");
    }

    /** What a wait suggestion says (without its code), worded like a reason. */
    public String suggestion(Map<?, ?> s) {
        String words =
                msg.chinese() && s.get("code") != null ? Reasons.chinese().suggestion(s) : null;
        return words != null ? words : Values.str(s.get("message"));
    }

    String unreachable(String server) {
        return msg.get("error.unreachable", server);
    }

    String timedOut(String server) {
        return msg.get("error.timeout", server);
    }
}
