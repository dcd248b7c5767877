package io.crater.interactive;

import io.crater.platform.Sql;
import io.crater.platform.Threads;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * When each job's app was last used through the proxy: every request the proxy lets through (and every session
 * entered) marks its job in memory; every {@code crater.apps.activity-flush} the marks are written to
 * {@code app_activity} in one statement, so the replica that stops idle TensorBoard panels sees the requests every
 * replica passed. A write that fails keeps its marks for the next one.
 */
@ApplicationScoped
public class AppActivity {

    private static final Logger LOG = Logger.getLogger(AppActivity.class);

    @Inject
    AppConfig config;

    @Inject
    Clock clock;

    private final Map<String, Instant> marks = new ConcurrentHashMap<>();
    private final ScheduledExecutorService worker = Threads.scheduler("crater-app-activity");

    void onStart(@Observes StartupEvent event) {
        long every = Math.max(100, config.activityFlush().toMillis());
        worker.scheduleWithFixedDelay(this::flush, every, every, TimeUnit.MILLISECONDS);
    }

    void onStop(@Observes ShutdownEvent event) {
        worker.shutdownNow();
    }

    /** The proxy passed a request to {@code job}'s app now. */
    void seen(String job) {
        marks.put(job, clock.instant());
    }

    /** The last request passed to each of these jobs' apps that was written down (absent: none), in the caller's session. */
    public Uni<Map<String, Instant>> last(List<String> jobs) {
        if (jobs.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return Sql.rows(
                        "SELECT job_public_id, last_request_at FROM app_activity"
                                + " WHERE job_public_id = ANY (string_to_array(?1, ','))",
                        String.join(",", jobs))
                .map(rows -> {
                    Map<String, Instant> out = new HashMap<>();
                    rows.stream().map(LastRequest::of).forEach(l -> out.put(l.job(), l.at()));
                    return out;
                });
    }

    /** Forgets the last requests made before {@code before} (the leader's idle check keeps only what it needs). */
    public Uni<Integer> prune(Instant before) {
        return Sql.update("DELETE FROM app_activity WHERE last_request_at < ?1", before);
    }

    /** A job's last request as written down. */
    record LastRequest(String job, Instant at) {
        static LastRequest of(Object[] r) {
            return new LastRequest((String) r[0], Sql.instant(r[1]));
        }
    }

    private void flush() {
        if (marks.isEmpty()) {
            return;
        }
        Map<String, Instant> batch = new HashMap<>(marks);
        batch.forEach(marks::remove);
        try {
            VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> Sql.update(
                    "INSERT INTO app_activity (job_public_id, last_request_at)"
                            + " SELECT j, CAST(t AS timestamptz) FROM unnest(string_to_array(?1, ','),"
                            + " string_to_array(?2, ',')) AS x (j, t)"
                            + " ON CONFLICT (job_public_id) DO UPDATE SET last_request_at ="
                            + " GREATEST(app_activity.last_request_at, EXCLUDED.last_request_at)",
                    String.join(",", batch.keySet()),
                    String.join(
                            ",", batch.values().stream().map(Instant::toString).toList()))));
        } catch (Throwable e) {
            batch.forEach(marks::putIfAbsent);
            if (!worker.isShutdown()) {
                LOG.warnf("writing the apps' last requests failed (%s); the next write retries", e.getMessage());
            }
        }
    }
}
