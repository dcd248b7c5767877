package io.crater.job;

import io.crater.identity.Caller;
import io.crater.platform.Json;
import io.crater.platform.Sql;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What another feature reads of jobs it made or points at (TensorBoard panels): the state of several jobs at once,
 * and a visible job's working directory with whose it is.
 */
@ApplicationScoped
public class JobLookups {

    @Inject
    JobQueries queries;

    @Inject
    io.crater.account.AccountService accounts;

    @Inject
    io.crater.identity.UserService users;

    /**
     * A job as a panel shows it: its id, state, the reason of its last move (the stop's, when it ended), when it
     * started and ended, and the slug of its account.
     */
    public record Status(
            long id,
            String publicId,
            String state,
            String reason,
            Instant startedAt,
            Instant finishedAt,
            String account,
            boolean stopRequested) {

        /** Whether it has ended (a new one may start in its place). */
        public boolean ended() {
            return List.of("Succeeded", "Failed", "Stopped", "Rejected").contains(state);
        }
    }

    /** A job's working directory as its spec gives it (null: none), with its owner's user id and its account. */
    public record WorkingDir(String publicId, String workingDir, long ownerId, String ownerSlug, String account) {}

    /** The jobs with these ids (deleted ones too), by id, in the caller's session. */
    public Uni<Map<Long, Status>> statuses(Collection<Long> ids) {
        if (ids.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return Sql.rows(
                        "SELECT j.id, j.public_id, j.state, j.state_reason, j.started_at, j.finished_at, j.account_id,"
                                + " j.stop_requested FROM jobs j"
                                + " WHERE j.id = ANY (CAST(string_to_array(?1, ',') AS bigint[]))",
                        ids.stream().map(String::valueOf).collect(Collectors.joining(",")))
                .flatMap(rows -> accounts.slugs(rows.stream()
                                .map(r -> StatusRow.of(r).accountId())
                                .distinct()
                                .toList())
                        .map(slugs -> statuses(rows, slugs)));
    }

    /** A status row before its account's slug is known. */
    record StatusRow(Status status, long accountId) {
        static StatusRow of(Object[] r) {
            return new StatusRow(
                    new Status(
                            Sql.longOf(r[0]),
                            (String) r[1],
                            (String) r[2],
                            (String) r[3],
                            Sql.instant(r[4]),
                            Sql.instant(r[5]),
                            null,
                            Boolean.TRUE.equals(r[7])),
                    Sql.longOf(r[6]));
        }
    }

    private static Map<Long, Status> statuses(List<Object[]> rows, Map<Long, String> slugs) {
        Map<Long, Status> out = new HashMap<>();
        for (StatusRow x : rows.stream().map(StatusRow::of).toList()) {
            Status s = x.status();
            out.put(
                    s.id(),
                    new Status(
                            s.id(),
                            s.publicId(),
                            s.state(),
                            s.reason(),
                            s.startedAt(),
                            s.finishedAt(),
                            slugs.get(x.accountId()),
                            s.stopRequested()));
        }
        return out;
    }

    /** A job the caller may see (else 404/403 as for the job itself) with its working directory, in the session. */
    public Uni<WorkingDir> workingDir(String publicId, Caller caller) {
        return queries.visible(publicId, caller)
                .flatMap(v -> Sql.strings("SELECT CAST(j.spec AS text) FROM jobs j WHERE j.id = ?1", v.id())
                        .flatMap(specs -> users.get(v.row().userId()).map(u -> {
                            JobViews.SubmitJob spec = Json.read(specs.get(0), JobViews.SubmitJob.class);
                            String dir = spec.workingDir() == null
                                            || spec.workingDir().isBlank()
                                    ? null
                                    : spec.workingDir().trim();
                            return new WorkingDir(
                                    v.row().publicId(),
                                    dir,
                                    v.row().userId(),
                                    u.slug(),
                                    v.row().account());
                        })));
    }
}
