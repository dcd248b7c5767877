package io.crater.accounting;

import io.crater.account.AccountService;
import io.crater.job.JobHoldings;
import io.crater.job.JobStops;
import io.crater.notify.NotificationService;
import io.crater.platform.Sql;
import io.crater.platform.Unis;
import io.crater.policy.AdmissionRound;
import io.crater.policy.BudgetCheck;
import io.crater.policy.ChargeFactors;
import io.crater.policy.Money;
import io.crater.policy.PriceBook;
import io.crater.policy.Settlement;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Budgets over time: renews them at each period's start, notifies at 80 % and 100 % spent (of the budget, and of
 * members' allotments), stops a stop-policy account's running jobs once its budget has been gone for the grace period,
 * and shows an account's money with its burn rate. Also what admission needs: every budget's remainder, each
 * allotment's, and each queued job's projected cost.
 */
@ApplicationScoped
public class BudgetWatch {

    static final int[] THRESHOLDS = {80, 100};

    @Inject
    AccountingConfig config;

    @Inject
    BudgetService budgets;

    @Inject
    PriceService prices;

    @Inject
    Ledger ledger;

    @Inject
    AccountService accounts;

    @Inject
    NotificationService notifications;

    @Inject
    JobStops stops;

    @Inject
    Clock clock;

    @Inject
    AllotmentWatch allotments;

    /**
     * In settlement's transaction: renews budgets whose period ended, then notifies and stops by what is left. The
     * public ids of the jobs asked to stop (their Volcano Jobs are deleted after the commit).
     */
    public Uni<List<String>> renewAndWatch(Instant now) {
        List<String> stopped = new ArrayList<>();
        return budgets.all()
                .flatMap(all -> Unis.sequentially(all, b -> renew(b, now)))
                .flatMap(v -> budgets.all())
                .flatMap(all -> ledger.balances(all.stream()
                                .map(BudgetService.Budget::accountId)
                                .toList())
                        .flatMap(balances -> Unis.sequentially(
                                all,
                                b -> watch(b, balances.get(b.accountId()), now).invoke(stopped::addAll))))
                .flatMap(v -> allotments.watch())
                .replaceWith(stopped);
    }

    private Uni<Void> renew(BudgetService.Budget b, Instant now) {
        if (b.periodEnd().isAfter(now)) {
            return Uni.createFrom().voidItem();
        }
        var span = budgets.next(b);
        while (!span.end().isAfter(now)) {
            span = io.crater.policy.BudgetPeriod.next(b.length(), span, config.zone());
        }
        var current = span;
        String key = "period:" + b.accountId() + ":" + current.start().getEpochSecond();
        return ledger.balance(b.accountId())
                .flatMap(balance -> ledger.post(renewal(b, balance, key)))
                .flatMap(n -> Sql.update(
                        "UPDATE budgets SET period_start = ?2, period_end = ?3, notified_percent = 0, exhausted_at = NULL"
                                + " WHERE account_id = ?1",
                        b.accountId(),
                        current.start(),
                        current.end()))
                .replaceWithVoid();
    }

    /** What renewing {@code b} at a balance of {@code balance} posts: its renewal's expiry, then its amount. */
    static List<Ledger.Posting> renewal(BudgetService.Budget b, long balance, String key) {
        long expired = io.crater.policy.Renewal.of(b.renewal()).expired(balance);
        return BudgetService.startPeriod(b.accountId(), expired, b.amount(), key, "crater");
    }

    private Uni<List<String>> watch(BudgetService.Budget b, long balance, Instant now) {
        int used = usedPercent(b.amount(), balance);
        int crossed = 0;
        for (int t : THRESHOLDS) {
            if (used >= t && b.notifiedPercent() < t) {
                crossed = t;
            }
        }
        Uni<Void> notify = crossed == 0 ? Uni.createFrom().voidItem() : notifyCrossed(b, crossed, balance);
        boolean gone = balance <= 0 && b.amount() > 0;
        Instant exhausted = gone ? (b.exhaustedAt() == null ? now : b.exhaustedAt()) : null;
        Uni<Void> mark = Sql.update(
                        "UPDATE budgets SET notified_percent = GREATEST(notified_percent, ?2), exhausted_at = ?3"
                                + " WHERE account_id = ?1",
                        b.accountId(),
                        crossed,
                        exhausted)
                .replaceWithVoid();
        boolean stop = b.policy() == BudgetCheck.Policy.STOP
                && exhausted != null
                && !Duration.between(exhausted, now).minus(config.stopGrace()).isNegative();
        return notify.flatMap(v -> mark)
                .flatMap(v -> stop ? stopAll(b) : Uni.createFrom().item(List.<String>of()));
    }

    static int usedPercent(long amount, long balance) {
        if (amount <= 0) {
            return 0;
        }
        long spent = Math.max(0, amount - balance);
        return (int) Math.min(1000, spent * 100 / amount);
    }

    private Uni<Void> notifyCrossed(BudgetService.Budget b, int percent, long balance) {
        return accounts.slugs(List.of(b.accountId())).flatMap(slugs -> {
            String slug = slugs.getOrDefault(b.accountId(), String.valueOf(b.accountId()));
            String message = "Account " + slug + " has used " + percent + " % of its budget: " + Money.format(balance)
                    + " " + config.currency() + " left until " + b.periodEnd();
            Map<String, Object> args = Map.of(
                    "account", slug,
                    "percent", percent,
                    "balance", Money.format(balance),
                    "currency", config.currency(),
                    "periodEnd", b.periodEnd().toString());
            return accounts.memberIds(b.accountId(), percent < 100)
                    .flatMap(ids -> Unis.sequentially(
                            ids,
                            id -> notifications.notify(id, "budget.threshold", message, "/accounts/" + slug, args)));
        });
    }

    private Uni<List<String>> stopAll(BudgetService.Budget b) {
        List<String> stopped = new ArrayList<>();
        String message =
                "the account's budget is spent and its stop policy's grace of " + config.stopGrace() + " ended";
        return JobHoldings.running(b.accountId())
                .flatMap(jobs -> Unis.sequentially(
                        jobs,
                        job -> stops.markStopping(
                                        job.id(),
                                        "BudgetStopped",
                                        message,
                                        Map.of(
                                                "graceMinutes",
                                                config.stopGrace().toMinutes()))
                                .invoke(asked -> {
                                    if (asked) {
                                        stopped.add(job.publicId());
                                    }
                                })))
                .replaceWith(stopped);
    }

    /**
     * What admission decides budgets by: each budgeted account's remainder, policy and period end, and what each of
     * its queued jobs would cost up to its time limit (or, without one, up to the period's end).
     */
    public Uni<AdmissionRound.Budgets> forAdmission(
            List<AdmissionRound.Job> queued, Map<String, Optional<Duration>> limits) {
        return budgets.all().flatMap(all -> {
            if (all.isEmpty()) {
                return Uni.createFrom().item(AdmissionRound.Budgets.NONE);
            }
            Map<Long, BudgetService.Budget> byAccount = new HashMap<>();
            all.forEach(b -> byAccount.put(b.accountId(), b));
            return prices.book()
                    .flatMap(book -> ledger.balances(byAccount.keySet()).map(balances -> {
                        Instant now = clock.instant();
                        Map<Long, AdmissionRound.Budget> in = new HashMap<>();
                        byAccount.forEach((id, b) -> in.put(
                                id,
                                new AdmissionRound.Budget(
                                        balances.get(id), b.policy(), b.periodEnd(), config.currency())));
                        Map<String, Long> projected = new HashMap<>();
                        for (AdmissionRound.Job j : queued) {
                            BudgetService.Budget b = byAccount.get(j.account());
                            if (b == null || !j.valid()) {
                                continue;
                            }
                            Duration limit = limits.getOrDefault(j.job(), Optional.empty())
                                    .orElse(Duration.between(now, b.periodEnd()));
                            projected.put(j.job(), projected(book, j, now, limit));
                        }
                        return new AdmissionRound.Budgets(in, projected);
                    }))
                    .flatMap(b -> allotments
                            .forAdmission()
                            .map(a -> new AdmissionRound.Budgets(b.accounts(), b.projected(), a)));
        });
    }

    private long projected(PriceBook book, AdmissionRound.Job j, Instant now, Duration limit) {
        List<Settlement.Holding> holdings = new ArrayList<>();
        j.quota().amounts().forEach((r, milli) -> holdings.add(new Settlement.Holding(r, milli)));
        return BudgetCheck.projected(
                holdings,
                now,
                limit.isNegative() ? Duration.ZERO : limit,
                book,
                SettlementService.factors(config).perMille(j.backfill(), j.priority()));
    }

    /** An account's money as its members see it. */
    public Uni<AccountingViews.BudgetView> view(AccountService.Access a) {
        Instant now = clock.instant();
        return budgets.of(a.id())
                .flatMap(budget -> ledger.balance(a.id())
                        .flatMap(balance -> spentSince(
                                        a.id(),
                                        budget.map(BudgetService.Budget::periodStart)
                                                .orElse(Instant.EPOCH))
                                .flatMap(spent -> spentSince(a.id(), now.minus(Duration.ofDays(1)))
                                        .flatMap(day -> holding(a.id(), now).map(held -> {
                                            Instant runsOut = budget.isEmpty()
                                                    ? null
                                                    : BudgetCheck.runsOut(balance, day, Duration.ofDays(1), now)
                                                            .orElse(null);
                                            return new AccountingViews.BudgetView(
                                                    a.slug(),
                                                    config.currency(),
                                                    budget.map(BudgetWatch::info)
                                                            .orElse(null),
                                                    Money.format(balance),
                                                    balance,
                                                    Money.format(spent),
                                                    spent,
                                                    budget.map(b -> usedPercent(b.amount(), balance))
                                                            .orElse(null),
                                                    new AccountingViews.Burn(Money.format(day), day, runsOut),
                                                    held);
                                        })))));
    }

    static AccountingViews.BudgetInfo info(BudgetService.Budget b) {
        return new AccountingViews.BudgetInfo(
                Money.format(b.amount()),
                b.amount(),
                b.period().key(),
                b.periodDays() == 0 ? null : b.periodDays(),
                b.policy().name().toLowerCase(),
                b.renewal(),
                b.periodStart(),
                b.periodEnd());
    }

    /** Net charges (charges less refunds) of the account's book since {@code since}. */
    private Uni<Long> spentSince(long accountId, Instant since) {
        return Sql.count(
                "SELECT COALESCE(-sum(amount_micros), 0) FROM ledger_entries WHERE book = ?1"
                        + " AND kind IN ('charge', 'refund') AND created_at >= ?2",
                Ledger.book(accountId),
                since);
    }

    private Uni<List<AccountingViews.Holding>> holding(long accountId, Instant now) {
        return prices.book()
                .flatMap(book -> JobHoldings.openHoldings(accountId).map(rows -> {
                    ChargeFactors factors = SettlementService.factors(config);
                    // Per resource: milli-units held and what they cost an hour, each kind of job at its factor.
                    Map<String, long[]> byResource = new java.util.TreeMap<>();
                    for (JobHoldings.Held h : rows) {
                        long perHour = Settlement.cumulative(
                                new Settlement.Holding(h.resource(), h.milli()),
                                now,
                                now.plus(Duration.ofHours(1)),
                                book,
                                factors.perMille(h.backfill(), h.priority()));
                        long[] sum = byResource.computeIfAbsent(h.resource(), r -> new long[2]);
                        sum[0] += h.milli();
                        sum[1] += perHour;
                    }
                    List<AccountingViews.Holding> out = new ArrayList<>();
                    byResource.forEach((resource, sum) -> out.add(new AccountingViews.Holding(
                            resource,
                            sum[0],
                            Money.format(book.at(resource, now).orElse(0)),
                            sum[1])));
                    return out;
                }));
    }
}
