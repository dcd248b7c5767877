package io.crater.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** An account's quota per resource (platform admins set it). */
@Command(
        name = "quota",
        description = "An account's quota per resource: show it, set one resource's guaranteed and max.",
        subcommands = {AdminQuotaCommands.Show.class, AdminQuotaCommands.Set.class})
final class AdminQuotaCommands {

    @Command(name = "show", description = "The account's quota per resource with usage, grants and borrowing.")
    static final class Show extends Verb {
        @Parameters(paramLabel = "ACCOUNT", description = "The account's slug.")
        String slug;

        @Override
        protected int execute() {
            Object account = api().get(AdminAccountCommands.path(slug));
            if (output().human()) {
                AdminAccountCommands.detail(this, account);
            } else {
                output().list(
                                List.of(Values.list(Values.at(account, "quota")))
                                        .iterator(),
                                QuotaCommands.lineColumns(msg()),
                                o -> Values.text(o, "resource"));
            }
            return Exit.OK;
        }
    }

    @Command(
            name = "set",
            description = {
                "Set one resource's guaranteed and max in an account's quota (platform admins); the other resources"
                        + " keep theirs.",
                "Lowering a quota stops no running job: its usage becomes borrowing."
            })
    static final class Set extends Verb {
        @Parameters(index = "0", paramLabel = "ACCOUNT", description = "The account's slug.")
        String slug;

        @Parameters(index = "1", paramLabel = "RESOURCE", description = "cpu, memory or an accelerator model key.")
        String resource;

        @Option(
                names = "--guaranteed",
                paramLabel = "AMOUNT",
                description = "Always available to the account (a quantity: 8, 500m, 512Gi); default: unchanged, or 0.")
        String guaranteed;

        @Option(
                names = "--max",
                paramLabel = "AMOUNT",
                description = "The most it may use, borrowing included (at least --guaranteed); default: unchanged,"
                        + " or the guaranteed amount.")
        String max;

        @Override
        protected int execute() {
            if (guaranteed == null && max == null) {
                throw new CliException(Exit.USAGE, msg().get("quota.setNothing"));
            }
            Object account = api().get(AdminAccountCommands.path(slug));
            List<Map<String, Object>> items = new ArrayList<>();
            boolean found = false;
            for (Object line : Values.list(Values.at(account, "quota"))) {
                Map<String, Object> item = new LinkedHashMap<>();
                String res = Values.text(line, "resource");
                boolean mine = res.equals(resource);
                found |= mine;
                item.put("resource", res);
                item.put("guaranteed", mine && guaranteed != null ? guaranteed : Values.text(line, "guaranteed"));
                item.put("max", mine && max != null ? max : Values.text(line, "max"));
                items.add(item);
            }
            if (!found) {
                Map<String, Object> item = new LinkedHashMap<>();
                item.put("resource", resource);
                item.put("guaranteed", guaranteed != null ? guaranteed : "0");
                item.put("max", max != null ? max : guaranteed);
                items.add(item);
            }
            Object updated = api().put(AdminAccountCommands.path(slug) + "/quota", Map.of("items", items));
            AdminAccountCommands.detail(this, updated);
            return Exit.OK;
        }
    }
}
