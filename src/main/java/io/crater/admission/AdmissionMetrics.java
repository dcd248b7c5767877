package io.crater.admission;

import io.crater.account.AccountService;
import io.crater.job.JobAdmissions;
import io.crater.platform.Threads;
import io.crater.policy.AdmissionRound;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Admission's figures at {@code /q/metrics} (docs/monitoring.md), on the leader only, so a dashboard summing over
 * replicas counts each job once: every {@value #REFRESH_SECONDS} s the jobs of each account by active state and its
 * queue length (one GROUP BY); at each round the decisions and, per account, how long each admitted job waited from
 * submission to admission.
 */
@ApplicationScoped
public class AdmissionMetrics {

    private static final Logger LOG = Logger.getLogger(AdmissionMetrics.class);
    static final long REFRESH_SECONDS = 15;
    /** The wait-time histogram's buckets. */
    static final Duration[] WAIT_BUCKETS = {
        Duration.ofSeconds(1),
        Duration.ofSeconds(10),
        Duration.ofMinutes(1),
        Duration.ofMinutes(5),
        Duration.ofMinutes(15),
        Duration.ofHours(1),
        Duration.ofHours(4),
        Duration.ofHours(12),
        Duration.ofDays(1)
    };

    @Inject
    MeterRegistry meters;

    @Inject
    AccountService accounts;

    @Inject
    AdmissionService admission;

    @Inject
    JobAdmissions jobCounts;

    private final ScheduledExecutorService worker = Threads.scheduler("crater-admission-metrics");
    private MultiGauge jobs;
    private MultiGauge queue;

    void onStart(@Observes StartupEvent event) {
        jobs = MultiGauge.builder("crater.jobs")
                .description("Jobs per account in each active state (Queued, Admitted, Pending, Running, Stopping)")
                .register(meters);
        queue = MultiGauge.builder("crater.queue.length")
                .description("Jobs waiting in Crater's queue per account")
                .register(meters);
        worker.scheduleWithFixedDelay(this::tick, 1, REFRESH_SECONDS, TimeUnit.SECONDS);
    }

    void onStop(@Observes ShutdownEvent event) {
        worker.shutdownNow();
    }

    private void tick() {
        try {
            if (!admission.leading()) {
                jobs.register(List.of(), true);
                queue.register(List.of(), true);
                return;
            }
            VertxContextSupport.subscribeAndAwait(() -> Panache.withSession(this::refresh));
        } catch (Throwable e) {
            if (!worker.isShutdown()) {
                LOG.warn("admission metrics: refreshing the job counts failed; the next run retries", e);
            }
        }
    }

    /** Replaces the job and queue gauges' rows from one count of the jobs, in the caller's session. */
    Uni<Void> refresh() {
        return jobCounts
                .activeCounts()
                .flatMap(counts -> {
                    Set<Long> ids = new HashSet<>();
                    counts.forEach(c -> ids.add(c.account()));
                    return accounts.slugs(ids).invoke(slugs -> {
                        List<MultiGauge.Row<?>> byState = new ArrayList<>();
                        Map<String, Long> queued = new TreeMap<>();
                        for (JobAdmissions.Count c : counts) {
                            String account = slugs.getOrDefault(c.account(), String.valueOf(c.account()));
                            byState.add(MultiGauge.Row.of(Tags.of("account", account, "state", c.state()), c.jobs()));
                            queued.merge(account, "Queued".equals(c.state()) ? c.jobs() : 0L, Long::sum);
                        }
                        List<MultiGauge.Row<?>> lengths = new ArrayList<>();
                        queued.forEach((account, n) -> lengths.add(MultiGauge.Row.of(Tags.of("account", account), n)));
                        jobs.register(byState, true);
                        queue.register(lengths, true);
                    });
                })
                .replaceWithVoid();
    }

    /** Counts a committed round's decisions and records the wait of each job it admitted, in the caller's session. */
    Uni<Void> decided(AdmissionRound.Outcome outcome, Instant now) {
        List<AdmissionRound.Decided> admitted = outcome.admitted();
        meters.counter("crater.admission.decisions", "decision", "admitted").increment(admitted.size());
        meters.counter("crater.admission.decisions", "decision", "rejected")
                .increment(outcome.rejected().size());
        meters.counter("crater.admission.decisions", "decision", "waiting")
                .increment(outcome.waiting().size());
        if (admitted.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        Set<Long> ids = new HashSet<>();
        admitted.forEach(d -> ids.add(d.job().account()));
        return accounts.slugs(ids)
                .invoke(slugs -> admitted.forEach(d -> wait(slugs.getOrDefault(
                                d.job().account(), String.valueOf(d.job().account())))
                        .record(
                                Duration.between(d.job().submittedAt(), now).isNegative()
                                        ? Duration.ZERO
                                        : Duration.between(d.job().submittedAt(), now))))
                .replaceWithVoid()
                .onFailure()
                .invoke(e -> LOG.warn("admission metrics: recording the waits failed", e))
                .onFailure()
                .recoverWithNull();
    }

    private Timer wait(String account) {
        return Timer.builder("crater.queue.wait")
                .description("How long jobs waited from submission to admission")
                .tag("account", account)
                .serviceLevelObjectives(WAIT_BUCKETS)
                .register(meters);
    }
}
