package io.crater.job;

import io.crater.identity.Caller;
import io.crater.platform.OnContext;
import io.crater.platform.Sql;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The names of the jobs a waiting job waits for, for those who may see them: members of the job's account and
 * platform admins (docs/governance.md). Others get the job without id or name.
 */
@ApplicationScoped
public class WaitQueries {

    /** The wait with {@code estimate.jobs} filled from {@code estimate.waitsFor}. */
    public Uni<JobViews.Wait> named(JobViews.Wait wait, Caller caller) {
        if (wait.estimate() == null || wait.estimate().waitsFor().isEmpty()) {
            return Uni.createFrom().item(wait);
        }
        List<String> ids = wait.estimate().waitsFor();
        List<Object> params = new ArrayList<>(ids);
        params.add(caller.userId());
        params.add(caller.platformAdmin());
        int n = ids.size();
        // The explanation comes from a worker thread; the names are read on a Vert.x context.
        return OnContext.run(() -> Panache.withSession(() -> Sql.rows(
                        "SELECT j.public_id, j.name FROM jobs j WHERE j.public_id IN (" + Sql.placeholders(n) + ")"
                                + " AND (?" + (n + 2) + " OR EXISTS (SELECT 1 FROM account_members m"
                                + " WHERE m.account_id = j.account_id AND m.user_id = ?" + (n + 1) + "))",
                        params.toArray()))
                .map(rows -> {
                    Map<String, String> names = new HashMap<>();
                    rows.forEach(r -> names.put((String) r[0], (String) r[1]));
                    return withJobs(wait, names);
                }));
    }

    /** The wait with one entry per job waited for: id and name when visible ({@code names} has it), else neither. */
    static JobViews.Wait withJobs(JobViews.Wait wait, Map<String, String> names) {
        JobViews.WaitEstimate e = wait.estimate();
        List<JobViews.WaitsForJob> jobs = e.waitsFor().stream()
                .map(id -> names.containsKey(id)
                        ? new JobViews.WaitsForJob(id, names.get(id))
                        : new JobViews.WaitsForJob(null, null))
                .toList();
        return new JobViews.Wait(
                wait.state(),
                wait.reasons(),
                wait.position(),
                new JobViews.WaitEstimate(e.startBy(), e.waitsFor(), e.unknown(), jobs),
                wait.suggestions());
    }
}
