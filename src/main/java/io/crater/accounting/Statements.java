package io.crater.accounting;

import io.crater.account.AccountService;
import io.crater.identity.Caller;
import io.crater.identity.UserService;
import io.crater.platform.ApiException;
import io.crater.platform.Problem;
import io.crater.platform.Sql;
import io.crater.policy.BudgetPeriod;
import io.crater.policy.Money;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Monthly statements: once a month is over (and {@code crater.accounting.statement-delay} has passed, so its last
 * settlement and measurement are in), each account that held something or had ledger entries in it gets one
 * statement: its balance at the start and the end, what was issued, charged, adjusted and expired in between (the
 * start plus the movements is the end, as the ledger's entries are), and per member and resource the unit-hours
 * held, measured and used and their cost from the daily rollups. Written once, in one statement per month for every
 * account, and never changed: a replica that closes the same month at the same time adds nothing.
 */
@ApplicationScoped
public class Statements {

    @Inject
    AccountingConfig config;

    @Inject
    AccountService accounts;

    @Inject
    UserService users;

    @Inject
    Clock clock;

    /** A statement's figures without its lines. */
    public record Summary(
            String period,
            Instant from,
            Instant to,
            String currency,
            String opening,
            String issued,
            String charged,
            String adjusted,
            String expired,
            String closing,
            long openingMicros,
            long closingMicros,
            Instant closedAt) {}

    /** One member's holding of one resource in the month; measured and used only for accelerators. */
    public record Line(
            String user, String resource, String unit, double held, Double measured, Double used, String cost) {}

    /** A statement with its lines. */
    public record Statement(String account, Summary summary, List<Line> lines) {}

    /** A statement row as stored. */
    record Row(
            long id,
            String period,
            Instant from,
            Instant to,
            long opening,
            long issued,
            long charged,
            long adjusted,
            long expired,
            long closing,
            Instant closedAt) {

        static final String COLUMNS = "id, period, period_start, period_end, opening_micros, issued_micros,"
                + " charged_micros, adjusted_micros, expired_micros, closing_micros, created_at";

        static Row of(Object[] r) {
            return new Row(
                    Sql.longOf(r[0]),
                    (String) r[1],
                    Sql.instant(r[2]),
                    Sql.instant(r[3]),
                    Sql.longOf(r[4]),
                    Sql.longOf(r[5]),
                    Sql.longOf(r[6]),
                    Sql.longOf(r[7]),
                    Sql.longOf(r[8]),
                    Sql.longOf(r[9]),
                    Sql.instant(r[10]));
        }

        Summary summary(String currency) {
            return new Summary(
                    period,
                    from,
                    to,
                    currency,
                    Money.format(opening),
                    Money.format(issued),
                    Money.format(charged),
                    Money.format(adjusted),
                    Money.format(expired),
                    Money.format(closing),
                    opening,
                    closing,
                    closedAt);
        }
    }

    /** A line as stored: the member's id, the resource and its sums. */
    record LineRow(long user, String resource, java.math.BigDecimal held, long measured, long used, long cost) {

        static LineRow of(Object[] r) {
            return new LineRow(
                    Sql.longOf(r[0]),
                    (String) r[1],
                    new java.math.BigDecimal(r[2].toString()),
                    Sql.longOf(r[3]),
                    Sql.longOf(r[4]),
                    Sql.longOf(r[5]));
        }
    }

    /**
     * Closes every closable period that has accounts without their statement: months for every account, and weeks
     * too for the accounts whose budget is weekly; the statements written.
     */
    public Uni<Integer> closePending() {
        ZoneId zone = config.zone();
        Instant now = clock.instant();
        List<StatementPeriod> periods = new ArrayList<>();
        periods.addAll(StatementPeriod.closable(BudgetPeriod.Kind.MONTH, now, zone, config.statementDelay()));
        periods.addAll(StatementPeriod.closable(BudgetPeriod.Kind.WEEK, now, zone, config.statementDelay()));
        Uni<Integer> done = Uni.createFrom().item(0);
        for (StatementPeriod p : periods) {
            done = done.flatMap(n -> close(p, zone).map(k -> n + k));
        }
        return done;
    }

    /** Writes the statements of period {@code p} not written yet, with their lines, in the caller's transaction. */
    Uni<Integer> close(StatementPeriod p, ZoneId zone) {
        Instant from = p.start(zone);
        Instant to = p.endsAt(zone);
        String weekly = p.kind() == BudgetPeriod.Kind.WEEK
                ? " INTERSECT SELECT account_id FROM budgets WHERE period = 'week'"
                : "";
        return Sql.longs(
                        "(SELECT account_id FROM usage_daily WHERE day >= CAST(?1 AS date) AND day < CAST(?2 AS date)"
                                + " UNION SELECT account_id FROM ledger_entries WHERE account_id IS NOT NULL"
                                + " AND created_at >= ?3 AND created_at < ?4)" + weekly
                                + " EXCEPT SELECT account_id FROM statements WHERE period = ?5",
                        p.first(),
                        p.end(),
                        from,
                        to,
                        p.name())
                .flatMap(ids -> ids.isEmpty()
                        ? Uni.createFrom().item(0)
                        : Sql.rows(INSERT, join(ids), p.name(), from, to, p.first(), p.end())
                                .map(rows -> rows.isEmpty() ? 0 : (int) Sql.longOf(rows.get(0)[0])));
    }

    /**
     * One statement: the ids of the accounts, the month, its start and end, its first and last local day. Writes
     * the statements and their lines, and answers how many statements it wrote.
     */
    private static final String INSERT = "WITH s AS (INSERT INTO statements (account_id, period, period_start,"
            + " period_end, opening_micros, issued_micros, charged_micros, adjusted_micros, expired_micros,"
            + " closing_micros) SELECT a.id, ?2, ?3, ?4,"
            + " COALESCE((SELECT e.balance_after FROM ledger_entries e WHERE e.book = 'account:' || a.id"
            + " AND e.created_at < ?3 ORDER BY e.id DESC LIMIT 1), 0),"
            + " COALESCE((SELECT sum(e.amount_micros) FROM ledger_entries e WHERE e.book = 'account:' || a.id"
            + " AND e.kind = 'issue' AND e.created_at >= ?3 AND e.created_at < ?4), 0),"
            + " COALESCE((SELECT sum(e.amount_micros) FROM ledger_entries e WHERE e.book = 'account:' || a.id"
            + " AND e.kind IN ('charge', 'refund') AND e.created_at >= ?3 AND e.created_at < ?4), 0),"
            + " COALESCE((SELECT sum(e.amount_micros) FROM ledger_entries e WHERE e.book = 'account:' || a.id"
            + " AND e.kind = 'adjust' AND e.created_at >= ?3 AND e.created_at < ?4), 0),"
            + " COALESCE((SELECT sum(e.amount_micros) FROM ledger_entries e WHERE e.book = 'account:' || a.id"
            + " AND e.kind = 'expire' AND e.created_at >= ?3 AND e.created_at < ?4), 0),"
            + " COALESCE((SELECT e.balance_after FROM ledger_entries e WHERE e.book = 'account:' || a.id"
            + " AND e.created_at < ?4 ORDER BY e.id DESC LIMIT 1), 0)"
            + " FROM unnest(string_to_array(?1, ',')::bigint[]) AS a(id)"
            + " ON CONFLICT (account_id, period) DO NOTHING RETURNING id, account_id),"
            + " l AS (INSERT INTO statement_lines (statement_id, user_id, resource, held_milli_s, measured_ms,"
            + " used_ms, cost_micros) SELECT s.id, d.user_id, d.resource, sum(d.held_milli_s), sum(d.measured_ms),"
            + " sum(d.used_ms), sum(d.cost_micros) FROM s JOIN usage_daily d ON d.account_id = s.account_id"
            + " AND d.day >= CAST(?5 AS date) AND d.day < CAST(?6 AS date) GROUP BY s.id, d.user_id, d.resource"
            + " RETURNING statement_id)"
            + " SELECT count(*) FROM s";

    /** The account's statements, newest first: for its admins and platform admins. */
    public Uni<List<Summary>> list(String slug, Caller caller) {
        return Panache.withSession(() -> admin(slug, caller)
                .flatMap(a -> Sql.rows(
                                "SELECT " + Row.COLUMNS + " FROM statements WHERE account_id = ?1"
                                        + " ORDER BY period_end DESC, period_start",
                                a.id())
                        .map(rows -> rows.stream()
                                .map(r -> Row.of(r).summary(config.currency()))
                                .toList())));
    }

    /** One period's statement with its lines; 404 when it has none (not closed yet, or nothing happened). */
    public Uni<Statement> get(String slug, String period, Caller caller) {
        String name = parse(period).name();
        return Panache.withSession(() -> admin(slug, caller)
                .flatMap(a -> Sql.rows(
                                "SELECT " + Row.COLUMNS + " FROM statements WHERE account_id = ?1 AND period = ?2",
                                a.id(),
                                name)
                        .flatMap(rows -> {
                            if (rows.isEmpty()) {
                                throw ApiException.notFound("no statement of " + a.slug() + " for " + name
                                        + " (a month, or a week of a weekly budget, gets one once it is over, if"
                                        + " anything was held or posted in it)");
                            }
                            Row row = Row.of(rows.get(0));
                            return lines(row.id())
                                    .map(lines -> new Statement(a.slug(), row.summary(config.currency()), lines));
                        })));
    }

    private Uni<List<Line>> lines(long statementId) {
        return Sql.rows(
                        "SELECT user_id, resource, held_milli_s, measured_ms, used_ms, cost_micros FROM statement_lines"
                                + " WHERE statement_id = ?1 ORDER BY user_id, resource",
                        statementId)
                .flatMap(rows -> {
                    List<LineRow> lines = rows.stream().map(LineRow::of).toList();
                    Set<Long> ids = new HashSet<>();
                    lines.forEach(l -> ids.add(l.user()));
                    return users.usernames(ids)
                            .map(names -> lines.stream()
                                    .map(l -> line(names.getOrDefault(l.user(), String.valueOf(l.user())), l))
                                    .toList());
                });
    }

    private static Line line(String user, LineRow l) {
        UsageReports.Row r = UsageReports.row(user, l.resource(), l.held(), l.cost(), l.measured(), l.used());
        return new Line(user, r.resource(), r.unit(), r.held(), r.measured(), r.used(), r.cost());
    }

    private Uni<AccountService.Access> admin(String slug, Caller caller) {
        return accounts.access(slug, caller).invoke(a -> {
            if (!a.admin()) {
                throw ApiException.forbidden("NotAccountAdmin", "only the account's admins may read its statements");
            }
        });
    }

    private static StatementPeriod parse(String period) {
        return StatementPeriod.parse(period)
                .orElseThrow(() -> ApiException.badRequest(
                        "InvalidPeriod",
                        "a statement's period is a month or an ISO week",
                        List.of(new Problem.FieldError(
                                "period", "a month such as 2026-11 or a week such as 2026-W48"))));
    }

    /** The statement's lines as CSV, RFC 4180, one header line. */
    static String csv(Statement s) {
        StringBuilder sb = new StringBuilder("account,period,user,resource,unit,held,measured,used,cost,currency\r\n");
        for (Line l : s.lines()) {
            sb.append(List.of(
                                    UsageReports.cell(s.account()),
                                    s.summary().period(),
                                    UsageReports.cell(l.user()),
                                    UsageReports.cell(l.resource()),
                                    l.unit(),
                                    Double.toString(l.held()),
                                    l.measured() == null ? "" : Double.toString(l.measured()),
                                    l.used() == null ? "" : Double.toString(l.used()),
                                    l.cost(),
                                    UsageReports.cell(s.summary().currency()))
                            .stream()
                            .collect(Collectors.joining(",")))
                    .append("\r\n");
        }
        return sb.toString();
    }

    private static String join(List<Long> ids) {
        return ids.stream().map(String::valueOf).collect(Collectors.joining(","));
    }
}
