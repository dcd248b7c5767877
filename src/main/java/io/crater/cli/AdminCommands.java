package io.crater.cli;

import picocli.CommandLine.Command;

/** Platform and account administration: every verb is a call the API refuses to those not allowed (exit 4). */
@Command(
        name = "admin",
        description = "Administration: users, accounts, members, quotas, limits, accelerator models, audit, nodes.",
        subcommands = {
            AdminUserCommands.class,
            AdminAccountCommands.class,
            AdminMemberCommands.class,
            AdminQuotaCommands.class,
            AdminLimitCommands.class,
            AdminModelCommands.class,
            AdminAuditCommand.class,
            AdminNodeCommands.class
        })
final class AdminCommands {}
