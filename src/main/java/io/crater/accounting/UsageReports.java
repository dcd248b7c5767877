package io.crater.accounting;

import io.crater.account.AccountService;
import io.crater.identity.Caller;
import io.crater.identity.UserService;
import io.crater.job.JobWaits;
import io.crater.platform.ApiException;
import io.crater.platform.Problem;
import io.crater.platform.Sql;
import io.crater.policy.Amounts;
import io.crater.policy.GpuUse;
import io.crater.policy.Money;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Usage reports from the hourly rollups (never from raw intervals): unit-hours held and their cost per account,
 * member, resource, day or month over a span. A member sees their own usage, an account admin the account's, a
 * platform admin any account's or the whole cluster's by account.
 */
@ApplicationScoped
public class UsageReports {

    static final Duration LONGEST = Duration.ofDays(400);

    @Inject
    AccountingConfig config;

    @Inject
    AccountService accounts;

    @Inject
    UserService users;

    @Inject
    Clock clock;

    /**
     * One row: a group's holding of one resource. {@code held} in unit-hours (GPU-, core- or GiB-hours). For an
     * accelerator also: {@code measured} the device-hours with utilisation samples, {@code used} the device-hours
     * weighted by utilisation, {@code unknown} held but not measured, {@code efficiency} used ÷ measured (null when
     * nothing was measured), {@code idleCost} what the measured idle part cost (cost × (measured − used) ÷ held);
     * all null for CPU and memory.
     */
    @Schema(name = "UsageRow")
    public record Row(
            String key,
            String resource,
            String unit,
            double held,
            String cost,
            long costMicros,
            Double measured,
            Double used,
            Double unknown,
            Double efficiency,
            String idleCost,
            Long idleCostMicros) {}

    /** A report: its span, how it is grouped, its rows and their total cost. */
    @Schema(name = "UsageReport")
    public record Report(
            String account,
            Instant from,
            Instant to,
            String by,
            String currency,
            List<Row> rows,
            String total,
            long totalMicros,
            Summary accelerators,
            List<Wait> waits) {}

    /**
     * How long jobs admitted in the span waited, per group of the report ({@code ""} when grouped by resource): how
     * many, the mean and the 90th percentile from submission to admission, in seconds.
     */
    @Schema(name = "UsageWait")
    public record Wait(String key, long jobs, double meanSeconds, double p90Seconds) {}

    /**
     * Every accelerator row of a report together: device-hours held, measured and used, efficiency (null when
     * nothing was measured) and the cost of the measured idle part.
     */
    @Schema(name = "AcceleratorUse")
    public record Summary(
            double held, double measured, double used, Double efficiency, String idleCost, long idleCostMicros) {}

    /** The report for {@code account} (required unless a platform admin asks for the cluster {@code by=account}). */
    public Uni<Report> report(String account, String fromText, String toText, String byText, Caller caller) {
        List<Problem.FieldError> errors = new ArrayList<>();
        Instant to = time(toText, clock.instant(), "to", errors);
        Instant from = time(fromText, monthStart(to), "from", errors);
        String by = byText == null || byText.isBlank() ? "resource" : byText.trim();
        if (!Set.of("resource", "user", "day", "month", "account").contains(by)) {
            errors.add(new Problem.FieldError("by", "one of resource, user, day, month, account"));
        }
        if (errors.isEmpty() && !from.isBefore(to)) {
            errors.add(new Problem.FieldError("from", "must be before to"));
        }
        if (errors.isEmpty() && Duration.between(from, to).compareTo(LONGEST) > 0) {
            errors.add(new Problem.FieldError("from", "a report spans at most 400 days"));
        }
        boolean cluster = account == null || account.isBlank();
        if (cluster && !"account".equals(by)) {
            errors.add(new Problem.FieldError("account", "required, except for a platform admin's report by account"));
        }
        if (!errors.isEmpty()) {
            throw ApiException.badRequest("InvalidReport", "the report's parameters are not valid", errors);
        }
        if (cluster && !caller.platformAdmin()) {
            throw ApiException.forbidden("NotPlatformAdmin", "only a platform admin may see every account's usage");
        }
        return Panache.withSession(() -> cluster
                ? build(null, null, null, from, to, by)
                : accounts.access(account.trim(), caller).flatMap(a -> {
                    if (!a.admin() && "account".equals(by)) {
                        throw ApiException.forbidden("NotAccountAdmin", "only an account admin may group by account");
                    }
                    Long user = a.admin() ? null : caller.userId();
                    return build(a.slug(), a.id(), user, from, to, by);
                }));
    }

    /** The rows and the waits of a span, with user and account ids in their keys replaced by names. */
    private Uni<Report> build(String slug, Long account, Long user, Instant from, Instant to, String by) {
        return rows(account, user, from, to, by)
                .flatMap(rows -> JobWaits.of(account, user, from, to, by, config.zone())
                        .flatMap(waits -> named(rows, waits, by).map(n -> {
                            Report r = report(slug, from, to, by, n.rows());
                            return new Report(
                                    r.account(),
                                    r.from(),
                                    r.to(),
                                    r.by(),
                                    r.currency(),
                                    r.rows(),
                                    r.total(),
                                    r.totalMicros(),
                                    r.accelerators(),
                                    n.waits());
                        })));
    }

    /**
     * A group's sums of one resource over a span, as {@link #rows} selects them: held milli-unit-seconds, cost in
     * micro-units and, for an accelerator, measured and used device-milliseconds.
     */
    private record Sums(
            String key, String resource, java.math.BigDecimal heldMilliS, long cost, long measuredMs, long usedMs) {
        static Sums of(Object[] r) {
            return new Sums(
                    (String) r[0],
                    (String) r[1],
                    new java.math.BigDecimal(r[2].toString()),
                    ((Number) r[3]).longValue(),
                    ((Number) r[4]).longValue(),
                    ((Number) r[5]).longValue());
        }

        /** The same sums under another key (a name for the id the key held). */
        Sums keyed(String name) {
            return new Sums(name, resource, heldMilliS, cost, measuredMs, usedMs);
        }
    }

    private Report report(String account, Instant from, Instant to, String by, List<Sums> rows) {
        List<Row> out = new ArrayList<>(rows.size());
        long total = 0;
        double held = 0;
        long heldMs = 0;
        long measuredMs = 0;
        long usedMs = 0;
        long idle = 0;
        for (Sums s : rows) {
            total += s.cost();
            Row row = row(s.key(), s.resource(), s.heldMilliS(), s.cost(), s.measuredMs(), s.usedMs());
            if (row.measured() != null) {
                heldMs += s.heldMilliS().longValue();
                measuredMs += s.measuredMs();
                usedMs += s.usedMs();
                idle += row.idleCostMicros();
            }
            out.add(row);
        }
        Summary summary = new Summary(
                hours(heldMs), hours(measuredMs), hours(usedMs), ratio(usedMs, measuredMs), Money.format(idle), idle);
        return new Report(
                account, from, to, by, config.currency(), out, Money.format(total), total, summary, List.of());
    }

    /**
     * A row from its sums: held milli-unit-seconds and cost; for an accelerator measured and used
     * device-milliseconds (held milli-device-seconds are device-milliseconds too).
     */
    static Row row(
            String key, String resource, java.math.BigDecimal heldMilliS, long cost, long measuredMs, long usedMs) {
        String unit = PriceService.unit(resource).replace("-hour", "-hours");
        double held = unitHours(resource, heldMilliS);
        if (Amounts.Kind.of(resource) != Amounts.Kind.ACCELERATOR) {
            return new Row(key, resource, unit, held, Money.format(cost), cost, null, null, null, null, null, null);
        }
        long heldMs = heldMilliS.longValue();
        long known = Math.min(measuredMs, Math.max(heldMs, 0));
        long idleMicros = heldMs > 0
                ? java.math.BigInteger.valueOf(cost)
                        .multiply(java.math.BigInteger.valueOf(Math.max(0, known - Math.min(usedMs, known))))
                        .divide(java.math.BigInteger.valueOf(heldMs))
                        .longValue()
                : 0;
        return new Row(
                key,
                resource,
                unit,
                held,
                Money.format(cost),
                cost,
                hours(known),
                hours(Math.min(usedMs, known)),
                hours(Math.max(0, heldMs - known)),
                ratio(Math.min(usedMs, known), known),
                Money.format(idleMicros),
                idleMicros);
    }

    /** Used ÷ measured to four decimals, null when nothing was measured. */
    static Double ratio(long used, long measured) {
        Double e = GpuUse.efficiency(used, measured);
        return e == null ? null : Math.round(e * 10_000) / 10_000.0;
    }

    /** Device-hours of device-milliseconds, to a thousandth. */
    static double hours(long ms) {
        return Math.round(ms / 3600.0) / 1000.0;
    }

    /** Unit-hours of milli-unit-seconds, to a thousandth. */
    static double unitHours(String resource, java.math.BigDecimal milliSeconds) {
        double units = milliSeconds.doubleValue() / 1000.0 / 3600.0;
        if (resource.equals("memory")) {
            units = units / (1L << 30);
        }
        return Math.round(units * 1000) / 1000.0;
    }

    /**
     * The rows of a span: whole local days from the daily rollup, the hours before the first and after the last whole
     * day from the hourly one, grouped by {@code by} and resource.
     */
    private Uni<List<Sums>> rows(Long account, Long user, Instant from, Instant to, String by) {
        ZoneId zone = config.zone();
        java.time.LocalDate firstDay = from.atZone(zone).toLocalDate();
        if (firstDay.atStartOfDay(zone).toInstant().isBefore(from)) {
            firstDay = firstDay.plusDays(1);
        }
        java.time.LocalDate endDay = to.atZone(zone).toLocalDate();
        Instant daysFrom = firstDay.atStartOfDay(zone).toInstant();
        Instant daysTo = endDay.atStartOfDay(zone).toInstant();
        if (!daysFrom.isBefore(daysTo)) {
            daysFrom = to;
            daysTo = to;
            firstDay = endDay;
        }
        String tz = zone.getId();
        String hourKey = key(by, "to_char(hour AT TIME ZONE '" + tz + "', ");
        String dayKey = key(by, "to_char(day, ");
        List<Object> params = new ArrayList<>(List.of(from, daysFrom, daysTo, to, firstDay, endDay));
        StringBuilder who = new StringBuilder();
        if (account != null) {
            params.add(account);
            who.append(" AND account_id = ?").append(params.size());
        }
        if (user != null) {
            params.add(user);
            who.append(" AND user_id = ?").append(params.size());
        }
        return Sql.rows(
                        "SELECT k, resource, sum(held), sum(cost), sum(measured), sum(used) FROM ("
                                + "SELECT " + hourKey + " AS k, resource, held_milli_s AS held, cost_micros AS cost,"
                                + " measured_ms AS measured, used_ms AS used"
                                + " FROM usage_hourly WHERE ((hour >= date_trunc('hour', CAST(?1 AS timestamptz))"
                                + " AND hour < CAST(?2 AS timestamptz)) OR (hour >= CAST(?3 AS timestamptz)"
                                + " AND hour < CAST(?4 AS timestamptz)))" + who
                                + " UNION ALL SELECT " + dayKey
                                + " AS k, resource, held_milli_s, cost_micros, measured_ms, used_ms"
                                + " FROM usage_daily"
                                + " WHERE day >= CAST(?5 AS date) AND day < CAST(?6 AS date)" + who
                                + ") x GROUP BY k, resource ORDER BY k, resource",
                        params.toArray())
                .map(rows -> rows.stream().map(Sums::of).toList());
    }

    /** The group key's SQL, given how a time column is formatted ({@code to_char(<column>, }). */
    private static String key(String by, String toChar) {
        return switch (by) {
            case "user" -> "CAST(user_id AS text)";
            case "account" -> "CAST(account_id AS text)";
            case "day" -> toChar + "'YYYY-MM-DD')";
            case "month" -> toChar + "'YYYY-MM')";
            default -> "''";
        };
    }

    /** Rows and waits with their keys named. */
    private record Named(List<Sums> rows, List<Wait> waits) {}

    /** Replaces user and account ids in the keys of the rows and the waits by their names. */
    private Uni<Named> named(List<Sums> rows, List<JobWaits.Group> waits, String by) {
        if (!by.equals("user") && !by.equals("account")) {
            return Uni.createFrom().item(new Named(rows, waits(waits, Map.of())));
        }
        Set<Long> ids = new HashSet<>();
        rows.forEach(s -> ids.add(Long.parseLong(s.key())));
        waits.forEach(w -> ids.add(Long.parseLong(w.key())));
        Uni<Map<Long, String>> names = by.equals("user") ? users.usernames(ids) : accounts.slugs(ids);
        return names.map(n -> new Named(
                rows.stream()
                        .map(s -> s.keyed(n.getOrDefault(Long.parseLong(s.key()), s.key())))
                        .toList(),
                waits(waits, n)));
    }

    private static List<Wait> waits(List<JobWaits.Group> groups, Map<Long, String> names) {
        return groups.stream()
                .map(g -> new Wait(
                        names.isEmpty() ? g.key() : names.getOrDefault(Long.parseLong(g.key()), g.key()),
                        g.jobs(),
                        g.meanSeconds(),
                        g.p90Seconds()))
                .toList();
    }

    private Instant monthStart(Instant t) {
        return t.atZone(config.zone())
                .toLocalDate()
                .withDayOfMonth(1)
                .atStartOfDay(config.zone())
                .toInstant();
    }

    private static Instant time(String text, Instant fallback, String field, List<Problem.FieldError> errors) {
        if (text == null || text.isBlank()) {
            return fallback;
        }
        try {
            return Instant.parse(text.trim());
        } catch (DateTimeParseException e) {
            try {
                return java.time.LocalDate.parse(text.trim())
                        .atStartOfDay(ZoneId.of("UTC"))
                        .toInstant();
            } catch (DateTimeParseException e2) {
                errors.add(new Problem.FieldError(
                        field, "a time such as 2026-11-01T00:00:00Z or a date such as 2026-11-01"));
                return fallback;
            }
        }
    }

    /** The report as CSV: one header line, one line per row, RFC 4180 quoting. */
    static String csv(Report r) {
        StringBuilder sb = new StringBuilder("account,from,to,group,resource,unit,held,cost,currency,measured,used,"
                + "unknown,efficiency,idle_cost,jobs,wait_mean_s,wait_p90_s\r\n");
        Map<String, Wait> waits = new HashMap<>();
        r.waits().forEach(w -> waits.put(w.key(), w));
        for (Row row : r.rows()) {
            Wait w = waits.get(row.key());
            sb.append(String.join(
                            ",",
                            List.of(
                                    cell(r.account() == null ? "" : r.account()),
                                    r.from().toString(),
                                    r.to().toString(),
                                    cell(row.key()),
                                    cell(row.resource()),
                                    row.unit(),
                                    Double.toString(row.held()),
                                    row.cost(),
                                    cell(r.currency()),
                                    figure(row.measured()),
                                    figure(row.used()),
                                    figure(row.unknown()),
                                    figure(row.efficiency()),
                                    row.idleCost() == null ? "" : row.idleCost(),
                                    w == null ? "0" : Long.toString(w.jobs()),
                                    w == null ? "" : Double.toString(w.meanSeconds()),
                                    w == null ? "" : Double.toString(w.p90Seconds()))))
                    .append("\r\n");
        }
        return sb.toString();
    }

    /** A figure of a CSV line, empty when it does not apply. */
    private static String figure(Double d) {
        return d == null ? "" : Double.toString(d);
    }

    static String cell(String s) {
        boolean quote = s.contains(",") || s.contains("\"") || s.contains("\n") || s.contains("\r");
        String v = s.replace("\"", "\"\"");
        // A cell a spreadsheet would run as a formula starts with a quote mark instead.
        if (!v.isEmpty() && "=+-@".indexOf(v.charAt(0)) >= 0) {
            v = "'" + v;
        }
        return quote ? "\"" + v + "\"" : v;
    }
}
