package io.crater.cli;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Unit-hours held and their cost over a span: the accounting report (docs/accounting.md, "Reports"). */
@Command(
        name = "usage",
        description = {
            "Device-, core- and GiB-hours held and what they cost, over a span (default: this month), with the"
                    + " device-hours used (weighted by measured utilisation) and the efficiency (used / measured).",
            "A member sees their own usage, an account admin the account's; a platform admin may use --by account for"
                    + " the whole cluster."
        })
final class UsageCommand extends Verb {

    @Option(
            names = "--by",
            paramLabel = "GROUP",
            description = "Group by resource (default), user, day, month or account.")
    String by = "resource";

    @Option(names = "--from", paramLabel = "TIME", description = "Start: an ISO time, a date, or a span ago (30d ago).")
    String from;

    @Option(names = "--to", paramLabel = "TIME", description = "End (default: now), in the same forms.")
    String to;

    static List<Output.Column> columns(Messages msg, String currency) {
        return List.of(
                Output.Column.path(msg.get("col.group"), "key"),
                Output.Column.path(msg.get("col.resource"), "resource"),
                Output.Column.of(msg.get("col.held"), o -> held(o)),
                Output.Column.of(msg.get("col.usedHours"), o -> hours(Values.at(o, "used"))),
                Output.Column.of(msg.get("col.efficiency"), o -> percent(Values.at(o, "efficiency"))),
                Output.Column.of(msg.get("col.cost"), o -> Values.money(Values.at(o, "costMicros"), currency)));
    }

    /** Device-hours to two decimals; {@code -} where they do not apply (CPU, memory). */
    static String hours(Object h) {
        return h instanceof Number n
                ? BigDecimal.valueOf(n.doubleValue())
                        .setScale(2, RoundingMode.HALF_EVEN)
                        .toPlainString()
                : "-";
    }

    /** A ratio as a percentage to one decimal ({@code 61.5 %}); {@code -} when unknown or not applicable. */
    static String percent(Object ratio) {
        return ratio instanceof Number n
                ? BigDecimal.valueOf(n.doubleValue() * 100)
                                .setScale(1, RoundingMode.HALF_EVEN)
                                .toPlainString() + " %"
                : "-";
    }

    /**
     * The report's accelerators in one line: held, used, without samples, efficiency and the cost of idle held
     * GPUs; null when no accelerator was held.
     */
    static String acceleratorLine(Messages msg, Object report) {
        Object a = Values.at(report, "accelerators");
        if (!(Values.at(a, "held") instanceof Number held) || held.doubleValue() <= 0) {
            return null;
        }
        double measured = Values.at(a, "measured") instanceof Number m ? m.doubleValue() : 0;
        String idle = Values.money(Values.at(a, "idleCostMicros"), Values.text(report, "currency"));
        if (Values.at(a, "efficiency") == null) {
            return msg.get("usage.gpuUnknown", hours(held));
        }
        return msg.get(
                "usage.gpu",
                hours(held),
                hours(Values.at(a, "used")),
                hours(Math.max(0, held.doubleValue() - measured)),
                percent(Values.at(a, "efficiency")),
                idle);
    }

    /** {@code 12.50 device-hour}. */
    static String held(Object row) {
        Object h = Values.at(row, "held");
        String n = h instanceof Number num
                ? BigDecimal.valueOf(num.doubleValue())
                        .setScale(2, RoundingMode.HALF_EVEN)
                        .toPlainString()
                : "";
        return n + " " + Values.text(row, "unit");
    }

    /** A report in one line: what was held per resource and the total cost. */
    static String usageLine(Messages msg, Object report) {
        Map<String, BigDecimal> byResource = new LinkedHashMap<>();
        Map<String, String> units = new LinkedHashMap<>();
        for (Object r : Values.list(Values.at(report, "rows"))) {
            String res = Values.text(r, "resource");
            double h = Values.at(r, "held") instanceof Number n ? n.doubleValue() : 0;
            byResource.merge(res, BigDecimal.valueOf(h), BigDecimal::add);
            units.put(res, Values.text(r, "unit"));
        }
        List<String> parts = new ArrayList<>();
        byResource.forEach((res, h) ->
                parts.add(h.setScale(2, RoundingMode.HALF_EVEN).toPlainString() + " " + units.get(res) + " " + res));
        String total = Values.money(Values.at(report, "totalMicros"), Values.text(report, "currency"));
        return parts.isEmpty()
                ? msg.get("usage.nothing", total)
                : msg.get("usage.line", String.join(", ", parts), total);
    }

    /** The jobs admitted in the span and how long they waited, for a report of one group; null otherwise. */
    static String waitLine(Messages msg, Object report) {
        List<Object> waits = Values.list(Values.at(report, "waits"));
        if (waits.size() != 1 || !"".equals(Values.text(waits.get(0), "key"))) {
            return null;
        }
        Object w = waits.get(0);
        return msg.get(
                "usage.waits",
                String.valueOf(Values.at(w, "jobs")),
                Values.duration(seconds(Values.at(w, "meanSeconds"))),
                Values.duration(seconds(Values.at(w, "p90Seconds"))));
    }

    private static java.time.Duration seconds(Object s) {
        return java.time.Duration.ofMillis(s instanceof Number n ? Math.round(n.doubleValue() * 1000) : 0);
    }

    @Override
    protected int execute() {
        Map<String, Object> q = new LinkedHashMap<>();
        boolean cluster = "account".equals(by) && api().account() == null;
        q.put("account", cluster ? null : VerbInputs.account(this));
        q.put("by", by);
        q.put(
                "from",
                from == null
                        ? null
                        : VerbInputs.time(from, now(), "--from", msg()).toString());
        q.put(
                "to",
                to == null ? null : VerbInputs.time(to, now(), "--to", msg()).toString());
        Object report = api().get("/api/v1/accounting/usage", q);
        if (!output().human()) {
            output().object(report);
            return Exit.OK;
        }
        String currency = Values.text(report, "currency");
        out().println(msg().get(
                        "usage.header",
                        Values.text(report, "account") == null
                                ? msg().get("usage.cluster")
                                : Values.text(report, "account"),
                        Values.text(report, "from"),
                        Values.text(report, "to")));
        List<Object> rows = Values.list(Values.at(report, "rows"));
        if (rows.isEmpty()) {
            out().println(msg().get("usage.none"));
        } else {
            output().list(List.of(rows).iterator(), columns(msg(), currency), o -> Values.text(o, "key"));
        }
        out().println(msg().get("usage.total", Values.money(Values.at(report, "totalMicros"), currency)));
        String gpus = acceleratorLine(msg(), report);
        if (gpus != null) {
            out().println(gpus);
        }
        String waited = waitLine(msg(), report);
        if (waited != null) {
            out().println(waited);
        }
        return Exit.OK;
    }
}
