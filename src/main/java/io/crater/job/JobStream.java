package io.crater.job;

import io.crater.account.Memberships;
import io.crater.events.EventHub;
import io.crater.events.EventPosition;
import io.crater.events.LoggedEvents;
import io.crater.identity.CurrentUser;
import io.crater.platform.Sql;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * Job changes on the events stream. A trigger writes a row to the event log at every change of a job's state,
 * reasons, borrowing or deletion, in the transaction that made it, on any replica; every replica reads the log
 * ({@link io.crater.events.EventLog}), reads the jobs of a run of rows (a job named twice once, at its last position) and
 * publishes one {@code job} event each (a {@code job-deleted} event for a deleted job) under the topics {@code
 * jobs}, {@code jobs:<account>} and {@code job:<id>}. Only platform admins and the members of the job's account
 * receive it.
 */
@ApplicationScoped
public class JobStream implements LoggedEvents {

    @Inject
    Memberships memberships;

    @Inject
    EventHub hub;

    @Inject
    JobQueries jobs;

    @Override
    public String kind() {
        return "job";
    }

    @Override
    public void publish(List<Entry> entries) throws Throwable {
        Map<String, EventPosition> latest = new LinkedHashMap<>();
        entries.forEach(e -> latest.put(e.subject(), e.position()));
        List<String> ids = new ArrayList<>(latest.keySet());
        List<Changed> rows = VertxContextSupport.subscribeAndAwait(() -> Panache.withSession(() -> Sql.rows(
                        JobQueries.SUMMARY_COLUMNS + ", j.deleted_at IS NOT NULL FROM jobs j"
                                + " WHERE j.public_id IN (SELECT unnest(string_to_array(?1, ',')))",
                        Sql.commaList(ids))
                .map(found -> found.stream().map(Changed::of).toList())
                .flatMap(changed -> jobs.named(
                                changed.stream().map(Changed::job).toList())
                        .map(named -> IntStream.range(0, changed.size())
                                .mapToObj(i ->
                                        new Changed(named.get(i), changed.get(i).deleted()))
                                .toList()))));
        rows.stream()
                .sorted(Comparator.comparing(r -> latest.get(r.job().publicId())))
                .forEach(r -> publish(latest.get(r.job().publicId()), r));
    }

    /** A changed job's summary row and whether it was deleted. */
    record Changed(JobSummaryRow job, boolean deleted) {
        static Changed of(Object[] r) {
            return new Changed(JobSummaryRow.of(r), (Boolean) r[JobSummaryRow.COLUMN_COUNT]);
        }
    }

    private void publish(EventPosition at, Changed r) {
        String publicId = r.job().publicId();
        String account = r.job().account();
        long accountId = r.job().accountId();
        boolean deleted = r.deleted();
        hub.publish(
                at,
                Set.of("jobs", "jobs:" + account, "job:" + publicId),
                deleted ? "job-deleted" : "job",
                deleted ? Map.of("id", publicId) : jobs.summaryOf(r.job()),
                u -> CurrentUser.isAdmin(u) || memberships.isMember(u.id(), accountId));
    }
}
