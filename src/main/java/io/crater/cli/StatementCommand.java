package io.crater.cli;

import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** An account's statements (docs/accounting.md, "Statements"): the list, or one month or week with its lines. */
@Command(
        name = "statement",
        description = {
            "An account's statements (its admins): without a period, every closed period's balances; with one"
                    + " (a month, 2026-11, or for a weekly budget an ISO week, 2026-W48), its movements and what each"
                    + " member held, used and what it cost.",
            "A month (and a week of a weekly budget) gets its statement once it is over; it never changes after."
        })
final class StatementCommand extends Verb {

    @Parameters(
            arity = "0..1",
            paramLabel = "PERIOD",
            description = "The month, as 2026-11, or the week, as 2026-W48 (default: list them).")
    String month;

    static List<Output.Column> summaryColumns(Messages msg) {
        return List.of(
                Output.Column.path(msg.get("col.period"), "period"),
                Output.Column.of(msg.get("col.opening"), o -> money(o, "opening")),
                Output.Column.of(msg.get("col.charged"), o -> money(o, "charged")),
                Output.Column.of(msg.get("col.issued"), o -> money(o, "issued")),
                Output.Column.of(msg.get("col.closing"), o -> money(o, "closing")),
                Output.Column.wide(msg.get("col.created"), o -> Values.text(o, "closedAt")));
    }

    static List<Output.Column> lineColumns(Messages msg, String currency) {
        return List.of(
                Output.Column.path(msg.get("col.user"), "user"),
                Output.Column.path(msg.get("col.resource"), "resource"),
                Output.Column.of(msg.get("col.held"), UsageCommand::held),
                Output.Column.of(msg.get("col.usedHours"), o -> UsageCommand.hours(Values.at(o, "used"))),
                Output.Column.of(msg.get("col.cost"), o -> Values.text(o, "cost") + " " + currency));
    }

    /** An amount of a statement with its currency: {@code 12.5 points}. */
    static String money(Object summary, String field) {
        return Values.text(summary, field) + " " + Values.text(summary, "currency");
    }

    /** A statement's movements in one line. */
    static String header(Messages msg, String account, Object summary) {
        return msg.get(
                "statement.header",
                account,
                Values.text(summary, "period"),
                money(summary, "opening"),
                money(summary, "issued"),
                money(summary, "charged"),
                money(summary, "adjusted"),
                money(summary, "expired"),
                money(summary, "closing"));
    }

    @Override
    protected int execute() {
        String account = VerbInputs.account(this);
        String base = "/api/v1/accounting/accounts/" + Api.seg(account) + "/statements";
        if (month == null) {
            List<Object> items = Values.items(api().get(base));
            if (items.isEmpty() && output().human()) {
                out().println(msg().get("statement.none"));
                return Exit.OK;
            }
            output().list(List.of(items).iterator(), summaryColumns(msg()), o -> Values.text(o, "period"));
            return Exit.OK;
        }
        Object statement = api().get(base + "/" + Api.seg(month.trim()));
        if (!output().human()) {
            output().object(statement);
            return Exit.OK;
        }
        Object summary = Values.at(statement, "summary");
        out().println(header(msg(), account, summary));
        List<Object> lines = Values.list(Values.at(statement, "lines"));
        output().list(
                        List.of(lines).iterator(),
                        lineColumns(msg(), Values.text(summary, "currency")),
                        o -> Values.text(o, "user") + "/" + Values.text(o, "resource"));
        return Exit.OK;
    }
}
