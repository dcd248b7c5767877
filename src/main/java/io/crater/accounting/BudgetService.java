package io.crater.accounting;

import io.crater.account.AccountService;
import io.crater.identity.Caller;
import io.crater.platform.ApiException;
import io.crater.platform.AuditTrail;
import io.crater.platform.Problem;
import io.crater.platform.Sql;
import io.crater.policy.BudgetCheck;
import io.crater.policy.BudgetPeriod;
import io.crater.policy.Money;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Budgets per account and period. Setting one issues its amount for the current period (what was left before is
 * expired first, so the period starts at the amount); each period's start renews it by its renewal policy
 * ({@link io.crater.policy.Renewal}: {@code reset}, {@code carry} or {@code debt}); a top-up issues more. Every change
 * is a ledger transaction, never an edit of a balance.
 */
@ApplicationScoped
public class BudgetService {

    @Inject
    AccountingConfig config;

    @Inject
    AccountService accounts;

    @Inject
    Ledger ledger;

    @Inject
    AuditTrail audit;

    @Inject
    Clock clock;

    @Inject
    BudgetWatch watch;

    /** A budget as stored. */
    public record Budget(
            long accountId,
            BudgetPeriod.Kind period,
            int periodDays,
            long amount,
            BudgetCheck.Policy policy,
            String renewal,
            Instant periodStart,
            Instant periodEnd,
            int notifiedPercent,
            Instant exhaustedAt) {

        /** How long its periods are. */
        public BudgetPeriod.Length length() {
            return new BudgetPeriod.Length(period, periodDays);
        }
    }

    /** What a platform admin sends to set an account's budget; {@code days} only with the period {@code custom}. */
    public record BudgetUpdate(String amount, String period, Integer days, String policy, String renewal) {}

    /** What a platform admin sends to top a budget up. */
    public record TopUp(String amount, String note) {}

    static final String COLUMNS = "account_id, period, amount_micros, policy, renewal, period_start, period_end,"
            + " notified_percent, exhausted_at, COALESCE(period_days, 0)";

    static Budget of(Object[] r) {
        return new Budget(
                Sql.longOf(r[0]),
                BudgetPeriod.Kind.of((String) r[1]),
                ((Number) r[9]).intValue(),
                Sql.longOf(r[2]),
                BudgetCheck.Policy.of((String) r[3]),
                (String) r[4],
                Sql.instant(r[5]),
                Sql.instant(r[6]),
                ((Number) r[7]).intValue(),
                Sql.instant(r[8]));
    }

    /** The account's budget, if it has one, in the caller's session. */
    public Uni<Optional<Budget>> of(long accountId) {
        return Sql.rows("SELECT " + COLUMNS + " FROM budgets WHERE account_id = ?1", accountId)
                .map(r -> r.isEmpty() ? Optional.<Budget>empty() : Optional.of(of(r.get(0))));
    }

    /** Every budget, in the caller's session. */
    public Uni<List<Budget>> all() {
        return Sql.rows("SELECT " + COLUMNS + " FROM budgets ORDER BY account_id")
                .map(rows -> rows.stream().map(BudgetService::of).toList());
    }

    /** Sets an account's budget (platform admins). */
    public Uni<AccountingViews.BudgetView> put(String slug, BudgetUpdate req, Caller caller) {
        requirePlatformAdmin(caller, "set budgets");
        Checked b = check(req);
        Instant now = clock.instant();
        BudgetPeriod.Span span = BudgetPeriod.starting(b.length(), now, config.zone());
        String by = caller.user().username();
        return Panache.withTransaction(() -> accounts.access(slug, caller)
                .flatMap(a -> of(a.id())
                        .flatMap(before -> store(a.id(), b, span, by)
                                .flatMap(n -> ledger.balance(a.id()))
                                .flatMap(balance -> ledger.post(postings(a.id(), b, before, balance, now, by)))
                                .call(n -> audit.record(
                                        caller.actor(a.slug()),
                                        "budget.set",
                                        "account",
                                        a.slug(),
                                        before.map(x -> Map.of("amount", Money.format(x.amount())))
                                                .orElse(null),
                                        Map.of(
                                                "amount", Money.format(b.amount()),
                                                "period", b.length().kind().key(),
                                                "policy", b.policy().name().toLowerCase(),
                                                "renewal", b.renewal())))
                                .flatMap(n -> watch.view(a)))));
    }

    /** A budget as set, its fields checked. */
    record Checked(long amount, BudgetPeriod.Length length, BudgetCheck.Policy policy, String renewal) {}

    /** The update's fields checked, every problem at once as a 400. */
    static Checked check(BudgetUpdate req) {
        List<Problem.FieldError> errors = new ArrayList<>();
        Money.Parsed amount = Money.parse(req == null ? null : req.amount(), false);
        if (!amount.ok()) {
            errors.add(new Problem.FieldError("amount", amount.problem()));
        }
        BudgetPeriod.Kind period = choice(
                errors,
                "period",
                req == null ? null : req.period(),
                "month",
                BudgetPeriod.Kind::of,
                "month, week or custom");
        Integer days = req == null ? null : req.days();
        if (period == BudgetPeriod.Kind.CUSTOM && (days == null || days < 1 || days > BudgetPeriod.MAX_DAYS)) {
            errors.add(new Problem.FieldError(
                    "days", "a custom period's length: 1 to " + BudgetPeriod.MAX_DAYS + " days"));
        } else if (period != null && period != BudgetPeriod.Kind.CUSTOM && days != null) {
            errors.add(new Problem.FieldError("days", "only a custom period has a number of days"));
        }
        BudgetCheck.Policy policy = choice(
                errors,
                "policy",
                req == null ? null : req.policy(),
                "hard",
                BudgetCheck.Policy::of,
                "hard, soft or stop");
        String renewal = choice(
                errors,
                "renewal",
                req == null ? null : req.renewal(),
                "reset",
                BudgetService::renewal,
                "reset, carry or debt");
        if (!errors.isEmpty()) {
            throw ApiException.badRequest("InvalidBudget", "the budget is not valid", errors);
        }
        return new Checked(
                amount.micros(),
                new BudgetPeriod.Length(period, period == BudgetPeriod.Kind.CUSTOM ? days : 0),
                policy,
                renewal);
    }

    /** Writes the account's budget row, starting its period at {@code span}. */
    private static Uni<Integer> store(long accountId, Checked b, BudgetPeriod.Span span, String by) {
        return Sql.update(
                "INSERT INTO budgets (account_id, period, amount_micros, policy, renewal,"
                        + " period_start, period_end, updated_by, period_days)"
                        + " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, CAST(NULLIF(?9, 0) AS integer))"
                        + " ON CONFLICT (account_id) DO UPDATE SET period = EXCLUDED.period,"
                        + " period_days = EXCLUDED.period_days,"
                        + " amount_micros = EXCLUDED.amount_micros, policy = EXCLUDED.policy,"
                        + " renewal = EXCLUDED.renewal, period_start = EXCLUDED.period_start,"
                        + " period_end = EXCLUDED.period_end, notified_percent = 0,"
                        + " exhausted_at = CASE WHEN budgets.period = EXCLUDED.period"
                        + " AND budgets.period_days IS NOT DISTINCT FROM EXCLUDED.period_days"
                        + " THEN budgets.exhausted_at END, updated_at = now(),"
                        + " updated_by = EXCLUDED.updated_by",
                accountId,
                b.length().kind().key(),
                b.amount(),
                b.policy().name().toLowerCase(),
                b.renewal(),
                span.start(),
                span.end(),
                by,
                b.length().days());
    }

    /**
     * What setting the budget posts: a change within the period keeps what was spent (only the difference of the
     * amounts is posted); a new budget or another period kind or length starts a period.
     */
    private static List<Ledger.Posting> postings(
            long accountId, Checked b, Optional<Budget> before, long balance, Instant now, String by) {
        return before.isPresent() && before.get().length().equals(b.length())
                ? adjust(accountId, b.amount() - before.get().amount(), now, by)
                : startPeriod(accountId, balance, b.amount(), "budget:" + accountId + ":" + now.toEpochMilli(), by);
    }

    /**
     * The transactions that start a period: {@code expired} of the balance expired (all of it when a budget is set:
     * also a debt, which a new budget forgives; at a renewal what its {@link io.crater.policy.Renewal} expires), then
     * the amount issued.
     */
    static List<Ledger.Posting> startPeriod(long accountId, long expired, long amount, String key, String actor) {
        List<Ledger.Posting> out = new ArrayList<>();
        long balance = expired;
        if (balance != 0) {
            out.add(new Ledger.Posting(
                    "expire:" + key,
                    "expire",
                    accountId,
                    null,
                    null,
                    Ledger.GRANTS,
                    -balance,
                    null,
                    null,
                    "a new budget period starts",
                    actor));
        }
        if (amount != 0) {
            out.add(new Ledger.Posting(
                    "issue:" + key,
                    "issue",
                    accountId,
                    null,
                    null,
                    Ledger.GRANTS,
                    amount,
                    null,
                    null,
                    "the period's budget",
                    actor));
        }
        return out;
    }

    /** The transaction that changes a period's amount by {@code delta} (none when it is 0). */
    static List<Ledger.Posting> adjust(long accountId, long delta, Instant now, String actor) {
        return delta == 0
                ? List.of()
                : List.of(new Ledger.Posting(
                        "adjust:" + accountId + ":" + now.toEpochMilli(),
                        "adjust",
                        accountId,
                        null,
                        null,
                        Ledger.GRANTS,
                        delta,
                        null,
                        null,
                        "the budget's amount changed",
                        actor));
    }

    /** Tops an account's budget up (platform admins); {@code key} makes a retried request post once. */
    public Uni<AccountingViews.BudgetView> topUp(String slug, TopUp req, String key, Caller caller) {
        requirePlatformAdmin(caller, "top budgets up");
        Money.Parsed amount = Money.parse(req == null ? null : req.amount(), false);
        if (!amount.ok() || amount.micros() == 0) {
            throw ApiException.badRequest(
                    "InvalidTopUp",
                    "the top-up is not valid",
                    List.of(new Problem.FieldError("amount", amount.ok() ? "must be more than 0" : amount.problem())));
        }
        String note = req.note() == null ? "" : req.note().trim();
        if (note.length() > 200) {
            throw ApiException.badRequest(
                    "InvalidTopUp",
                    "the top-up is not valid",
                    List.of(new Problem.FieldError("note", "at most 200 characters")));
        }
        String txn = "topup:" + (key == null || key.isBlank() ? java.util.UUID.randomUUID() : key.trim());
        return Panache.withTransaction(() -> accounts.access(slug, caller)
                .flatMap(a -> ledger.post(List.of(new Ledger.Posting(
                                txn,
                                "issue",
                                a.id(),
                                null,
                                null,
                                Ledger.GRANTS,
                                amount.micros(),
                                null,
                                null,
                                note.isEmpty() ? "top-up" : note,
                                caller.user().username())))
                        .call(n -> n == 0
                                ? Uni.createFrom().voidItem()
                                : audit.record(
                                        caller.actor(a.slug()),
                                        "budget.top-up",
                                        "account",
                                        a.slug(),
                                        null,
                                        Map.of("amount", Money.format(amount.micros()), "note", note)))
                        .flatMap(n -> watch.view(a))));
    }

    static void requirePlatformAdmin(Caller caller, String what) {
        if (!caller.platformAdmin()) {
            throw ApiException.forbidden("NotPlatformAdmin", "only a platform admin may " + what);
        }
    }

    static String renewal(String s) {
        return io.crater.policy.Renewal.of(s).key();
    }

    private static <T> T choice(
            List<Problem.FieldError> errors,
            String field,
            String value,
            String fallback,
            java.util.function.Function<String, T> parse,
            String allowed) {
        try {
            return parse.apply(
                    value == null || value.isBlank() ? fallback : value.trim().toLowerCase());
        } catch (IllegalArgumentException e) {
            errors.add(new Problem.FieldError(field, "one of " + allowed));
            return null;
        }
    }

    /** The period after {@code b}'s: what renewal moves it to. */
    BudgetPeriod.Span next(Budget b) {
        return BudgetPeriod.next(b.length(), new BudgetPeriod.Span(b.periodStart(), b.periodEnd()), config.zone());
    }

    /** How long a stop-policy account's jobs keep running once its budget is gone. */
    Duration stopGrace() {
        return config.stopGrace();
    }
}
