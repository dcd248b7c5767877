package io.crater.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The price book: per unit-hour of each resource, versioned from a time on. */
@Command(
        name = "price",
        description = "Prices per device-, core- or GiB-hour; platform admins add new ones from a time on.",
        subcommands = {PriceCommands.ListPrices.class, PriceCommands.Set.class})
final class PriceCommands {

    static List<Output.Column> columns(Messages msg, String currency) {
        return List.of(
                Output.Column.path(msg.get("col.resource"), "resource"),
                Output.Column.path(msg.get("col.unit"), "unit"),
                Output.Column.of(msg.get("col.price"), o -> Values.money(Values.at(o, "microsPerHour"), currency)),
                Output.Column.path(msg.get("col.from"), "effectiveFrom"),
                Output.Column.wide(msg.get("col.by"), o -> Values.text(o, "by")));
    }

    @Command(name = "list", aliases = "ls", description = "The prices in force now (--history: every version).")
    static final class ListPrices extends Verb {
        @Option(names = "--history", description = "Every price ever set, also those not yet or no longer in force.")
        boolean history;

        @Override
        protected int execute() {
            Object book = api().get("/api/v1/accounting/prices");
            List<Object> rows = Values.list(Values.at(book, history ? "history" : "current"));
            output().list(
                            List.of(rows).iterator(),
                            columns(msg(), Values.text(book, "currency")),
                            o -> Values.text(o, "resource"));
            return Exit.OK;
        }
    }

    @Command(
            name = "set",
            description = "Set a resource's price per unit-hour from a time on (platform admins); past times are"
                    + " refused, settled usage keeps its price.")
    static final class Set extends Verb {
        @Parameters(index = "0", paramLabel = "MODEL", description = "cpu, memory or an accelerator model key.")
        String resource;

        @Parameters(index = "1", paramLabel = "PRICE", description = "Per unit-hour, in the currency (2.5).")
        String price;

        @Option(
                names = "--from",
                paramLabel = "TIME",
                description = "From when (default: now): an ISO time, a date, or a span from now (1d).")
        String from;

        @Override
        protected int execute() {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("resource", resource);
            body.put("pricePerHour", price);
            body.put(
                    "effectiveFrom",
                    from == null
                            ? null
                            : VerbInputs.time(from, now(), "--from", msg()).toString());
            Object p = api().post("/api/v1/accounting/prices", body);
            String currency = Values.text(api().get("/api/v1/accounting/prices"), "currency");
            output().one(p, columns(msg(), currency), o -> Values.text(o, "resource"));
            return Exit.OK;
        }
    }
}
