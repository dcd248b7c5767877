package io.crater.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** An account's quota per resource, its active grants, my limits in it and my usage. */
@Command(
        name = "quota",
        description = "The current account's quota (guaranteed, max, used, granted, borrowed), grants and your limits.",
        subcommands = {QuotaCommands.Show.class, QuotaCommands.Grants.class, QuotaCommands.Limits.class})
final class QuotaCommands {

    static List<Output.Column> lineColumns(Messages msg) {
        return List.of(
                Output.Column.path(msg.get("col.resource"), "resource"),
                Output.Column.path(msg.get("col.guaranteed"), "guaranteed"),
                Output.Column.path(msg.get("col.max"), "max"),
                Output.Column.path(msg.get("col.used"), "used"),
                Output.Column.path(msg.get("col.granted"), "granted"),
                Output.Column.path(msg.get("col.borrowed"), "borrowed"),
                Output.Column.wide(msg.get("col.model"), o -> Values.text(o, "displayName")));
    }

    static List<Output.Column> grantColumns(Messages msg) {
        return List.of(
                Output.Column.path(msg.get("col.id"), "id"),
                Output.Column.path(msg.get("col.resource"), "resource"),
                Output.Column.path(msg.get("col.amount"), "amount"),
                Output.Column.path(msg.get("col.until"), "until"),
                Output.Column.path(msg.get("col.requester"), "requester.username"),
                Output.Column.wide(msg.get("col.reason"), o -> Values.text(o, "reason")));
    }

    /** A member's limits in words: {@code nvidia-a100-80gb=2, jobs=3, sessions=1}, or {@code -} for none. */
    static String limits(Messages msg, Object limits) {
        List<String> parts = new ArrayList<>();
        Values.map(Values.at(limits, "resources")).forEach((k, v) -> parts.add(k + "=" + v));
        if (Values.at(limits, "maxRunningJobs") != null) {
            parts.add(msg.get("limit.jobs", Values.text(limits, "maxRunningJobs")));
        }
        if (Values.at(limits, "maxInteractiveSessions") != null) {
            parts.add(msg.get("limit.sessions", Values.text(limits, "maxInteractiveSessions")));
        }
        return parts.isEmpty() ? "-" : String.join(", ", parts);
    }

    /** The approved quota grants of an account still in force that I asked for or may review. */
    static List<Object> grants(Verb v, String slug) {
        Map<Object, Object> byId = new LinkedHashMap<>();
        for (String scope : List.of("review", "mine")) {
            Map<String, Object> q = new LinkedHashMap<>();
            q.put("scope", scope);
            q.put("state", "approved");
            v.pages("/api/v1/approvals", q, 0)
                    .forEachRemaining(page -> page.stream()
                            .filter(a -> "quota-grant".equals(Values.text(a, "kind"))
                                    && slug.equals(Values.text(a, "account")))
                            .forEach(a -> byId.putIfAbsent(Values.at(a, "id"), a)));
        }
        return new ArrayList<>(byId.values());
    }

    /** Me in the account's member list, or null (a platform admin looking at an account not theirs). */
    static Object myMembership(Verb v, String slug, String me) {
        return Values.items(v.api().get("/api/v1/accounts/" + Api.seg(slug) + "/members")).stream()
                .filter(m -> me.equals(Values.text(m, "username")))
                .findFirst()
                .orElse(null);
    }

    @Command(
            name = "show",
            description = {
                "The account's quota per resource with its usage, the active grants, your limits and your usage this"
                        + " month.",
                "The account is -a SLUG, else the context's, else your default one."
            })
    static final class Show extends Verb {
        @Override
        protected int execute() {
            String slug = VerbInputs.account(this);
            Object account = api().get("/api/v1/accounts/" + Api.seg(slug));
            List<Object> grants = grants(this, slug);
            Object me = myMembership(this, slug, VerbInputs.me(this));
            Map<String, Object> q = new LinkedHashMap<>();
            q.put("account", slug);
            q.put("by", "resource");
            Object usage = api().get("/api/v1/accounting/usage", q);
            if (!output().human()) {
                Map<String, Object> all = new LinkedHashMap<>();
                all.put("account", account);
                all.put("grants", grants);
                all.put("myLimits", me == null ? null : Values.at(me, "effectiveLimits"));
                all.put("myUsage", usage);
                output().object(all);
                return Exit.OK;
            }
            Messages m = msg();
            out().println(m.get(
                    "quota.header",
                    Values.text(account, "slug"),
                    Values.text(account, "name"),
                    Values.text(account, "myRole") == null ? "-" : Values.text(account, "myRole")));
            List<Object> lines = Values.list(Values.at(account, "quota"));
            if (lines.isEmpty()) {
                out().println(m.get("quota.none"));
            } else {
                output().list(List.of(lines).iterator(), lineColumns(m), o -> Values.text(o, "resource"));
            }
            out().println();
            if (grants.isEmpty()) {
                out().println(m.get("quota.noGrants"));
            } else {
                out().println(m.get("quota.grants"));
                output().list(List.of(grants).iterator(), grantColumns(m), o -> Values.text(o, "id"));
            }
            out().println();
            out().println(m.get("quota.myLimits", me == null ? "-" : limits(m, Values.at(me, "effectiveLimits"))));
            out().println(m.get("quota.myUsage", UsageCommand.usageLine(m, usage)));
            return Exit.OK;
        }
    }

    @Command(
            name = "grants",
            description = "The account's approved quota grants still in force (that you asked for or may review).")
    static final class Grants extends Verb {
        @Override
        protected int execute() {
            List<Object> grants = grants(this, VerbInputs.account(this));
            output().list(List.of(grants).iterator(), grantColumns(msg()), o -> Values.text(o, "id"));
            return Exit.OK;
        }
    }

    @Command(
            name = "limits",
            description = "Every member's limits in the account: their own and those in effect (the account's default"
                    + " where they have none).")
    static final class Limits extends Verb {
        @Option(names = "--mine", description = "Only your own limits.")
        boolean mine;

        @Override
        protected int execute() {
            String slug = VerbInputs.account(this);
            List<Object> members = Values.items(api().get("/api/v1/accounts/" + Api.seg(slug) + "/members"));
            if (mine) {
                String me = VerbInputs.me(this);
                members = members.stream()
                        .filter(o -> me.equals(Values.text(o, "username")))
                        .toList();
            }
            output().list(List.of(members).iterator(), memberColumns(msg()), o -> Values.text(o, "username"));
            return Exit.OK;
        }
    }

    static List<Output.Column> memberColumns(Messages msg) {
        return List.of(
                Output.Column.path(msg.get("col.user"), "username"),
                Output.Column.path(msg.get("col.name"), "displayName"),
                Output.Column.path(msg.get("col.role"), "role"),
                Output.Column.path(msg.get("col.files"), "fileAccess"),
                Output.Column.of(msg.get("col.limits"), o -> limits(msg, Values.at(o, "effectiveLimits"))),
                Output.Column.wide(msg.get("col.ownLimits"), o -> limits(msg, Values.at(o, "limits"))));
    }
}
