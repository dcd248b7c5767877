package io.crater.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Team accounts (platform admins): list, read with quota, create, rename or change expiry, archive. */
@Command(
        name = "account",
        description =
                "Accounts: list, read (with quota), create, update and archive (platform admins), and what each may use.",
        subcommands = {
            AdminAccountCommands.ListAccounts.class,
            AdminAccountCommands.Get.class,
            AdminAccountCommands.Create.class,
            AdminAccountCommands.Update.class,
            AdminAccountCommands.Archive.class,
            AccountFeatureCommand.class
        })
final class AdminAccountCommands {

    static String path(String slug) {
        return "/api/v1/accounts/" + Api.seg(slug);
    }

    static List<Output.Column> columns(Messages msg) {
        return List.of(
                Output.Column.path(msg.get("col.account"), "slug"),
                Output.Column.path(msg.get("col.name"), "name"),
                Output.Column.path(msg.get("col.kind"), "kind"),
                Output.Column.path(msg.get("col.members"), "members"),
                Output.Column.path(msg.get("col.expires"), "expiresAt"),
                Output.Column.state(
                        msg.get("col.state"), o -> Values.at(o, "archivedAt") == null ? "active" : "archived"),
                Output.Column.wide(msg.get("col.gid"), o -> Values.text(o, "gid")));
    }

    /** An account's details: its row and, in the human form, its quota table. */
    static void detail(Verb v, Object account) {
        if (!v.output().human()) {
            v.output().object(account);
            return;
        }
        Messages m = v.msg();
        v.out()
                .println(m.get(
                        "account.detail",
                        Values.text(account, "slug"),
                        Values.text(account, "name"),
                        Values.text(account, "kind"),
                        Values.text(account, "gid")));
        if (Values.at(account, "expiresAt") != null) {
            v.out().println(m.get("account.expiresAt", Values.text(account, "expiresAt")));
        }
        if (Values.at(account, "archivedAt") != null) {
            v.out().println(m.get("account.archivedAt", Values.text(account, "archivedAt")));
        }
        List<Object> lines = Values.list(Values.at(account, "quota"));
        v.out().println();
        if (lines.isEmpty()) {
            v.out().println(m.get("quota.none"));
        } else {
            v.output().list(List.of(lines).iterator(), QuotaCommands.lineColumns(m), o -> Values.text(o, "resource"));
        }
    }

    @Command(name = "list", aliases = "ls", description = "Every account (platform admins), else yours.")
    static final class ListAccounts extends Verb {
        @Option(
                names = {"-q", "--query"},
                paramLabel = "TEXT",
                description = "Part of a slug or name.")
        String query;

        @Option(names = "--max-items", paramLabel = "N", description = "Stop after N accounts (default: all).")
        int max;

        @Override
        protected int execute() {
            Map<String, Object> q = new LinkedHashMap<>();
            q.put("q", query);
            List<String> slugs = new java.util.ArrayList<>();
            java.util.Iterator<List<Object>> pages = pages("/api/v1/accounts", q, max);
            java.util.Iterator<List<Object>> remembering = new java.util.Iterator<>() {
                @Override
                public boolean hasNext() {
                    boolean more = pages.hasNext();
                    if (!more) {
                        NameCache.remember(term(), NameCache.ACCOUNTS, slugs);
                    }
                    return more;
                }

                @Override
                public List<Object> next() {
                    List<Object> page = pages.next();
                    page.forEach(o -> slugs.add(Values.text(o, "slug")));
                    return page;
                }
            };
            output().list(remembering, columns(msg()), o -> Values.text(o, "slug"));
            return Exit.OK;
        }
    }

    @Command(name = "get", description = "An account with its quota, usage, grants and borrowing per resource.")
    static final class Get extends Verb {
        @Parameters(paramLabel = "ACCOUNT", description = "The account's slug.")
        String slug;

        @Override
        protected int execute() {
            detail(this, api().get(path(slug)));
            return Exit.OK;
        }
    }

    @Command(name = "create", description = "Create a team account (platform admins).")
    static final class Create extends Verb {
        @Parameters(paramLabel = "ACCOUNT", description = "The slug: a DNS label of up to 50 characters.")
        String slug;

        @Option(names = "--name", paramLabel = "TEXT", description = "The account's name (default: the slug).")
        String name;

        @Option(names = "--admin", paramLabel = "USER", description = "Its first account admin.")
        String admin;

        @Option(
                names = "--expires",
                paramLabel = "TIME",
                description = "After this no new job starts in it: an ISO time, a date, or a span from now (90d).")
        String expires;

        @Override
        protected int execute() {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("slug", slug);
            body.put("name", name != null ? name : slug);
            body.put("admin", admin);
            body.put(
                    "expiresAt",
                    expires == null
                            ? null
                            : VerbInputs.time(expires, now(), "--expires", msg())
                                    .toString());
            detail(this, api().post("/api/v1/accounts", body));
            return Exit.OK;
        }
    }

    @Command(name = "update", description = "Rename an account or change its expiry (platform admins).")
    static final class Update extends Verb {
        @Parameters(paramLabel = "ACCOUNT", description = "The account's slug.")
        String slug;

        @Option(names = "--name", paramLabel = "TEXT", description = "The new name.")
        String name;

        @Option(names = "--expires", paramLabel = "TIME", description = "The new expiry (ISO time, date or span).")
        String expires;

        @Option(names = "--no-expiry", description = "Remove the expiry.")
        boolean noExpiry;

        @Override
        protected int execute() {
            if (expires != null && noExpiry) {
                throw new CliException(Exit.USAGE, msg().get("account.expiryBoth"));
            }
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("name", name);
            body.put(
                    "expiresAt",
                    expires == null
                            ? null
                            : VerbInputs.time(expires, now(), "--expires", msg())
                                    .toString());
            body.put("clearExpiry", noExpiry ? Boolean.TRUE : null);
            detail(this, api().patch(path(slug), body));
            return Exit.OK;
        }
    }

    @Command(
            name = "archive",
            description = "End a team account for good: no job starts in it again and its unfinished jobs are stopped;"
                    + " its rows are kept (asks first unless --yes).")
    static final class Archive extends Verb {
        @Parameters(paramLabel = "ACCOUNT", description = "The account's slug.")
        String slug;

        @Override
        protected int execute() {
            confirm(msg().get("account.confirmArchive", slug));
            Object r = api().post(path(slug) + "/archive", null);
            if (output().human()) {
                out().println(msg().get("account.archived", slug, Values.text(r, "jobsStopped")));
            } else {
                output().object(r);
            }
            return Exit.OK;
        }
    }
}
