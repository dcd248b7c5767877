package io.crater.job;

import io.crater.platform.Json;
import io.crater.platform.Sql;
import io.crater.policy.Reason;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A job's history entries as shown: each with its code and arguments. Entries written without arguments take what
 * the job row still says: an admission whether it borrowed, a rejection the numbers and names of its stored reason.
 */
final class JobHistory {

    private JobHistory() {}

    /**
     * @param rows {@code at, from_state, to_state, reason, message, args as text}, oldest first
     * @param borrowing whether the job was admitted borrowing
     * @param reasons the job's stored reasons (a rejected job's are why it was rejected)
     */
    static List<JobViews.Transition> of(List<Object[]> rows, boolean borrowing, List<Reason> reasons) {
        return rows.stream()
                .map(h -> {
                    String code = JobQueries.blank((String) h[3]);
                    Map<String, Object> args = h[5] == null ? null : argsOf((String) h[5]);
                    if (args == null) {
                        args = derived(code, (String) h[2], borrowing, reasons);
                    }
                    return new JobViews.Transition(
                            Sql.instant(h[0]),
                            JobQueries.blank((String) h[1]),
                            (String) h[2],
                            code,
                            JobQueries.blank((String) h[4]),
                            args);
                })
                .toList();
    }

    /** The arguments an entry written without them can still be given; null when none are known. */
    static Map<String, Object> derived(String code, String to, boolean borrowing, List<Reason> reasons) {
        if (code == null) {
            return null;
        }
        if (code.equals(HistoryCode.Admitted.name())) {
            return Map.of("borrowing", borrowing ? 1L : 0L);
        }
        if (to.equals("Rejected")) {
            return reasons.stream()
                    .filter(r -> r.code().equals(code))
                    .findFirst()
                    .map(JobHistory::argsOf)
                    .orElse(null);
        }
        return null;
    }

    /** A reason's numbers and names as one argument map. */
    static Map<String, Object> argsOf(Reason r) {
        Map<String, Object> out = new LinkedHashMap<>(r.numbers());
        out.putAll(r.args());
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> argsOf(String json) {
        Object v = Json.read(json);
        return v instanceof Map<?, ?> m ? (Map<String, Object>) m : null;
    }
}
