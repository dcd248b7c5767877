package io.crater.tensorboard;

import io.crater.interactive.AppActivity;
import io.crater.job.JobLookups;
import io.crater.job.JobStops;
import io.crater.platform.Leadership;
import io.crater.platform.Threads;
import io.crater.policy.TensorboardPanels;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Stops idle TensorBoard panels, on the leader every {@code crater.tensorboard.check-interval}: a running panel
 * nobody used through the app proxy for {@code crater.tensorboard.idle-timeout} ({@link TensorboardPanels#idle}) is
 * stopped as Crater stops a job itself, with the reason {@code TensorboardIdle}, and keeps that reason until it is
 * started again. The stop is conditional on the job still running, so a check repeated after a change of leader
 * changes nothing twice. The same loop forgets the apps' last requests the idle stop no longer needs
 * ({@link #retention}), so {@code app_activity} does not grow with every job that ever had an app.
 */
@ApplicationScoped
class TensorboardIdle {

    static final String REASON = "TensorboardIdle";
    private static final Logger LOG = Logger.getLogger(TensorboardIdle.class);

    @Inject
    TensorboardConfig config;

    @Inject
    TensorboardQueries queries;

    @Inject
    JobLookups lookups;

    @Inject
    AppActivity activity;

    @Inject
    JobStops stops;

    @Inject
    Leadership leadership;

    @Inject
    Clock clock;

    private final ScheduledExecutorService worker = Threads.scheduler("crater-tensorboard-idle");

    /** A running panel and when it was last used. */
    private record Running(TensorboardQueries.PanelRow panel, JobLookups.Status job, Instant lastRequest) {}

    void onStart(@Observes StartupEvent event) {
        if (config.idleTimeout().isZero()) {
            LOG.info("idle TensorBoard panels are never stopped (crater.tensorboard.idle-timeout=0)");
        }
        long every = config.checkInterval().toMillis();
        worker.scheduleWithFixedDelay(this::check, every, every, TimeUnit.MILLISECONDS);
    }

    /**
     * How long a last request is kept: twice the idle timeout, so a mark older than that can no longer keep a panel
     * running (without it the panel's start counts, which is earlier still); a day when panels never idle out, as
     * nothing then reads the marks.
     */
    static Duration retention(Duration idleTimeout) {
        return idleTimeout.isZero() ? Duration.ofDays(1) : idleTimeout.multipliedBy(2);
    }

    void onStop(@Observes ShutdownEvent event) {
        worker.shutdownNow();
    }

    private void check() {
        if (!leadership.leading()) {
            return;
        }
        try {
            if (!config.idleTimeout().isZero()) {
                List<Running> running = VertxContextSupport.subscribeAndAwait(() -> Panache.withSession(this::running));
                Instant now = clock.instant();
                for (Running r : running) {
                    if (TensorboardPanels.idle(r.job().startedAt(), r.lastRequest(), now, config.idleTimeout())) {
                        stop(r, now);
                    }
                }
            }
            prune();
        } catch (Throwable e) {
            if (Leadership.Fenced.in(e)) {
                LOG.info("app activity: no longer the leader; nothing pruned");
            } else if (!worker.isShutdown()) {
                LOG.warn("the idle check of TensorBoard panels failed; the next one retries", e);
            }
        }
    }

    /** Drops the apps' last requests older than {@link #retention}, fenced like the stops. */
    private void prune() throws Throwable {
        Instant before = clock.instant().minus(retention(config.idleTimeout()));
        int n = VertxContextSupport.subscribeAndAwait(
                () -> Panache.withTransaction(() -> leadership.fenced().flatMap(x -> activity.prune(before))));
        if (n > 0) {
            LOG.debugf("forgot %d apps' last requests made before %s", n, before);
        }
    }

    private Uni<List<Running>> running() {
        return queries.withJobs()
                .flatMap(panels -> lookups.statuses(panels.stream()
                                .map(TensorboardQueries.PanelRow::jobId)
                                .toList())
                        .flatMap(st -> {
                            List<Map.Entry<TensorboardQueries.PanelRow, JobLookups.Status>> up = panels.stream()
                                    .map(p -> Map.entry(p, st.get(p.jobId())))
                                    .filter(e -> e.getValue() != null
                                            && "Running".equals(e.getValue().state())
                                            && !e.getValue().stopRequested())
                                    .toList();
                            return activity.last(up.stream()
                                            .map(e -> e.getValue().publicId())
                                            .toList())
                                    .map(used -> up.stream()
                                            .map(e -> new Running(
                                                    e.getKey(),
                                                    e.getValue(),
                                                    used.get(e.getValue().publicId())))
                                            .filter(Objects::nonNull)
                                            .toList());
                        }));
    }

    private void stop(Running r, Instant now) {
        long minutes = config.idleTimeout().toMinutes();
        String idleFor = minutes > 0 ? minutes + " min" : config.idleTimeout().toSeconds() + " s";
        String message = "TensorBoard panel " + r.panel().name() + " was not used for " + idleFor
                + "; start it again to reopen it";
        try {
            boolean stopped = VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> leadership
                    .fenced()
                    .flatMap(x -> stops.markStopping(
                                    r.job().id(),
                                    REASON,
                                    message,
                                    Map.of(
                                            "panel", r.panel().publicId(),
                                            "name", r.panel().name(),
                                            "idleSeconds", config.idleTimeout().toSeconds()))
                            .call(ok -> ok
                                    ? queries.stopped(r.panel().id(), REASON, now)
                                    : Uni.createFrom().item(0)))));
            if (stopped) {
                LOG.infof(
                        "stopped idle TensorBoard panel %s (job %s)",
                        r.panel().publicId(), r.job().publicId());
                stops.release(r.job().publicId());
            }
        } catch (Throwable e) {
            if (Leadership.Fenced.in(e)) {
                LOG.infof(
                        "idle panel %s: no longer the leader; nothing done",
                        r.panel().publicId());
            } else if (!worker.isShutdown()) {
                LOG.warnf(
                        "stopping idle panel %s failed (%s); the next check retries",
                        r.panel().publicId(), e.getMessage());
            }
        }
    }
}
