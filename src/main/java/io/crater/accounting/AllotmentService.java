package io.crater.accounting;

import io.crater.account.AccountService;
import io.crater.identity.Caller;
import io.crater.identity.UserService;
import io.crater.platform.ApiException;
import io.crater.platform.AuditTrail;
import io.crater.platform.Problem;
import io.crater.platform.Sql;
import io.crater.policy.Money;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Allotments: what each member of an account may spend per period of its budget. An allotment is a cap, not money of
 * its own: nothing is issued for it, and the account's budget still holds every member back. So allotments may add
 * up to more than the budget, but none may be more than the budget's amount. Account admins and platform admins set
 * and remove them; a member sees only their own.
 */
@ApplicationScoped
public class AllotmentService {

    @Inject
    AccountingConfig config;

    @Inject
    AccountService accounts;

    @Inject
    UserService users;

    @Inject
    BudgetService budgets;

    @Inject
    AllotmentWatch watch;

    @Inject
    AuditTrail audit;

    /** What an admin sends to set a member's allotment. */
    public record AllotmentUpdate(String amount) {}

    /** An account's member: user id and username. */
    record Member(long id, String username) {}

    /** A stored allotment. */
    record Stored(long userId, long amount) {
        static Stored of(Object[] r) {
            return new Stored(Sql.longOf(r[0]), Sql.longOf(r[1]));
        }
    }

    /** The account's allotments this period: all of them for its admins, the caller's own for a member. */
    public Uni<AccountingViews.Allotments> list(String slug, Caller caller) {
        return Panache.withSession(() ->
                accounts.access(slug, caller).flatMap(a -> view(a.id(), a.slug(), a.admin() ? null : caller.userId())));
    }

    /** Sets a member's allotment (account admins and platform admins). */
    public Uni<AccountingViews.Allotment> put(String slug, String username, AllotmentUpdate req, Caller caller) {
        return Panache.withTransaction(() -> accounts.administeredId(slug, caller)
                .flatMap(id -> budgetOf(id, slug).flatMap(budget -> {
                    long amount = checked(req, budget);
                    return member(id, slug, username)
                            .flatMap(m -> stored(id)
                                    .flatMap(before -> Sql.update(
                                                    "INSERT INTO budget_allotments (account_id, user_id, amount_micros,"
                                                            + " updated_by) VALUES (?1, ?2, ?3, ?4) ON CONFLICT (account_id,"
                                                            + " user_id) DO UPDATE SET amount_micros = EXCLUDED.amount_micros,"
                                                            + " notified_percent = 0, notified_period = NULL,"
                                                            + " updated_at = now(), updated_by = EXCLUDED.updated_by",
                                                    id,
                                                    m.id(),
                                                    amount,
                                                    caller.user().username())
                                            .flatMap(n -> audit.record(
                                                    caller.actor(slug),
                                                    "allotment.set",
                                                    "member",
                                                    slug + "/" + m.username(),
                                                    Optional.ofNullable(before.get(m.id()))
                                                            .map(x -> Map.of("amount", Money.format(x)))
                                                            .orElse(null),
                                                    Map.of("amount", Money.format(amount)))))
                                    .flatMap(v -> view(id, slug, m.id()))
                                    .map(v -> v.items().get(0)));
                })));
    }

    /** Removes a member's allotment (account admins and platform admins); removing none changes nothing. */
    public Uni<Void> remove(String slug, String username, Caller caller) {
        return Panache.withTransaction(() -> accounts.administeredId(slug, caller)
                .flatMap(id -> member(id, slug, username)
                        .flatMap(m -> stored(id)
                                .flatMap(before -> Sql.update(
                                                "DELETE FROM budget_allotments WHERE account_id = ?1 AND user_id = ?2",
                                                id,
                                                m.id())
                                        .flatMap(n -> n == 0
                                                ? Uni.createFrom().voidItem()
                                                : audit.record(
                                                        caller.actor(slug),
                                                        "allotment.remove",
                                                        "member",
                                                        slug + "/" + m.username(),
                                                        Map.of("amount", Money.format(before.get(m.id()))),
                                                        null))))));
    }

    /** The amount asked for, checked: at most 6 decimals, not negative, at most the budget's amount. */
    static long checked(AllotmentUpdate req, BudgetService.Budget budget) {
        Money.Parsed amount = Money.parse(req == null ? null : req.amount(), false);
        String problem = !amount.ok()
                ? amount.problem()
                : amount.micros() > budget.amount()
                        ? "at most the budget's amount of " + Money.format(budget.amount())
                        : null;
        if (problem != null) {
            throw ApiException.badRequest(
                    "InvalidAllotment",
                    "the allotment is not valid",
                    List.of(new Problem.FieldError("amount", problem)));
        }
        return amount.micros();
    }

    private Uni<BudgetService.Budget> budgetOf(long accountId, String slug) {
        return budgets.of(accountId)
                .map(b -> b.orElseThrow(() -> ApiException.conflict(
                        "NoBudget", "account '" + slug + "' has no budget: set one before allotting it")));
    }

    /** The account's members, by username. */
    private Uni<List<Member>> members(long accountId) {
        return accounts.memberIds(accountId, false)
                .flatMap(ids -> users.usernames(ids)
                        .map(names -> names.entrySet().stream()
                                .map(e -> new Member(e.getKey(), e.getValue()))
                                .sorted(Comparator.comparing(Member::username))
                                .toList()));
    }

    private Uni<Member> member(long accountId, String slug, String username) {
        return members(accountId)
                .map(all -> all.stream()
                        .filter(m -> m.username().equalsIgnoreCase(username == null ? "" : username.trim()))
                        .findFirst()
                        .orElseThrow(
                                () -> ApiException.notFound("'" + username + "' is not a member of '" + slug + "'")));
    }

    /** The account's allotments: amount by user id. */
    private Uni<Map<Long, Long>> stored(long accountId) {
        return Sql.rows("SELECT user_id, amount_micros FROM budget_allotments WHERE account_id = ?1", accountId)
                .map(rows -> {
                    Map<Long, Long> out = new HashMap<>();
                    rows.stream().map(Stored::of).forEach(s -> out.put(s.userId(), s.amount()));
                    return out;
                });
    }

    /** The allotments of every member (or of {@code onlyUser}) in the budget's current period. */
    private Uni<AccountingViews.Allotments> view(long accountId, String slug, Long onlyUser) {
        return budgets.of(accountId).flatMap(budget -> {
            if (budget.isEmpty()) {
                return Uni.createFrom()
                        .item(new AccountingViews.Allotments(slug, config.currency(), null, "0", 0, List.of()));
            }
            BudgetService.Budget b = budget.get();
            return members(accountId)
                    .flatMap(members -> stored(accountId)
                            .flatMap(amounts -> watch.spentByMember(accountId, b.periodStart())
                                    .map(spent -> {
                                        long allotted = amounts.values().stream()
                                                .mapToLong(Long::longValue)
                                                .sum();
                                        List<AccountingViews.Allotment> items = new ArrayList<>();
                                        members.stream()
                                                .filter(m -> onlyUser == null || m.id() == onlyUser)
                                                .forEach(m -> items.add(item(
                                                        m.username(),
                                                        amounts.get(m.id()),
                                                        spent.getOrDefault(m.id(), 0L))));
                                        return new AccountingViews.Allotments(
                                                slug,
                                                config.currency(),
                                                BudgetWatch.info(b),
                                                Money.format(allotted),
                                                allotted,
                                                items);
                                    })));
        });
    }

    static AccountingViews.Allotment item(String user, Long amount, long spent) {
        Long left = amount == null ? null : amount - spent;
        return new AccountingViews.Allotment(
                user,
                amount == null ? null : Money.format(amount),
                amount,
                Money.format(spent),
                spent,
                left == null ? null : Money.format(left),
                left,
                amount == null ? null : BudgetWatch.usedPercent(amount, left));
    }
}
