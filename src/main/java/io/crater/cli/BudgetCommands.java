package io.crater.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** An account's budget: what is left, what was spent, how fast; set and topped up by platform admins. */
@Command(
        name = "budget",
        description = "An account's budget, balance and burn rate; platform admins set and top it up.",
        subcommands = {BudgetCommands.Show.class, BudgetCommands.Set.class, BudgetCommands.TopUp.class})
final class BudgetCommands {

    static String path(String slug) {
        return "/api/v1/accounting/accounts/" + Api.seg(slug) + "/budget";
    }

    static List<Output.Column> holdingColumns(Messages msg, String currency) {
        return List.of(
                Output.Column.path(msg.get("col.resource"), "resource"),
                Output.Column.of(msg.get("col.held"), o -> Values.text(o, "milli") == null ? "" : milli(o)),
                Output.Column.of(
                        msg.get("col.costPerHour"), o -> Values.money(Values.at(o, "costPerHourMicros"), currency)));
    }

    private static String milli(Object o) {
        long m = ((Number) Values.at(o, "milli")).longValue();
        return m % 1000 == 0 ? Long.toString(m / 1000) : m + "m";
    }

    /** The budget view in words. */
    static void print(Verb v, Object b) {
        Messages m = v.msg();
        String cur = Values.text(b, "currency");
        v.out().println(m.get("budget.account", Values.text(b, "account")));
        Object budget = Values.at(b, "budget");
        if (budget == null) {
            v.out().println(m.get("budget.none"));
        } else {
            v.out()
                    .println(m.get(
                            "budget.settings",
                            Values.money(Values.at(budget, "amountMicros"), cur),
                            "custom".equals(Values.text(budget, "period"))
                                    ? m.get("budget.days", Values.text(budget, "periodDays"))
                                    : Values.text(budget, "period"),
                            Values.text(budget, "policy"),
                            Values.text(budget, "renewal")));
            v.out()
                    .println(m.get(
                            "budget.period", Values.text(budget, "periodStart"), Values.text(budget, "periodEnd")));
        }
        v.out().println(m.get("budget.balance", Values.money(Values.at(b, "balanceMicros"), cur)));
        Object pct = Values.at(b, "usedPercent");
        v.out()
                .println(m.get(
                        "budget.spent", Values.money(Values.at(b, "spentMicros"), cur), pct == null ? "-" : pct + "%"));
        Object burn = Values.at(b, "burn");
        if (burn != null) {
            String runsOut = Values.text(burn, "runsOutAt");
            v.out()
                    .println(m.get(
                            "budget.burn",
                            Values.money(Values.at(burn, "perDayMicros"), cur),
                            runsOut == null ? m.get("budget.never") : runsOut));
        }
        List<Object> holding = Values.list(Values.at(b, "holding"));
        if (!holding.isEmpty()) {
            v.out().println();
            v.output().list(List.of(holding).iterator(), holdingColumns(m, cur), o -> Values.text(o, "resource"));
        }
    }

    static void show(Verb v, Object b) {
        if (v.output().human()) {
            print(v, b);
        } else {
            v.output().object(b);
        }
    }

    @Command(
            name = "show",
            description = "An account's budget, balance, spending this period, burn rate and what it holds now.")
    static final class Show extends Verb {
        @Parameters(
                arity = "0..1",
                paramLabel = "ACCOUNT",
                description = "The account (default: -a SLUG, else the current one).")
        String slug;

        @Override
        protected int execute() {
            show(this, api().get(path(slug != null ? slug : VerbInputs.account(this))));
            return Exit.OK;
        }
    }

    @Command(
            name = "set",
            description = "Set an account's budget (platform admins); a field not given keeps its current value.")
    static final class Set extends Verb {
        @Parameters(paramLabel = "ACCOUNT", description = "The account's slug.")
        String slug;

        @Option(
                names = "--amount",
                paramLabel = "AMOUNT",
                description = "Issued each period, in the currency (500, 2.5).")
        String amount;

        @Option(
                names = "--period",
                paramLabel = "PERIOD",
                description = "month (from the 1st), week (from Monday) or custom (--days days from today).")
        String period;

        @Option(
                names = "--days",
                paramLabel = "DAYS",
                description = "The length of a custom period, 1 to 366 days (only with --period custom).")
        Integer days;

        @Option(
                names = "--policy",
                paramLabel = "POLICY",
                description = "hard (jobs over the balance wait), soft (admitted anyway) or stop (hard, and running"
                        + " jobs stop when it runs out).")
        String policy;

        @Option(
                names = "--renewal",
                paramLabel = "RENEWAL",
                description = "reset (what is left expires, a debt is forgiven), carry (the amount is added on top of"
                        + " a rest or a debt) or debt (a rest expires, a debt is paid back) at each period's start.")
        String renewal;

        @Override
        protected int execute() {
            Object current = Values.at(api().get(path(slug)), "budget");
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("amount", amount != null ? amount : Values.text(current, "amount"));
            String kind = period != null ? period : Values.text(current, "period");
            body.put("period", kind);
            Object kept = "custom".equals(kind) && days == null ? Values.at(current, "periodDays") : days;
            if (kept != null) {
                body.put("days", kept);
            }
            body.put("policy", policy != null ? policy : Values.text(current, "policy"));
            body.put("renewal", renewal != null ? renewal : Values.text(current, "renewal"));
            show(this, api().put(path(slug), body));
            return Exit.OK;
        }
    }

    @Command(
            name = "top-up",
            description = {
                "Add money to an account's budget (platform admins).",
                "Each top-up carries an idempotency key: give the same --idempotency-key to retry one safely."
            })
    static final class TopUp extends Verb {
        @Parameters(index = "0", paramLabel = "ACCOUNT", description = "The account's slug.")
        String slug;

        @Parameters(index = "1", paramLabel = "AMOUNT", description = "How much to add, in the currency (20, 2.5).")
        String amount;

        @Option(names = "--note", paramLabel = "TEXT", description = "Why, kept in the ledger.")
        String note;

        @Option(
                names = "--idempotency-key",
                paramLabel = "KEY",
                description = "The key of this top-up (default: a new random one, printed); a retry with the same key"
                        + " posts once.")
        String key;

        @Override
        protected int execute() {
            String k = key != null ? key : UUID.randomUUID().toString();
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("amount", amount);
            body.put("note", note);
            Object b = Api.json(api().send(
                            "POST",
                            path(slug) + "/top-ups",
                            Api.write(body),
                            "application/json",
                            Map.of("Idempotency-Key", k)));
            err().println(msg().get("budget.toppedUp", amount, slug, k));
            show(this, b);
            return Exit.OK;
        }
    }
}
