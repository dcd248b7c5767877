package io.crater.accounting;

import io.crater.job.JobHoldings;
import io.crater.platform.Sql;
import io.crater.platform.Threads;
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
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
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

    private final ScheduledExecutorService worker = Threads.scheduler("crater-settlement");
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
        meters.gauge("crater.settlement.lag", List.of(), lagSeconds, AtomicLong::doubleValue);
        meters.gauge("crater.ledger.mismatched", List.of(), mismatched, AtomicLong::doubleValue);
        long every = config.settleEvery().toMillis();
        worker.scheduleWithFixedDelay(this::tick, every, every, TimeUnit.MILLISECONDS);
    }

    void onStop(@Observes ShutdownEvent event) {
        worker.shutdownNow();
    }

    private void tick() {
        try {
            VertxContextSupport.subscribeAndAwait(this::settleAndRelease);
            meter.measure();
            VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(statements::closePending));
            if (ticks++ % CHECK_EVERY == 0) {
                Ledger.Check check = VertxContextSupport.subscribeAndAwait(() -> Panache.withSession(ledger::check));
                mismatched.set(check.mismatched().size() + (check.sum() == 0 ? 0 : 1));
                if (!check.consistent()) {
                    LOG.errorf("the ledger is inconsistent: %s, all books sum to %d", check.mismatched(), check.sum());
                }
            }
        } catch (Throwable e) {
            if (!worker.isShutdown()) {
                LOG.warn("settlement failed; the next run retries", e);
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
        Batch batch = new Batch(book, to, run, config.backfillFactorPerMille(), config.zone());
        return page(batch, 0L).flatMap(v -> {
            List<Ledger.Posting> postings = batch.postings();
            return ledger.post(postings)
                    .flatMap(n -> rollup(batch.hours, "usage_hourly", "hour", "timestamptz"))
                    .flatMap(n -> rollup(batch.days, "usage_daily", "day", "date"))
                    .map(x -> new Run(run, batch.charged, postings.size(), batch.total, to, List.of()));
        });
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

    private static Uni<Void> rollup(Map<List<Object>, Object[]> hours, String table, String column, String type) {
        if (hours.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        List<Map<String, Object>> rows = new ArrayList<>(hours.size());
        hours.forEach((k, v) -> rows.add(Map.of(
                "account",
                k.get(0),
                "usr",
                k.get(1),
                "resource",
                k.get(2),
                "hour",
                k.get(3).toString(),
                "held",
                v[0],
                "cost",
                v[1])));
        return Sql.update(
                        "INSERT INTO " + table + " (account_id, user_id, resource, " + column
                                + ", held_milli_s, cost_micros)"
                                + " SELECT account, usr, resource, hour, held, cost FROM jsonb_to_recordset(CAST(CAST(?1 AS text) AS jsonb))"
                                + " AS x(account bigint, usr bigint, resource text, hour " + type
                                + ", held numeric, cost bigint)"
                                + " ON CONFLICT (account_id, " + column + ", user_id, resource) DO UPDATE SET"
                                + " held_milli_s = " + table + ".held_milli_s + EXCLUDED.held_milli_s,"
                                + " cost_micros = " + table + ".cost_micros + EXCLUDED.cost_micros",
                        io.crater.platform.Json.write(rows))
                .replaceWithVoid();
    }

    /** One page of intervals settled: their new charged state, the ledger postings per job and the hourly rows. */
    static final class Batch {
        final PriceBook book;
        final Instant to;
        final long run;
        final int backfillFactor;
        int charged;
        /** Per job: account, user, public id, net cost, window start. */
        final Map<Long, Object[]> jobs = new LinkedHashMap<>();
        /** Per (account, user, resource, hour): held milli-unit-seconds and cost. */
        final Map<List<Object>, Object[]> hours = new HashMap<>();
        /** The same per local day. */
        final Map<List<Object>, Object[]> days = new HashMap<>();

        final java.time.ZoneId zone;

        long total;

        Batch(PriceBook book, Instant to, long run, int backfillFactor, java.time.ZoneId zone) {
            this.zone = zone;
            this.book = book;
            this.to = to;
            this.run = run;
            this.backfillFactor = backfillFactor;
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
            int factor = i.backfill() ? backfillFactor : 1000;
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
            Instant p = a;
            while (p.isBefore(b)) {
                Instant hour = p.truncatedTo(ChronoUnit.HOURS);
                java.time.LocalDate day = p.atZone(zone).toLocalDate();
                Instant next = min(
                        hour.plus(1, ChronoUnit.HOURS),
                        day.plusDays(1).atStartOfDay(zone).toInstant());
                Instant q = min(b, next);
                // Memory is held in milli-bytes: a large one held for an hour overflows a long.
                java.math.BigInteger held = java.math.BigInteger.valueOf(i.milli())
                        .multiply(java.math.BigInteger.valueOf(
                                Duration.between(p, q).toMillis()))
                        .divide(java.math.BigInteger.valueOf(1000));
                long cost = Settlement.window(h, i.startedAt(), p, q, book, factor);
                add(hours, List.of(i.account(), i.user(), i.resource(), hour), sign, held, cost);
                add(days, List.of(i.account(), i.user(), i.resource(), day), sign, held, cost);
                p = q;
            }
        }

        private static Instant min(Instant x, Instant y) {
            return x.isBefore(y) ? x : y;
        }

        private static void add(
                Map<List<Object>, Object[]> rows, List<Object> key, long sign, java.math.BigInteger held, long cost) {
            Object[] v = rows.computeIfAbsent(key, k -> new Object[] {java.math.BigInteger.ZERO, 0L});
            v[0] = ((java.math.BigInteger) v[0]).add(sign > 0 ? held : held.negate());
            v[1] = (Long) v[1] + sign * cost;
        }

        /** One charge (or refund) per job of the page with a net amount. */
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
