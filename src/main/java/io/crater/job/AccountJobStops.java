package io.crater.job;

import io.crater.account.AccountJobs;
import io.crater.platform.Sql;
import io.crater.platform.Unis;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;

/** The jobs feature's side of {@link AccountJobs}: stopping an archived account's jobs, and whether any ran. */
@ApplicationScoped
class AccountJobStops implements AccountJobs {

    static final String REASON = HistoryCode.AccountArchived.name();

    @Inject
    JobStops jobs;

    /** A job of the account that has not ended. */
    record Live(long id, String publicId, String state) {
        static Live of(Object[] r) {
            return new Live(Sql.longOf(r[0]), (String) r[1], (String) r[2]);
        }
    }

    @Override
    public Uni<Stopped> stopAll(long accountId, String slug, String by) {
        String message = "account '" + slug + "' was archived by " + by;
        java.util.Map<String, String> args = java.util.Map.of("account", slug, "by", by);
        return Sql.rows(
                        "SELECT id, public_id, state FROM jobs WHERE account_id = ?1"
                                + " AND state IN ('Queued', 'Admitted', 'Pending', 'Running') ORDER BY id FOR UPDATE",
                        accountId)
                .flatMap(rows -> {
                    List<String> release = new ArrayList<>();
                    return Unis.sequentially(rows.stream().map(Live::of).toList(), r -> {
                                long id = r.id();
                                String state = r.state();
                                if (state.equals("Queued")) {
                                    return JobStates.move(id, state, "Stopped", REASON, message, args);
                                }
                                release.add(r.publicId());
                                return Sql.update("UPDATE jobs SET stop_requested = TRUE WHERE id = ?1", id)
                                        .flatMap(x -> JobStates.move(id, state, "Stopping", REASON, message, args));
                            })
                            .map(v -> new Stopped(rows.size(), release));
                });
    }

    @Override
    public Uni<Boolean> anySubmitted() {
        return Sql.row("SELECT EXISTS (SELECT 1 FROM jobs)")
                .map(r -> r.map(x -> Boolean.TRUE.equals(x[0])).orElse(false));
    }

    @Override
    public void release(List<String> publicIds) {
        publicIds.forEach(jobs::release);
    }
}
