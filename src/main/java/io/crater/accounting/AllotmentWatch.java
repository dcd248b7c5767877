package io.crater.accounting;

import io.crater.account.AccountService;
import io.crater.notify.NotificationService;
import io.crater.platform.Sql;
import io.crater.platform.Unis;
import io.crater.policy.AdmissionRound;
import io.crater.policy.Money;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What members spend against their allotments. A member's spend in a period is what their jobs were charged on the
 * account's book since the period started, less refunds: read from the ledger, whose entries are posted once per
 * idempotency key, so nothing counts twice. Admission reads what is left of each allotment; each settlement run
 * tells a member who crossed 80 % or 100 % of theirs, once per period.
 */
@ApplicationScoped
public class AllotmentWatch {

    @Inject
    AccountingConfig config;

    @Inject
    AccountService accounts;

    @Inject
    NotificationService notifications;

    /** An allotment with its budget's period and what the member spent in it. */
    record Row(
            long accountId,
            long userId,
            long amount,
            int notifiedPercent,
            Instant notifiedPeriod,
            Instant periodStart,
            Instant periodEnd,
            long spent) {

        static final String SELECT = "SELECT a.account_id, a.user_id, a.amount_micros, a.notified_percent,"
                + " a.notified_period, b.period_start, b.period_end, COALESCE((SELECT -sum(e.amount_micros)"
                + " FROM ledger_entries e WHERE e.book = 'account:' || a.account_id AND e.user_id = a.user_id"
                + " AND e.kind IN ('charge', 'refund') AND e.created_at >= b.period_start), 0)"
                + " FROM budget_allotments a JOIN budgets b ON b.account_id = a.account_id";

        static Row of(Object[] r) {
            return new Row(
                    Sql.longOf(r[0]),
                    Sql.longOf(r[1]),
                    Sql.longOf(r[2]),
                    ((Number) r[3]).intValue(),
                    Sql.instant(r[4]),
                    Sql.instant(r[5]),
                    Sql.instant(r[6]),
                    ((Number) r[7]).longValue());
        }

        /** What is left this period; negative when overspent. */
        long left() {
            return amount - spent;
        }

        /** The threshold the member was told of in the current period (0: none yet). */
        int notified() {
            return periodStart.equals(notifiedPeriod) ? notifiedPercent : 0;
        }
    }

    /** Every allotment of a budgeted account with its spend this period, in the caller's session. */
    Uni<List<Row>> rows() {
        return Sql.rows(Row.SELECT + " ORDER BY a.account_id, a.user_id")
                .map(rows -> rows.stream().map(Row::of).toList());
    }

    /** What admission holds members' jobs against: each allotment and what is left of it, by {@code account/user}. */
    public Uni<Map<String, AdmissionRound.Allotment>> forAdmission() {
        return rows().map(rows -> {
            Map<String, AdmissionRound.Allotment> out = new HashMap<>();
            rows.forEach(
                    r -> out.put(r.accountId() + "/" + r.userId(), new AdmissionRound.Allotment(r.amount(), r.left())));
            return out;
        });
    }

    /** A member's net charges on an account's book since a time. */
    record Spent(long userId, long micros) {
        static Spent of(Object[] r) {
            return new Spent(Sql.longOf(r[0]), ((Number) r[1]).longValue());
        }
    }

    /** What each member's jobs were charged on the account's book since {@code since}, less refunds, by user id. */
    Uni<Map<Long, Long>> spentByMember(long accountId, Instant since) {
        return Sql.rows(
                        "SELECT user_id, COALESCE(-sum(amount_micros), 0) FROM ledger_entries WHERE book = ?1"
                                + " AND user_id IS NOT NULL AND kind IN ('charge', 'refund') AND created_at >= ?2"
                                + " GROUP BY user_id",
                        Ledger.book(accountId),
                        since)
                .map(rows -> {
                    Map<Long, Long> out = new HashMap<>();
                    rows.stream().map(Spent::of).forEach(s -> out.put(s.userId(), s.micros()));
                    return out;
                });
    }

    /** In settlement's transaction, after renewals: tells members who crossed a threshold of their allotment. */
    public Uni<Void> watch() {
        return rows().flatMap(rows -> Unis.sequentially(rows, this::watch)).replaceWithVoid();
    }

    private Uni<Void> watch(Row r) {
        int used = BudgetWatch.usedPercent(r.amount(), r.left());
        int crossed = 0;
        for (int t : BudgetWatch.THRESHOLDS) {
            if (used >= t && r.notified() < t) {
                crossed = t;
            }
        }
        if (crossed == 0) {
            return Uni.createFrom().voidItem();
        }
        int percent = crossed;
        return accounts.slugs(List.of(r.accountId()))
                .flatMap(slugs -> {
                    String slug = slugs.getOrDefault(r.accountId(), String.valueOf(r.accountId()));
                    String message = "You have used " + percent + " % of your allotment in account " + slug + ": "
                            + Money.format(r.left()) + " of " + Money.format(r.amount()) + " " + config.currency()
                            + " left until " + r.periodEnd();
                    Map<String, Object> args = Map.of(
                            "account", slug,
                            "percent", percent,
                            "left", Money.format(r.left()),
                            "amount", Money.format(r.amount()),
                            "currency", config.currency(),
                            "periodEnd", r.periodEnd().toString());
                    return notifications.notify(r.userId(), "allotment.threshold", message, "/accounts/" + slug, args);
                })
                .flatMap(v -> Sql.update(
                        "UPDATE budget_allotments SET notified_percent = ?3, notified_period = ?4"
                                + " WHERE account_id = ?1 AND user_id = ?2",
                        r.accountId(),
                        r.userId(),
                        percent,
                        r.periodStart()))
                .replaceWithVoid();
    }
}
