package io.crater.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Member limits inside an account (the default, or one member's override) and the account's job time limits. */
@Command(
        name = "limit",
        description = "Member limits (an account's default or a member's own) and an account's job time limits.",
        subcommands = {
            AdminLimitCommands.Show.class,
            AdminLimitCommands.Set.class,
            AdminLimitCommands.TimeShow.class,
            AdminLimitCommands.TimeSet.class
        })
final class AdminLimitCommands {

    static String path(String slug, String username) {
        return "/api/v1/accounts/" + Api.seg(slug)
                + (username == null ? "/limits" : "/members/" + Api.seg(username) + "/limits");
    }

    static void print(Verb v, String slug, String username, Object limits) {
        if (v.output().human()) {
            v.out()
                    .println(v.msg()
                            .get(
                                    username == null ? "limit.default" : "limit.member",
                                    slug,
                                    username,
                                    QuotaCommands.limits(v.msg(), limits)));
        } else {
            v.output().object(limits);
        }
    }

    @Command(name = "show", description = "An account's default member limits, or one member's own (USER).")
    static final class Show extends Verb {
        @Parameters(index = "0", paramLabel = "ACCOUNT", description = "The account's slug.")
        String slug;

        @Parameters(
                index = "1",
                arity = "0..1",
                paramLabel = "USER",
                description = "A member (default: the account's default).")
        String username;

        @Override
        protected int execute() {
            print(this, slug, username, api().get(path(slug, username)));
            return Exit.OK;
        }
    }

    @Command(
            name = "set",
            description = {
                "Set member limits: the account's default, or a member's own with USER (account admins).",
                "Fields not given keep their value; --clear starts from no limits."
            })
    static final class Set extends Verb {
        @Parameters(index = "0", paramLabel = "ACCOUNT", description = "The account's slug.")
        String slug;

        @Parameters(
                index = "1",
                arity = "0..1",
                paramLabel = "USER",
                description = "A member (default: the account's default).")
        String username;

        @Option(
                names = "--resource",
                paramLabel = "RESOURCE=AMOUNT",
                description = "At most this much of a resource at once (nvidia-a100-80gb=2, cpu=16); an empty amount"
                        + " removes it; repeat for several.")
        Map<String, String> resources = new LinkedHashMap<>();

        @Option(names = "--max-running-jobs", paramLabel = "N", description = "At most N admitted or running jobs.")
        Integer maxRunningJobs;

        @Option(names = "--max-interactive-sessions", paramLabel = "N", description = "At most N interactive jobs.")
        Integer maxInteractiveSessions;

        @Option(names = "--clear", description = "Start from no limits instead of the current ones.")
        boolean clear;

        @Override
        protected int execute() {
            Object current = clear ? Map.of() : api().get(path(slug, username));
            Map<String, Object> res = new LinkedHashMap<>(Values.map(Values.at(current, "resources")));
            resources.forEach((k, v) -> {
                if (v == null || v.isBlank()) {
                    res.remove(k);
                } else {
                    res.put(k, v);
                }
            });
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("resources", res);
            body.put("maxRunningJobs", maxRunningJobs != null ? maxRunningJobs : Values.at(current, "maxRunningJobs"));
            body.put(
                    "maxInteractiveSessions",
                    maxInteractiveSessions != null
                            ? maxInteractiveSessions
                            : Values.at(current, "maxInteractiveSessions"));
            print(this, slug, username, api().put(path(slug, username), body));
            return Exit.OK;
        }
    }

    @Command(name = "time-show", description = "An account's job time limits: its own and those in effect.")
    static final class TimeShow extends Verb {
        @Parameters(paramLabel = "ACCOUNT", description = "The account's slug.")
        String slug;

        @Override
        protected int execute() {
            printTimes(this, api().get("/api/v1/accounts/" + Api.seg(slug) + "/time-limits"));
            return Exit.OK;
        }
    }

    static void printTimes(Verb v, Object t) {
        if (!v.output().human()) {
            v.output().object(t);
            return;
        }
        Map<String, Object> eff = Values.map(Values.at(t, "effective"));
        for (String k : new String[] {"interactiveDefault", "interactiveMax", "batchDefault", "batchMax"}) {
            String own = Values.text(t, k);
            v.out()
                    .println(v.msg()
                            .get(
                                    "limit.time",
                                    k,
                                    eff.get(k),
                                    own == null ? v.msg().get("limit.platform") : own));
        }
    }

    @Command(
            name = "time-set",
            description = "Narrow an account's job time limits within the platform's (platform admins); a field not"
                    + " given keeps its value, an empty one falls back to the platform's.")
    static final class TimeSet extends Verb {
        @Parameters(paramLabel = "ACCOUNT", description = "The account's slug.")
        String slug;

        @Option(
                names = "--interactive-default",
                paramLabel = "SPAN",
                description = "Default run time of interactive jobs (8h).")
        String interactiveDefault;

        @Option(
                names = "--interactive-max",
                paramLabel = "SPAN",
                description = "Longest run time of interactive jobs (2d).")
        String interactiveMax;

        @Option(names = "--batch-default", paramLabel = "SPAN", description = "Default run time of batch jobs (1d).")
        String batchDefault;

        @Option(names = "--batch-max", paramLabel = "SPAN", description = "Longest run time of batch jobs (3d).")
        String batchMax;

        @Override
        protected int execute() {
            String path = "/api/v1/accounts/" + Api.seg(slug) + "/time-limits";
            Object current = api().get(path);
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("interactiveDefault", pick(interactiveDefault, current, "interactiveDefault"));
            body.put("interactiveMax", pick(interactiveMax, current, "interactiveMax"));
            body.put("batchDefault", pick(batchDefault, current, "batchDefault"));
            body.put("batchMax", pick(batchMax, current, "batchMax"));
            printTimes(this, api().put(path, body));
            return Exit.OK;
        }

        private static String pick(String given, Object current, String field) {
            return given != null ? given : Values.text(current, field);
        }
    }
}
