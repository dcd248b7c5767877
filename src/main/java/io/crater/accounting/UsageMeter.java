package io.crater.accounting;

import io.crater.job.JobHoldings;
import io.crater.platform.Sql;
import io.crater.policy.IdlePolicy;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * Measures how much of what jobs held of accelerators they used: every run reads the accelerator intervals not
 * measured to their end, asks the utilisation source for the mean of each step of their pods (one query per resource,
 * stretch and hundred jobs), and adds what the points give to each interval and to the hourly and daily rollups, in
 * one transaction. An interval is only added to while it is still measured up to where this run started from, so two
 * replicas measuring at once count each stretch once. Time without samples stays unknown: it is held, not measured.
 * Runs on settlement's thread, after each settlement; blocking.
 */
@ApplicationScoped
public class UsageMeter {

    private static final Logger LOG = Logger.getLogger(UsageMeter.class);
    static final int PAGE = 2000;
    static final int JOBS_PER_QUERY = 100;

    @Inject
    AccountingConfig config;

    @Inject
    UtilisationSource samples;

    /** What one run measured; {@code unavailable} says why nothing could be (no source, or it failed). */
    public record Run(int intervals, long measuredMs, long usedMs, int failedQueries, String unavailable) {

        Run plus(Run o) {
            return new Run(
                    intervals + o.intervals,
                    measuredMs + o.measuredMs,
                    usedMs + o.usedMs,
                    failedQueries + o.failedQueries,
                    o.unavailable != null ? o.unavailable : unavailable);
        }
    }

    /** Measures every interval there is to measure, page by page. Blocking: never on an event loop. */
    public Run measure() {
        if (!samples.available()) {
            return new Run(0, 0, 0, 0, samples.whyNone());
        }
        Run total = new Run(0, 0, 0, 0, null);
        long after = 0;
        while (true) {
            long from = after;
            Page page = await(() -> Panache.withSession(() -> Sql.rows("SELECT now()")
                    .flatMap(now -> JobHoldings.unmeasured(from, PAGE)
                            .map(list -> new Page(Sql.instant(now.get(0)[0]), list)))));
            if (page.intervals().isEmpty()) {
                break;
            }
            total = total.plus(measure(page));
            after = page.intervals().get(page.intervals().size() - 1).id();
            if (page.intervals().size() < PAGE) {
                break;
            }
        }
        if (total.failedQueries() > 0) {
            LOG.warnf(
                    "%d utilisation queries failed; their intervals are measured at the next run: %s",
                    total.failedQueries(), total.unavailable());
        }
        return total;
    }

    /** Measures one page: its queries, then one transaction adding what they gave. */
    private Run measure(Page page) {
        Instant horizon = page.now().minus(config.measureLag());
        UsageMeasures.Added added = new UsageMeasures.Added();
        int failed = 0;
        String why = null;
        for (UsageMeasures.Window w : UsageMeasures.windows(page.intervals(), horizon, config.measureStep())) {
            Duration step = w.step(config.measureStep());
            for (int i = 0; i < w.intervals().size(); i += JOBS_PER_QUERY) {
                List<JobHoldings.Unmeasured> chunk =
                        w.intervals().subList(i, Math.min(w.intervals().size(), i + JOBS_PER_QUERY));
                try {
                    List<IdlePolicy.Series> series = samples.means(
                                    chunk.stream()
                                            .map(JobHoldings.Unmeasured::jobPublicId)
                                            .distinct()
                                            .toList(),
                                    w.resource(),
                                    w.from(),
                                    w.to(),
                                    step)
                            .await()
                            .atMost(config.measureTimeout());
                    UsageMeasures.add(
                            new UsageMeasures.Window(w.resource(), w.from(), w.to(), chunk),
                            step,
                            series,
                            config.zone(),
                            added);
                } catch (RuntimeException e) {
                    failed++;
                    why = String.valueOf(e.getMessage());
                }
            }
        }
        Set<Long> recorded = await(() -> Panache.withTransaction(() -> JobHoldings.recordMeasured(added.measures)
                .call(ids -> added.rollups(ids).write())));
        Run run = new Run(0, 0, 0, failed, why);
        for (JobHoldings.Measure m : added.measures) {
            if (recorded.contains(m.id())) {
                run = run.plus(new Run(1, m.measuredMs(), m.usedMs(), 0, null));
            }
        }
        return run;
    }

    /** Measures on a worker thread, for a caller on an event loop. */
    public Uni<Run> measureLater() {
        return Uni.createFrom()
                .item(this::measure)
                .runSubscriptionOn(io.smallrye.mutiny.infrastructure.Infrastructure.getDefaultWorkerPool());
    }

    private static <T> T await(java.util.function.Supplier<Uni<T>> work) {
        try {
            return VertxContextSupport.subscribeAndAwait(work);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    private record Page(Instant now, List<JobHoldings.Unmeasured> intervals) {}
}
