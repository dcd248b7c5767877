package io.crater.cli;

import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** What each member of an account may spend per budget period; account admins set and remove them. */
@Command(
        name = "allotment",
        description = "Members' allotments inside an account's budget: what each may spend per period.",
        subcommands = {
            AllotmentCommands.ListAllotments.class,
            AllotmentCommands.Set.class,
            AllotmentCommands.Remove.class
        })
final class AllotmentCommands {

    static String path(String slug) {
        return BudgetCommands.path(slug) + "/allotments";
    }

    static List<Output.Column> columns(Messages msg, String currency) {
        return List.of(
                Output.Column.path(msg.get("col.user"), "user"),
                Output.Column.of(
                        msg.get("col.allotment"),
                        o -> Values.at(o, "amountMicros") == null
                                ? msg.get("allotment.none")
                                : Values.money(Values.at(o, "amountMicros"), currency)),
                Output.Column.of(msg.get("col.spent"), o -> Values.money(Values.at(o, "spentMicros"), currency)),
                Output.Column.of(msg.get("col.left"), o -> Values.money(Values.at(o, "leftMicros"), currency)),
                Output.Column.of(
                        msg.get("col.used"),
                        o -> Values.at(o, "usedPercent") == null ? "" : Values.at(o, "usedPercent") + "%"));
    }

    /** The listing: its period and total in words, then one row per member. */
    static void print(Verb v, Object list) {
        String cur = Values.text(list, "currency");
        Object budget = Values.at(list, "budget");
        if (!v.output().human()) {
            v.output().object(list);
            return;
        }
        if (budget == null) {
            v.out().println(v.msg().get("allotment.noBudget", Values.text(list, "account")));
            return;
        }
        v.out()
                .println(v.msg()
                        .get(
                                "allotment.header",
                                Values.text(list, "account"),
                                Values.text(budget, "periodStart"),
                                Values.text(budget, "periodEnd"),
                                Values.money(Values.at(list, "allottedMicros"), cur),
                                Values.money(Values.at(budget, "amountMicros"), cur)));
        v.output()
                .list(
                        List.of(Values.list(Values.at(list, "items"))).iterator(),
                        columns(v.msg(), cur),
                        o -> Values.text(o, "user"));
    }

    @Command(
            name = "list",
            description = "Each member's allotment, spent this period and left (a member sees only their own).")
    static final class ListAllotments extends Verb {
        @Parameters(
                arity = "0..1",
                paramLabel = "ACCOUNT",
                description = "The account (default: -a SLUG, else the current one).")
        String slug;

        @Override
        protected int execute() {
            print(this, api().get(path(slug != null ? slug : VerbInputs.account(this))));
            return Exit.OK;
        }
    }

    @Command(
            name = "set",
            description = "Set what a member may spend per budget period (account admins; -a SLUG, else the current"
                    + " account).")
    static final class Set extends Verb {
        @Parameters(index = "0", paramLabel = "USER", description = "The member's username.")
        String user;

        @Parameters(
                index = "1",
                paramLabel = "AMOUNT",
                description = "Per period, in the currency (50, 2.5); at most the budget's amount.")
        String amount;

        @Override
        protected int execute() {
            String account = VerbInputs.account(this);
            Object a = api().put(path(account) + "/" + Api.seg(user), Map.of("amount", amount));
            if (output().human()) {
                out().println(msg().get(
                                "allotment.set",
                                Values.text(a, "user"),
                                account,
                                Values.text(a, "amount"),
                                Values.text(a, "spent"),
                                Values.text(a, "left")));
            } else {
                output().object(a);
            }
            return Exit.OK;
        }
    }

    @Command(
            name = "remove",
            description = "Remove a member's allotment: they spend within the account's budget only (account admins).")
    static final class Remove extends Verb {
        @Parameters(paramLabel = "USER", description = "The member's username.")
        String user;

        @Override
        protected int execute() {
            String account = VerbInputs.account(this);
            api().delete(path(account) + "/" + Api.seg(user));
            err().println(msg().get("allotment.removed", user, account));
            return Exit.OK;
        }
    }
}
