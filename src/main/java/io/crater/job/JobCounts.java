package io.crater.job;

import io.crater.platform.Sql;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;

/** How many jobs each account has in each active state: one GROUP BY over the jobs' (account, state) index. */
public final class JobCounts {

    /** The states counted: Crater's queue and the states that hold quota. */
    public static final List<String> ACTIVE = List.of("Queued", "Admitted", "Pending", "Running", "Stopping");

    /** One account's jobs in one state. */
    public record Count(long account, String state, long jobs) {}

    private JobCounts() {}

    /** The counts of every account with active jobs, in the caller's session. */
    public static Uni<List<Count>> active() {
        return Sql.rows(
                        "SELECT account_id, state, count(*) FROM jobs WHERE state IN ("
                                + Sql.placeholders(ACTIVE.size()) + ") GROUP BY account_id, state",
                        ACTIVE.toArray())
                .map(rows -> {
                    List<Count> out = new ArrayList<>();
                    rows.forEach(r -> out.add(new Count(Sql.longOf(r[0]), (String) r[1], Sql.longOf(r[2]))));
                    return out;
                });
    }
}
