package io.crater.events;

import io.crater.platform.PgNotifications;
import io.crater.platform.Sql;
import io.crater.platform.Threads;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * The events stream's log ({@code event_log}), read the same way by every replica. A row is read once the
 * transaction that wrote it is over: its xid is below the oldest transaction still running ({@code
 * pg_snapshot_xmin}), so no row can appear later before one already read, and reading in (xid, seq) order gives
 * every replica the same sequence. Jobs' rows are written by a trigger in the transaction that changed the job;
 * nodes' by every replica's cluster cache. A {@code NOTIFY crater_events} at commit wakes the readers; a read
 * every 250 ms catches the rest (a row waits there for the transactions older than it).
 */
@ApplicationScoped
public class EventLog {

    private static final Logger LOG = Logger.getLogger(EventLog.class);
    static final String CHANNEL = "crater_events";
    static final int BATCH = 2000;
    private static final long PRUNE_EVERY_NANOS = TimeUnit.MINUTES.toNanos(5);

    @Inject
    PgNotifications notifications;

    @Inject
    EventHub hub;

    @Inject
    Instance<LoggedEvents> features;

    private final ScheduledExecutorService reader = Threads.scheduler("crater-event-log");
    private final AtomicBoolean woken = new AtomicBoolean();
    private volatile EventPosition cursor;
    private long lastPruneNanos = System.nanoTime() - PRUNE_EVERY_NANOS;

    /** A row of the log. */
    record LogRow(String kind, LoggedEvents.Entry entry) {
        static LogRow of(Object[] r) {
            return new LogRow(
                    (String) r[2],
                    new LoggedEvents.Entry(
                            new EventPosition(Long.parseLong((String) r[0]), Sql.longOf(r[1])), (String) r[3], (String)
                                    r[4]));
        }
    }

    void onStart(@Observes @Priority(70) StartupEvent event) {
        notifications.listen(CHANNEL, payload -> wake());
        notifications.onReconnect(this::wake);
        reader.scheduleWithFixedDelay(this::drain, 0, 250, TimeUnit.MILLISECONDS);
    }

    void onStop(@Observes ShutdownEvent event) {
        reader.shutdownNow();
    }

    /**
     * Appends a row in the caller's transaction (the cluster cache's node views). The JSON is bound as text: a
     * string bound straight to a {@code jsonb} parameter would be stored as a JSON string.
     */
    public Uni<Void> append(String kind, String subject, String json) {
        return Sql.rows(
                        "INSERT INTO event_log (kind, subject, data) VALUES (?1, ?2, CAST(CAST(?3 AS text) AS jsonb))"
                                + " RETURNING seq",
                        kind,
                        subject,
                        json)
                .flatMap(r -> Sql.rows("SELECT 1 FROM pg_notify('" + CHANNEL + "', '')"))
                .replaceWithVoid();
    }

    private void wake() {
        if (woken.compareAndSet(false, true)) {
            reader.schedule(this::drain, 20, TimeUnit.MILLISECONDS);
        }
    }

    private void drain() {
        woken.set(false);
        try {
            if (cursor == null) {
                cursor = VertxContextSupport.subscribeAndAwait(() ->
                        Panache.withSession(() -> Sql.strings("SELECT pg_snapshot_xmin(pg_current_snapshot())::text")
                                .map(x -> new EventPosition(Long.parseLong(x.get(0)), 0))));
                hub.startAt(cursor);
            }
            List<LogRow> rows;
            do {
                EventPosition from = cursor;
                rows = VertxContextSupport.subscribeAndAwait(() -> Panache.withSession(() -> Sql.rows(
                                "SELECT xid::text, seq, kind, subject, data::text FROM event_log"
                                        + " WHERE (xid, seq) > (CAST(?1 AS xid8), ?2)"
                                        + " AND xid < pg_snapshot_xmin(pg_current_snapshot())"
                                        + " ORDER BY xid, seq LIMIT " + BATCH,
                                Long.toString(from.xid()),
                                from.seq())
                        .map(found -> found.stream().map(LogRow::of).toList())));
                publish(rows);
            } while (rows.size() == BATCH);
            prune();
        } catch (Throwable e) {
            LOG.warnf("reading the event log failed (%s); it is read again", e.getMessage());
        }
    }

    /** Hands each run of consecutive rows of one kind to its feature; the cursor moves past what was published. */
    private void publish(List<LogRow> rows) throws Throwable {
        Map<String, LoggedEvents> byKind =
                features.stream().collect(Collectors.toMap(LoggedEvents::kind, Function.identity()));
        int i = 0;
        while (i < rows.size()) {
            String kind = rows.get(i).kind();
            List<LoggedEvents.Entry> run = new ArrayList<>();
            while (i < rows.size() && rows.get(i).kind().equals(kind)) {
                run.add(rows.get(i++).entry());
            }
            LoggedEvents feature = byKind.get(kind);
            if (feature != null) {
                feature.publish(run);
            }
            cursor = run.get(run.size() - 1).position();
        }
    }

    /** An hour of the log is kept: far more than a client that reconnects needs. */
    private void prune() throws Throwable {
        long now = System.nanoTime();
        if (now - lastPruneNanos < PRUNE_EVERY_NANOS) {
            return;
        }
        lastPruneNanos = now;
        VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(
                () -> Sql.rows("DELETE FROM event_log WHERE at < now() - interval '1 hour' RETURNING 1")));
    }
}
