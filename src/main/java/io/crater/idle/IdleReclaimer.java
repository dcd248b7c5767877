package io.crater.idle;

import io.crater.admission.AdmissionService;
import io.crater.cluster.ClusterCache;
import io.crater.job.JobStops;
import io.crater.platform.Threads;
import io.crater.policy.IdlePolicy;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * The idle check, run every {@code crater.idle.check-interval} by the replica that admits (the holder of the
 * admission Lease): each running interactive job holding accelerators is judged on its samples, then warned, cleared
 * or stopped. Its own thread reads the metrics and deletes stopped jobs' Volcano Jobs, so neither blocks the event
 * loop; one job's failure does not hold back the others, and a metrics source that fails stops nothing.
 */
@ApplicationScoped
class IdleReclaimer {

    private static final Logger LOG = Logger.getLogger(IdleReclaimer.class);

    @Inject
    IdleConfig config;

    @Inject
    IdleService idle;

    @Inject
    GpuMetricsSource source;

    @Inject
    AdmissionService admission;

    @Inject
    ClusterCache cache;

    @Inject
    JobStops jobs;

    @Inject
    Clock clock;

    private final ScheduledExecutorService worker = Threads.scheduler("crater-idle");
    private final AtomicBoolean toldOff = new AtomicBoolean();

    void onStart(@Observes @Priority(80) StartupEvent event) {
        if (!config.enabled()) {
            LOG.info("idle reclamation: disabled (crater.idle.enabled=false)");
            return;
        }
        long every = config.checkInterval().toMillis();
        worker.scheduleWithFixedDelay(this::check, every, every, TimeUnit.MILLISECONDS);
    }

    void onStop(@Observes ShutdownEvent event) {
        worker.shutdownNow();
    }

    private void check() {
        if (!admission.leading() || !cache.synced()) {
            return;
        }
        Optional<GpuMetrics> metrics = source.get();
        if (metrics.isEmpty()) {
            if (toldOff.compareAndSet(false, true)) {
                LOG.warnf("idle reclamation is off: %s", source.whyNone());
            }
            return;
        }
        try {
            List<IdleService.Candidate> running =
                    VertxContextSupport.subscribeAndAwait(() -> Panache.withSession(idle::candidates));
            for (IdleService.Candidate c : running) {
                check(c, metrics.get());
            }
        } catch (Throwable e) {
            if (!worker.isShutdown()) {
                LOG.warn("idle check failed; the next one retries", e);
            }
        }
    }

    private void check(IdleService.Candidate c, GpuMetrics metrics) {
        try {
            Instant now = clock.instant();
            IdlePolicy.Decision d = idle.decide(c, metrics, now)
                    .await()
                    .atMost(config.prometheusTimeout().plusSeconds(5));
            boolean stopped = VertxContextSupport.subscribeAndAwait(() ->
                    Panache.withTransaction(() -> admission.fenced().flatMap(x -> idle.act(c, d, now))));
            if (stopped) {
                LOG.infof("idle reclamation: stopped job %s (%s)", c.publicId(), d.message());
                jobs.release(c.publicId());
            }
        } catch (Throwable e) {
            if (io.crater.platform.Leadership.Fenced.in(e)) {
                LOG.infof("idle check of job %s: no longer the leader; nothing done", c.publicId());
            } else if (!worker.isShutdown()) {
                LOG.warnf("idle check of job %s failed (%s); the next check retries", c.publicId(), e.getMessage());
            }
        }
    }
}
