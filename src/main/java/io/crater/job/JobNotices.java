package io.crater.job;

import io.crater.notify.NotificationPreferences;
import io.crater.notify.NotificationService;
import io.crater.platform.Sql;
import io.crater.platform.Threads;
import io.crater.platform.Unis;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Tells owners about their jobs (docs/notifications.md): admitted, started, succeeded, failed (with the exit code
 * and reason), and still waiting after their threshold. A state move writes a notice in its own transaction
 * ({@link JobStates}); every replica claims due notices with {@code FOR UPDATE SKIP LOCKED} and writes the
 * notification and deletes the notice in one transaction, so a restart loses none and none is told twice. A
 * failure's notice waits for the archive of its containers' ends (at most 30 s) so it can say the exit code.
 */
@ApplicationScoped
class JobNotices {

    private static final Logger LOG = Logger.getLogger(JobNotices.class);

    /** The states a job's owner hears of, and the notification kind of each. */
    static final Map<String, String> KINDS = Map.of(
            "Admitted", "job.admitted",
            "Running", "job.started",
            "Succeeded", "job.succeeded",
            "Failed", "job.failed");

    private static final int BATCH = 50;

    @Inject
    NotificationService notifications;

    @Inject
    NotificationPreferences preferences;

    @Inject
    JobsConfig config;

    private final ScheduledExecutorService worker = Threads.scheduler("crater-job-notices");

    /**
     * The notices moves owe, in their transaction (after their history rows): only the first time a job reaches the
     * state (a job that runs again after a restart of its pods was already said to have started). One statement for
     * all the moves.
     */
    static Uni<Integer> owed(List<JobStates.Change> moves) {
        List<JobStates.Change> owing =
                moves.stream().filter(m -> KINDS.containsKey(m.to())).toList();
        if (owing.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        return Sql.update(
                "INSERT INTO job_notices (job_id, state) SELECT m.id, m.state FROM"
                        + " (SELECT unnest(string_to_array(?1, ',')::bigint[]) AS id,"
                        + " unnest(string_to_array(?2, ',')) AS state) AS m"
                        + " WHERE (SELECT count(*) FROM job_transitions t WHERE t.job_id = m.id AND t.to_state = m.state) = 1"
                        + " ORDER BY m.id",
                Sql.commaList(owing.stream().map(JobStates.Change::jobId).toList()),
                Sql.commaList(owing.stream().map(JobStates.Change::to).toList()));
    }

    void onStart(@Observes StartupEvent event) {
        long every = config.noticeInterval().toMillis();
        worker.scheduleWithFixedDelay(this::look, every, every, TimeUnit.MILLISECONDS);
    }

    void onStop(@Observes ShutdownEvent event) {
        worker.shutdownNow();
    }

    private void look() {
        try {
            int told;
            do {
                told = VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(this::tell));
            } while (told == BATCH && !worker.isShutdown());
            VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(this::waiting));
        } catch (Throwable e) {
            if (!worker.isShutdown()) {
                LOG.warnf("job notices: a look failed (%s); the next look retries", e.getMessage());
            }
        }
    }

    /** A due notice with what its notification says. */
    record Due(
            long noticeId,
            String state,
            String publicId,
            String name,
            long userId,
            long accountId,
            String reason,
            String message,
            Integer exitCode,
            String exitReason) {
        static final String COLUMNS = "n.id, n.state, j.public_id, j.name, j.user_id, j.account_id, j.state_reason,"
                + " j.state_message, x.exit_code, x.reason";

        static Due of(Object[] r) {
            return new Due(
                    Sql.longOf(r[0]),
                    (String) r[1],
                    (String) r[2],
                    (String) r[3],
                    Sql.longOf(r[4]),
                    Sql.longOf(r[5]),
                    (String) r[6],
                    (String) r[7],
                    Sql.intOrNull(r[8]),
                    (String) r[9]);
        }
    }

    /** Claims due notices, writes their notifications and deletes them; how many it told. */
    private Uni<Integer> tell() {
        return Sql.rows(
                        "SELECT " + Due.COLUMNS + " FROM job_notices n JOIN jobs j ON j.id = n.job_id"
                                + " LEFT JOIN LATERAL (SELECT a.exit_code, a.reason FROM job_archives a"
                                + "   WHERE a.job_id = j.id AND a.exit_code NOT IN (0, -1)"
                                + "   ORDER BY a.pod, a.container LIMIT 1) x ON TRUE"
                                + " WHERE n.state <> 'Failed' OR n.created_at < now() - interval '30 seconds'"
                                + "   OR (n.created_at < now() - interval '2 seconds'"
                                + "     AND EXISTS (SELECT 1 FROM job_archives a WHERE a.job_id = n.job_id))"
                                + " ORDER BY n.id LIMIT ?1 FOR UPDATE OF n SKIP LOCKED",
                        BATCH)
                .map(rows -> rows.stream().map(Due::of).toList())
                .flatMap(due -> Unis.sequentially(due, this::tell)
                        .flatMap(x -> due.isEmpty()
                                ? Uni.createFrom().item(0)
                                : Sql.update(
                                        "DELETE FROM job_notices WHERE id IN"
                                                + " (SELECT unnest(string_to_array(?1, ','))::bigint)",
                                        Sql.commaList(
                                                due.stream().map(Due::noticeId).toList())))
                        .replaceWith(due.size()));
    }

    private Uni<Void> tell(Due d) {
        String kind = KINDS.get(d.state());
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("job", d.publicId());
        args.put("name", d.name());
        if (d.state().equals("Failed") || d.state().equals("Admitted")) {
            args.put("reason", d.reason() == null ? "" : d.reason());
            args.put("detail", d.message() == null ? "" : d.message());
        }
        if (d.exitCode() != null) {
            args.put("exitCode", (long) d.exitCode());
            args.put("exitReason", d.exitReason() == null ? "" : d.exitReason());
        }
        return notifications.notify(d.userId(), d.accountId(), kind, message(d), "/jobs/" + d.publicId(), args);
    }

    /** The English text of a job's notice. */
    static String message(Due d) {
        String job = "Your job " + d.name() + " (" + d.publicId() + ")";
        String why = (d.reason() == null || d.reason().isEmpty() ? "" : d.reason())
                + (d.message() == null || d.message().isEmpty() ? "" : ": " + d.message());
        return switch (d.state()) {
            case "Admitted" ->
                job + " was admitted" + (d.message() == null || d.message().isEmpty() ? "" : " (" + d.message() + ")")
                        + ".";
            case "Running" -> job + " started running.";
            case "Succeeded" -> job + " succeeded.";
            default ->
                job + " failed"
                        + (d.exitCode() == null
                                ? ""
                                : " with exit code " + d.exitCode()
                                        + (d.exitReason() == null
                                                        || d.exitReason().isEmpty()
                                                ? ""
                                                : " (" + d.exitReason() + ")"))
                        + (why.isEmpty() ? "." : ": " + why + ".");
        };
    }

    /** A queued job not yet said to be waiting. */
    record Waiting(
            long id,
            long userId,
            String publicId,
            String name,
            long minutes,
            String reason,
            String detail,
            long accountId) {
        static final String COLUMNS = "j.id, j.user_id, j.public_id, j.name,"
                + " floor(extract(epoch FROM now() - j.created_at) / 60), j.reasons -> 0 ->> 'code',"
                + " j.reasons -> 0 ->> 'message', j.account_id";

        static Waiting of(Object[] r) {
            return new Waiting(
                    Sql.longOf(r[0]),
                    Sql.longOf(r[1]),
                    (String) r[2],
                    (String) r[3],
                    ((Number) r[4]).longValue(),
                    (String) r[5],
                    (String) r[6],
                    Sql.longOf(r[7]));
        }
    }

    /**
     * Tells the owners of jobs that have waited in the queue longer than their threshold, once per job: the mark
     * is set only on a job still queued and not yet marked, so two replicas looking at once tell it once.
     */
    private Uni<Void> waiting() {
        return Sql.longs("SELECT DISTINCT user_id FROM jobs WHERE state = 'Queued' AND waiting_noticed_at IS NULL"
                        + " AND created_at < now() - interval '1 minute'")
                .flatMap(users -> users.isEmpty()
                        ? Uni.createFrom().item(List.<Object[]>of())
                        : preferences.waitingMinutes(users).flatMap(chosen -> {
                            List<String> minutes = new ArrayList<>();
                            users.forEach(u -> minutes.add(Integer.toString(
                                    chosen.getOrDefault(u, NotificationPreferences.DEFAULT_WAITING_MINUTES))));
                            return Sql.rows(
                                    "UPDATE jobs j SET waiting_noticed_at = now()"
                                            + " FROM (SELECT unnest(string_to_array(?1, ','))::bigint AS uid,"
                                            + "   unnest(string_to_array(?2, ','))::int AS m) t"
                                            + " WHERE t.uid = j.user_id AND j.state = 'Queued' AND j.waiting_noticed_at IS NULL"
                                            + " AND j.created_at < now() - make_interval(mins => t.m)"
                                            + " RETURNING " + Waiting.COLUMNS,
                                    Sql.commaList(users),
                                    String.join(",", minutes));
                        }))
                .flatMap(
                        rows -> Unis.sequentially(rows.stream().map(Waiting::of).toList(), this::tellWaiting));
    }

    private Uni<Void> tellWaiting(Waiting w) {
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("job", w.publicId());
        args.put("name", w.name());
        args.put("minutes", w.minutes());
        args.put("reason", w.reason() == null ? "" : w.reason());
        args.put("detail", w.detail() == null ? "" : w.detail());
        String message = "Your job " + w.name() + " (" + w.publicId() + ") has waited " + w.minutes()
                + " min in the queue" + (w.detail() == null || w.detail().isEmpty() ? "." : ": " + w.detail() + ".");
        return notifications.notify(w.userId(), w.accountId(), "job.waiting", message, "/jobs/" + w.publicId(), args);
    }
}
