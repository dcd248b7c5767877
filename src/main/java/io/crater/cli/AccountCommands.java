package io.crater.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** The accounts you belong to, and which one commands act in. */
@Command(
        name = "account",
        description = "Your accounts and the one commands act in (`-a SLUG` overrides it once).",
        subcommands = {AccountCommands.ListMine.class, AccountCommands.Current.class, AccountCommands.Use.class})
final class AccountCommands {

    static List<Output.Column> columns(Messages msg) {
        return List.of(
                Output.Column.of(msg.get("col.current"), o -> Boolean.TRUE.equals(Values.at(o, "current")) ? "*" : ""),
                Output.Column.path(msg.get("col.account"), "slug"),
                Output.Column.path(msg.get("col.name"), "name"),
                Output.Column.path(msg.get("col.kind"), "kind"),
                Output.Column.path(msg.get("col.role"), "role"),
                Output.Column.path(msg.get("col.files"), "fileAccess"),
                Output.Column.wide(msg.get("col.expires"), o -> Values.text(o, "expiresAt")));
    }

    /** My accounts from {@code /api/v1/me}, the current one marked. */
    static List<Object> mine(Verb v, Api api) {
        Map<String, Object> me = Values.map(api.get("/api/v1/me"));
        String current = api.account() != null ? api.account() : Values.str(me.get("defaultAccount"));
        return Values.list(me.get("accounts")).stream()
                .map(a -> {
                    Map<String, Object> m = new LinkedHashMap<>(Values.map(a));
                    m.put("current", current != null && current.equals(m.get("slug")));
                    return (Object) m;
                })
                .toList();
    }

    @Command(name = "list", aliases = "ls", description = "The accounts you are a member of; * marks the current one.")
    static final class ListMine extends Verb {
        @Override
        protected int execute() {
            List<Object> mine = mine(this, api());
            NameCache.remember(
                    term(),
                    NameCache.ACCOUNTS,
                    mine.stream().map(o -> Values.text(o, "slug")).toList());
            output().list(List.of(mine).iterator(), columns(msg()), o -> Values.text(o, "slug"));
            return Exit.OK;
        }
    }

    @Command(name = "current", description = "The account commands act in.")
    static final class Current extends Verb {
        @Override
        protected int execute() {
            Object current = mine(this, api()).stream()
                    .filter(a -> Boolean.TRUE.equals(Values.at(a, "current")))
                    .findFirst()
                    .orElseThrow(
                            () -> new CliException(Exit.NOT_FOUND, msg().get("account.notMember", api().account())));
            output().one(current, columns(msg()), o -> Values.text(o, "slug"));
            return Exit.OK;
        }
    }

    @Command(name = "use", description = "Act in this account from now on (kept in the context).")
    static final class Use extends Verb {
        @Parameters(paramLabel = "SLUG", description = "The account's slug (see crater account list).")
        String slug;

        @Override
        protected int execute() {
            boolean member = mine(this, api()).stream().anyMatch(a -> slug.equals(Values.text(a, "slug")));
            if (!member) {
                throw new CliException(Exit.NOT_FOUND, msg().get("account.notMember", slug));
            }
            Config.Context ctx = root().chosenContext();
            if (ctx == null) {
                throw new CliException(Exit.USAGE, msg().get("error.noContext"));
            }
            config().update(ctx.withAccount(slug));
            config().save();
            err().println(msg().get("account.using", slug, ctx.name()));
            return Exit.OK;
        }
    }
}
