package io.crater.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** An account's members (account admins and platform admins): list, add, change role, remove. */
@Command(
        name = "member",
        description = "An account's members: list, add, change role or file access, remove (account admins).",
        subcommands = {
            AdminMemberCommands.ListMembers.class,
            AdminMemberCommands.Add.class,
            AdminMemberCommands.SetRole.class,
            AdminMemberCommands.Remove.class
        })
final class AdminMemberCommands {

    static String path(String slug, String username) {
        return "/api/v1/accounts/" + Api.seg(slug) + "/members/" + Api.seg(username);
    }

    static void print(Verb v, Object member) {
        v.output().one(member, QuotaCommands.memberColumns(v.msg()), o -> Values.text(o, "username"));
    }

    @Command(name = "list", aliases = "ls", description = "The account's members with their roles and limits.")
    static final class ListMembers extends Verb {
        @Parameters(paramLabel = "ACCOUNT", description = "The account's slug.")
        String slug;

        @Override
        protected int execute() {
            output().list(
                            java.util.List.of(Values.items(api().get("/api/v1/accounts/" + Api.seg(slug) + "/members")))
                                    .iterator(),
                            QuotaCommands.memberColumns(msg()),
                            o -> Values.text(o, "username"));
            return Exit.OK;
        }
    }

    @Command(name = "add", description = "Add a user to an account (or change an existing member's role and access).")
    static final class Add extends Verb {
        @Parameters(index = "0", paramLabel = "ACCOUNT", description = "The account's slug.")
        String slug;

        @Parameters(index = "1", paramLabel = "USER", description = "The username.")
        String username;

        @Option(names = "--role", paramLabel = "ROLE", description = "member (default) or admin.")
        String role = "member";

        @Option(names = "--files", paramLabel = "ACCESS", description = "The account's file space: rw (default) or ro.")
        String files = "rw";

        @Override
        protected int execute() {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("role", role);
            body.put("fileAccess", files);
            print(this, api().put(path(slug, username), body));
            return Exit.OK;
        }
    }

    @Command(name = "set-role", description = "Change a member's role (their file access stays).")
    static final class SetRole extends Verb {
        @Parameters(index = "0", paramLabel = "ACCOUNT", description = "The account's slug.")
        String slug;

        @Parameters(index = "1", paramLabel = "USER", description = "The member's username.")
        String username;

        @Parameters(index = "2", paramLabel = "ROLE", description = "member or admin.")
        String role;

        @Override
        protected int execute() {
            Object member = Values.items(api().get("/api/v1/accounts/" + Api.seg(slug) + "/members")).stream()
                    .filter(o -> username.equalsIgnoreCase(Values.text(o, "username")))
                    .findFirst()
                    .orElseThrow(() -> new CliException(Exit.NOT_FOUND, msg().get("member.none", username, slug)));
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("role", role);
            body.put("fileAccess", Values.text(member, "fileAccess"));
            print(this, api().put(path(slug, username), body));
            return Exit.OK;
        }
    }

    @Command(name = "remove", description = "Remove a member from an account (asks first unless --yes).")
    static final class Remove extends Verb {
        @Parameters(index = "0", paramLabel = "ACCOUNT", description = "The account's slug.")
        String slug;

        @Parameters(index = "1", paramLabel = "USER", description = "The member's username.")
        String username;

        @Override
        protected int execute() {
            confirm(msg().get("member.confirmRemove", username, slug));
            api().delete(path(slug, username));
            err().println(msg().get("member.removed", username, slug));
            return Exit.OK;
        }
    }
}
