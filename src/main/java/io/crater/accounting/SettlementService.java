package io.crater.accounting;

import io.crater.job.JobHoldings;
import io.crater.job.JobStates;
import io.crater.platform.Sql;
import io.crater.platform.Threads;
import io.crater.policy.ChargeFactors;
import io.crater.policy.PriceBook;
import io.crater.policy.Settlement;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.math.BigInteger;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * Charges what jobs held. Each run, on whichever replica takes the settlement row first (the others skip), charges
 * every usage interval from where it was charged to now, or to its end, refunds what was charged past an end that
 * turned out earlier, adds the same to the hourly rollups, and renews and watches budgets: all in one transaction,
 * so a run that fails changes nothing and the next one does its work. A charge is the difference of one exact
 * cumulative cost ({@link Settlement}), so the charges of any sequence of runs add up to the exact cost of the whole
 * interval.
 */
@ApplicationScoped
public class SettlementService {

    private static final Logger LOG = Logger.getLogger(SettlementService.class);
    private static final int PAGE = 2000;

    @Inject
    AccountingConfig config;

    @Inject
    Ledger ledger;

    @Inject
    PriceService prices;

    @Inject
    BudgetWatch budgets;

    @Inject
    io.crater.job.JobStops stops;

    @Inject
    AccountingMetrics metrics;

    @Inject
    Clock clock;

    @Inject
    MeterRegistry meters;

    @Inject
    UsageMeter meter;

    @Inject
    Statements statements;

    @Inject
    StorageCharges storage;

    private final ScheduledExecutorService worker = Threads.scheduler("crater-settlement");
    private final java.util.concurrent.atomic.AtomicBoolean endPending =
            new java.util.concurrent.atomic.AtomicBoolean();

    @Inject
    io.crater.platform.PgNotifications notifications;

    private final AtomicLong lagSeconds = new AtomicLong();
    /** Books whose balance is not the sum of their entries at the last check (-1 before the first). */
    private final AtomicLong mismatched = new AtomicLong(-1);
    /** This replica's ticks: the ledger is checked on the first and then every {@link #CHECK_EVERY}th. */
    private long ticks;

    static final int CHECK_EVERY = 60;

    /**
     * What one run did; {@code run} 0 when another replica was settling; {@code measured} what the usage meter did
     * after it, when it ran.
     */
    public record Run(
            long run,
            int intervals,
            int charges,
            long chargedMicros,
            Instant until,
            List<String> stopped,
            UsageMeter.Run measured) {

        Run(long run, int intervals, int charges, long chargedMicros, Instant until, List<String> stopped) {
            this(run, intervals, charges, chargedMicros, until, stopped, null);
        }

        Run measured(UsageMeter.Run m) {
            return new Run(run, intervals, charges, chargedMicros, until, stopped, m);
        }
    }

    void onStart(@Observes StartupEvent event) {
        factors(config); // a factor out of range stops the start with its name, not every run later
        meters.gauge("crater.settlement.lag", List.of(), lagSeconds, AtomicLong::doubleValue);
        meters.gauge("crater.ledger.mismatched", List.of(), mismatched, AtomicLong::doubleValue);
        long every = config.settleEvery().toMillis();
        worker.scheduleWithFixedDelay(this::tick, every, every, TimeUnit.MILLISECONDS);
        notifications.listen(JobStates.ENDED_CHANNEL, job -> afterEnd());
    }

    /**
     * A job ended: settle soon, so its charge and the balance are in the ledger at once rather than at the next
     * minute's run. Ends that come together share one run, {@code crater.accounting.settle-after-end} after the
     * first; on settlement's own thread, so it never overlaps a periodic run.
     */
    private void afterEnd() {
        if (endPending.compareAndSet(false, true) && !worker.isShutdown()) {
            worker.schedule(
                    () -> {
                        endPending.set(false);
                        step(
                                "settlement after a job ended",
                                () -> VertxContextSupport.subscribeAndAwait(this::settleAndRelease));
                    },
                    config.settleAfterEnd().toMillis(),
                    TimeUnit.MILLISECONDS);
        }
    }

    void onStop(@Observes ShutdownEvent event) {
        worker.shutdownNow();
    }

    /**
     * One run of the worker: settle, measure, close months, and now and then check the ledger. Each step is on its
     * own, so one that fails (a source that does not answer) leaves the others to do their work.
     */
    private void tick() {
        step("settlement", () -> VertxContextSupport.subscribeAndAwait(this::settleAndRelease));
        step("measuring utilisation", meter::measure);
        step("charging storage", storage::chargeIfDue);
        step(
                "closing statements",
                () -> VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(statements::closePending)));
        if (ticks++ % CHECK_EVERY == 0) {
            step("checking the ledger", () -> {
                Ledger.Check check = VertxContextSupport.subscribeAndAwait(() -> Panache.withSession(ledger::check));
                mismatched.set(check.mismatched().size() + (check.sum() == 0 ? 0 : 1));
                if (!check.consistent()) {
                    LOG.errorf("the ledger is inconsistent: %s, all books sum to %d", check.mismatched(), check.sum());
                }
            });
        }
    }

    /** A step of a run that may fail without stopping the others. */
    private interface Step {
        void run() throws Throwable;
    }

    private void step(String what, Step step) {
        try {
            step.run();
        } catch (Throwable e) {
            if (!worker.isShutdown()) {
                LOG.warn(what + " failed; the next run retries", e);
            }
        }
    }

    /** Settles, then (committed) deletes the Volcano Jobs of what a stop policy stopped, on settlement's thread. */
    public Uni<Run> settleAndRelease() {
        return settle().invoke(run -> run.stopped().forEach(id -> worker.execute(() -> stops.release(id))));
    }

    /**
     * Settles, releases, measures what accelerators were used, then writes the statements of months that are over
     * (for a caller on an event loop).
     */
    public Uni<Run> settleAndMeasure() {
        io.vertx.core.Context context = io.vertx.core.Vertx.currentContext();
        if (context == null) {
            throw new IllegalStateException("settleAndMeasure is called on a Vert.x context");
        }
        return settleAndRelease()
                .flatMap(run -> meter.measureLater().map(run::measured))
                // The meter ran on a worker thread; the statements' session belongs to the caller's context.
                .emitOn(task -> context.runOnContext(v -> task.run()))
                .call(run -> Panache.withTransaction(statements::closePending));
    }

    /**
     * Settles up to the database's now: the clock usage intervals are opened and closed by, so an interval is never
     * charged past a time its end could still come before.
     */
    public Uni<Run> settle() {
        return Panache.withTransaction(() -> Sql.rows("SELECT settled_until, runs, now() FROM settlement_state"
                                + " WHERE name = 'settlement' FOR UPDATE SKIP LOCKED")
                        .flatMap(rows -> {
                            if (rows.isEmpty()) {
                                return Uni.createFrom().item(new Run(0, 0, 0, 0, null, List.of()));
                            }
                            long run = Sql.longOf(rows.get(0)[1]) + 1;
                            Instant to = Sql.instant(rows.get(0)[2]);
                            return prices.book()
                                    .flatMap(book -> pages(book, to, run))
                                    .flatMap(done -> budgets.renewAndWatch(to)
                                            .map(stopped -> new Run(
                                                    done.run(),
                                                    done.intervals(),
                                                    done.charges(),
                                                    done.chargedMicros(),
                                                    to,
                                                    stopped)))
                                    .call(done -> metrics.refresh())
                                    .call(done -> Sql.update(
                                            "UPDATE settlement_state SET settled_until = GREATEST(settled_until, ?1), runs = ?2"
                                                    + " WHERE name = 'settlement'",
                                            to,
                                            run));
                        }))
                .invoke(r -> {
                    if (r.run() > 0) {
                        lagSeconds.set(Math.max(
                                0, Duration.between(r.until(), clock.instant()).toSeconds()));
                        meters.counter("crater.settlement.charged.micros").increment(r.chargedMicros());
                    }
                });
    }

    /**
     * Settles the unsettled intervals page by page into one batch, then posts its charges (one per job, however many
     * pages its intervals span) and its hourly rows.
     */
    private Uni<Run> pages(PriceBook book, Instant to, long run) {
        Batch batch = new Batch(book, to, run, factors(config), config.zone());
        return page(batch, 0L).flatMap(v -> {
            List<Ledger.Posting> postings = batch.postings();
            return ledger.post(postings)
                    .flatMap(n -> batch.rollups.write())
                    .map(x -> new Run(run, batch.charged, postings.size(), batch.total, to, List.of()));
        });
    }

    /** The shares of the price backfill and low- or high-priority jobs pay, as configured. */
    static ChargeFactors factors(AccountingConfig config) {
        return new ChargeFactors(
                config.backfillFactorPerMille(),
                config.lowPriorityFactorPerMille(),
                config.highPriorityFactorPerMille());
    }

    private Uni<Void> page(Batch batch, long afterId) {
        return JobHoldings.unsettled(afterId, PAGE).flatMap(page -> {
            if (page.isEmpty()) {
                return Uni.createFrom().voidItem();
            }
            List<JobHoldings.Interval> charged = new ArrayList<>();
            page.forEach(i -> {
                JobHoldings.Interval c = batch.settle(i);
                if (c != null) {
                    charged.add(c);
                }
            });
            long last = page.get(page.size() - 1).id();
            return JobHoldings.recordCharged(charged)
                    .flatMap(v -> page.size() < PAGE ? Uni.createFrom().voidItem() : page(batch, last));
        });
    }

    /** One page of intervals settled: their new charged state, the ledger postings per job and the hourly rows. */
    static final class Batch {
        final PriceBook book;
        final Instant to;
        final long run;
        final ChargeFactors factors;
        int charged;
        /** Per job: account, user, public id, net cost, window start. */
        final Map<Long, Object[]> jobs = new LinkedHashMap<>();
        /** Per (account, user, resource, hour or local day): held milli-unit-seconds and cost. */
        final Rollups rollups = new Rollups();

        final java.time.ZoneId zone;

        long total;

        Batch(PriceBook book, Instant to, long run, ChargeFactors factors, java.time.ZoneId zone) {
            this.zone = zone;
            this.book = book;
            this.to = to;
            this.run = run;
            this.factors = factors;
        }

        /**
         * Charges (or refunds) one interval from where it was charged to its end or {@link #to}; the interval as
         * charged now, or null when there was nothing to do.
         */
        JobHoldings.Interval settle(JobHoldings.Interval i) {
            Instant target = i.endedAt() != null ? i.endedAt() : to;
            Instant from = i.chargedUntil();
            if (target.equals(from) || (i.endedAt() == null && !target.isAfter(from))) {
                return null;
            }
            Settlement.Holding h = new Settlement.Holding(i.resource(), i.milli());
            int factor = factors.perMille(i.backfill(), i.priority());
            boolean forward = target.isAfter(from);
            Instant a = forward ? from : target;
            Instant b = forward ? target : from;
            long sign = forward ? 1 : -1;
            long cost = sign * Settlement.window(h, i.startedAt(), a, b, book, factor);
            charged++;
            total += cost;
            Object[] job =
                    jobs.computeIfAbsent(i.job(), k -> new Object[] {i.account(), i.user(), i.jobPublicId(), 0L, a});
            job[3] = (Long) job[3] + cost;
            if (a.isBefore((Instant) job[4])) {
                job[4] = a;
            }
            hours(i, h, factor, a, b, sign);
            return i.charged(target, i.chargedMicros() + cost);
        }

        /** Adds [a, b) to the hourly and daily rows, cut at every hour and every local midnight. */
        private void hours(JobHoldings.Interval i, Settlement.Holding h, int factor, Instant a, Instant b, long sign) {
            for (Rollups.Slice s : Rollups.slices(a, b, zone)) {
                // Memory is held in milli-bytes: a large one held for an hour overflows a long.
                BigInteger held = BigInteger.valueOf(i.milli())
                        .multiply(BigInteger.valueOf(
                                Duration.between(s.from(), s.to()).toMillis()))
                        .divide(BigInteger.valueOf(1000));
                long cost = Settlement.window(h, i.startedAt(), s.from(), s.to(), book, factor);
                for (Rollups.Figures f : rollups.of(i.account(), i.user(), i.resource(), s)) {
                    f.heldMilliS = f.heldMilliS.add(sign > 0 ? held : held.negate());
                    f.costMicros += sign * cost;
                }
            }
        }

        List<Ledger.Posting> postings() {
            List<Ledger.Posting> out = new ArrayList<>();
            jobs.forEach((jobId, j) -> {
                long net = (Long) j[3];
                if (net == 0) {
                    return;
                }
                String kind = net > 0 ? "charge" : "refund";
                out.add(new Ledger.Posting(
                        kind + ":" + j[2] + ":" + run,
                        kind,
                        (Long) j[0],
                        (Long) j[1],
                        (String) j[2],
                        Ledger.USAGE,
                        -net,
                        (Instant) j[4],
                        to,
                        "job " + j[2],
                        "crater"));
            });
            return out;
        }
    }
}
