package io.crater.job;

import io.crater.account.Memberships;
import io.crater.events.EventHub;
import io.crater.identity.CurrentUser;
import io.crater.platform.PgNotifications;
import io.crater.platform.Sql;
import io.crater.platform.Threads;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Job changes on the events stream. A trigger notifies {@code crater_jobs} with the job's id at every commit that
 * changes a job's state, reasons, borrowing or deletion, on any replica; every replica coalesces those ids for
 * 150 ms, reads the jobs and publishes one {@code job} event each (a {@code job-deleted} event for a deleted
 * job) under the topics {@code jobs}, {@code jobs:<account>} and {@code job:<id>}. Only platform admins and the
 * members of the job's account receive it.
 */
@ApplicationScoped
public class JobStream {

    private static final Logger LOG = Logger.getLogger(JobStream.class);
    static final String CHANNEL = "crater_jobs";

    @Inject
    PgNotifications notifications;

    @Inject
    Memberships memberships;

    @Inject
    EventHub hub;

    @Inject
    JobQueries jobs;

    private final Set<String> pending = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService flusher = Threads.scheduler("crater-job-stream");

    void onStart(@Observes @Priority(75) StartupEvent event) {
        notifications.listen(CHANNEL, pending::add);
        flusher.scheduleWithFixedDelay(this::flush, 150, 150, TimeUnit.MILLISECONDS);
    }

    void onStop(@Observes ShutdownEvent event) {
        flusher.shutdownNow();
    }

    private void flush() {
        if (pending.isEmpty()) {
            return;
        }
        List<String> ids = new ArrayList<>(pending);
        pending.removeAll(ids);
        try {
            List<Changed> rows = VertxContextSupport.subscribeAndAwait(() -> Panache.withSession(() -> Sql.rows(
                            JobQueries.SUMMARY_COLUMNS + ", j.deleted_at IS NOT NULL FROM jobs j WHERE j.public_id IN ("
                                    + Sql.placeholders(ids.size()) + ")",
                            ids.toArray())
                    .map(found -> found.stream().map(Changed::of).toList())
                    .flatMap(changed -> jobs.named(
                                    changed.stream().map(Changed::job).toList())
                            .map(named -> java.util.stream.IntStream.range(0, changed.size())
                                    .mapToObj(i -> new Changed(
                                            named.get(i), changed.get(i).deleted()))
                                    .toList()))));
            Map<Long, Map<String, Long>> requests = VertxContextSupport.subscribeAndAwait(() -> Panache.withSession(
                    () -> jobs.requestsOf(rows.stream().map(Changed::job).toList())));
            for (Changed r : rows) {
                publish(r, requests.getOrDefault(r.job().id(), Map.of()));
            }
        } catch (Throwable e) {
            LOG.warnf("publishing job changes failed (%s); they are retried", e.getMessage());
            pending.addAll(ids);
        }
    }

    /** A changed job's summary row and whether it was deleted. */
    record Changed(JobSummaryRow job, boolean deleted) {
        static Changed of(Object[] r) {
            return new Changed(JobSummaryRow.of(r), (Boolean) r[JobSummaryRow.COLUMN_COUNT]);
        }
    }

    private void publish(Changed r, Map<String, Long> requests) {
        String publicId = r.job().publicId();
        String account = r.job().account();
        long accountId = r.job().accountId();
        boolean deleted = r.deleted();
        hub.publish(
                Set.of("jobs", "jobs:" + account, "job:" + publicId),
                deleted ? "job-deleted" : "job",
                deleted ? Map.of("id", publicId) : jobs.summaryOf(r.job(), requests),
                u -> CurrentUser.isAdmin(u) || memberships.isMember(u.id(), accountId));
    }
}
