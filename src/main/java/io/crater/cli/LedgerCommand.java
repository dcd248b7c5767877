package io.crater.cli;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** An account's book: charges, issues, top-ups and adjustments, newest first. */
@Command(
        name = "ledger",
        description = "An account's ledger entries, newest first (a member sees only their own jobs' charges).")
final class LedgerCommand extends Verb {

    @Parameters(
            arity = "0..1",
            paramLabel = "ACCOUNT",
            description = "The account (default: -a SLUG, else the current one).")
    String slug;

    @Option(names = "--max-items", paramLabel = "N", description = "Stop after N entries (default: 50; 0: all).")
    int max = 50;

    static List<Output.Column> columns(Messages msg, String currency) {
        return List.of(
                Output.Column.path(msg.get("col.id"), "id"),
                Output.Column.path(msg.get("col.time"), "at"),
                Output.Column.path(msg.get("col.kind"), "kind"),
                Output.Column.of(msg.get("col.amount"), o -> Values.money(Values.at(o, "amountMicros"), currency)),
                Output.Column.of(
                        msg.get("col.balance"), o -> Values.money(Values.at(o, "balanceAfterMicros"), currency)),
                Output.Column.path(msg.get("col.job"), "job"),
                Output.Column.path(msg.get("col.user"), "user"),
                Output.Column.wide(msg.get("col.note"), o -> Values.text(o, "note")),
                Output.Column.wide(msg.get("col.actor"), o -> Values.text(o, "actor")));
    }

    @Override
    protected int execute() {
        String account = slug != null ? slug : VerbInputs.account(this);
        String path = "/api/v1/accounting/accounts/" + Api.seg(account) + "/ledger";
        String currency = output().human()
                ? Values.text(api().get("/api/v1/accounting/accounts/" + Api.seg(account) + "/budget"), "currency")
                : null;
        output().list(entries(path), columns(msg(), currency), o -> Values.text(o, "id"));
        return Exit.OK;
    }

    /** Pages of entries, each before the last id seen (the ledger pages by id, not by cursor). */
    private Iterator<List<Object>> entries(String path) {
        return new Iterator<>() {
            private long before;
            private int seen;
            private boolean done;

            @Override
            public boolean hasNext() {
                return !done;
            }

            @Override
            public List<Object> next() {
                if (done) {
                    throw new NoSuchElementException();
                }
                int want = max > 0 ? Math.min(500, max - seen) : 500;
                Map<String, Object> q = new LinkedHashMap<>();
                q.put("before", before);
                q.put("limit", want);
                List<Object> items = new ArrayList<>(Values.items(api().get(path, q)));
                seen += items.size();
                if (!items.isEmpty()) {
                    before = ((Number) Values.at(items.get(items.size() - 1), "id")).longValue();
                }
                done = items.size() < want || (max > 0 && seen >= max);
                return items;
            }
        };
    }
}
