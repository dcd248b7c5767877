package io.crater.approval;

import io.crater.platform.Sql;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/** Approved job locks as other features read them: how long each job is kept from idle reclamation. */
@ApplicationScoped
public class JobLocks {

    /** A job and the latest end of its approved locks. */
    record Lock(String job, Instant until) {
        static Lock of(Object[] r) {
            return new Lock((String) r[0], Sql.instant(r[1]));
        }
    }

    /**
     * The latest end of the approved locks of each of these jobs (by public id; a job without one is left out), in
     * the caller's session.
     */
    public Uni<Map<String, Instant>> until(Collection<String> jobs) {
        if (jobs.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return Sql.rows(
                        "SELECT job_public_id, max(until) FROM approvals WHERE kind = 'job-lock' AND state = 'approved'"
                                + " AND job_public_id IN (SELECT unnest(string_to_array(?1, ',')))"
                                + " GROUP BY job_public_id",
                        String.join(",", jobs))
                .map(rows -> {
                    Map<String, Instant> out = new HashMap<>();
                    rows.stream().map(Lock::of).forEach(l -> out.put(l.job(), l.until()));
                    return out;
                });
    }
}
