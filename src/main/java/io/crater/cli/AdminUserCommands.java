package io.crater.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Users (platform admins): list, read, create, import from CSV, change role, disable, reset a password. */
@Command(
        name = "user",
        description = "Users (platform admins): list, create, import from CSV, roles, disable, passwords.",
        subcommands = {
            AdminUserCommands.ListUsers.class,
            AdminUserCommands.Get.class,
            AdminUserCommands.Create.class,
            AdminUserImport.class,
            AdminUserCommands.SetRole.class,
            AdminUserCommands.Disable.class,
            AdminUserCommands.Enable.class,
            AdminUserCommands.ResetPassword.class
        })
final class AdminUserCommands {

    static String path(String username) {
        return "/api/v1/users/" + Api.seg(username);
    }

    static List<Output.Column> columns(Messages msg, java.time.Instant now) {
        return List.of(
                Output.Column.path(msg.get("col.user"), "username"),
                Output.Column.path(msg.get("col.name"), "displayName"),
                Output.Column.path(msg.get("col.email"), "email"),
                Output.Column.path(msg.get("col.role"), "role"),
                Output.Column.state(
                        msg.get("col.state"),
                        o -> Boolean.TRUE.equals(Values.at(o, "disabled")) ? "disabled" : "active"),
                Output.Column.path(msg.get("col.account"), "defaultAccount"),
                Output.Column.of(msg.get("col.age"), o -> Values.age(Values.at(o, "createdAt"), now)),
                Output.Column.wide(msg.get("col.uid"), o -> Values.text(o, "uid")),
                Output.Column.wide(msg.get("col.slug"), o -> Values.text(o, "slug")));
    }

    static void print(Verb v, Object user) {
        v.output().one(user, columns(v.msg(), v.now()), o -> Values.text(o, "username"));
    }

    @Command(name = "list", aliases = "ls", description = "Users, optionally those whose name or e-mail matches.")
    static final class ListUsers extends Verb {
        @Option(
                names = {"-q", "--query"},
                paramLabel = "TEXT",
                description = "Part of a username, name or e-mail.")
        String query;

        @Option(names = "--max-items", paramLabel = "N", description = "Stop after N users (default: all).")
        int max;

        @Override
        protected int execute() {
            Map<String, Object> q = new LinkedHashMap<>();
            q.put("q", query);
            output().list(pages("/api/v1/users", q, max), columns(msg(), now()), o -> Values.text(o, "username"));
            return Exit.OK;
        }
    }

    @Command(name = "get", description = "One user.")
    static final class Get extends Verb {
        @Parameters(paramLabel = "USER", description = "The username.")
        String username;

        @Override
        protected int execute() {
            print(this, api().get(path(username)));
            return Exit.OK;
        }
    }

    @Command(
            name = "create",
            description = "Create a user with a personal account; without --password-stdin a password is generated and"
                    + " printed once.")
    static final class Create extends Verb {
        @Parameters(paramLabel = "USER", description = "The username (2-64 of a-z 0-9 . _ -, stored in lower case).")
        String username;

        @Option(names = "--name", paramLabel = "TEXT", description = "The display name (default: the username).")
        String name;

        @Option(names = "--email", paramLabel = "ADDRESS", description = "The e-mail address.")
        String email;

        @Option(names = "--role", paramLabel = "ROLE", description = "Platform role: user (default) or admin.")
        String role;

        @Option(names = "--password-stdin", description = "Read the password from standard input (10+ characters).")
        boolean passwordStdin;

        @Option(
                names = "--member-of",
                paramLabel = "ACCOUNT[:ROLE]",
                description = "Also a member of this team account, as member (default) or admin; repeat for several.")
        List<String> memberOf = new ArrayList<>();

        @Override
        protected int execute() {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("username", username);
            body.put("displayName", name != null ? name : username);
            body.put("email", email);
            body.put("role", role);
            if (passwordStdin) {
                String line = readLine();
                body.put("password", line == null ? "" : line);
            }
            List<Map<String, String>> accounts = new ArrayList<>();
            for (String m : memberOf) {
                int colon = m.indexOf(':');
                accounts.add(Map.of(
                        "account", colon < 0 ? m : m.substring(0, colon),
                        "role", colon < 0 ? "member" : m.substring(colon + 1)));
            }
            body.put("accounts", accounts.isEmpty() ? null : accounts);
            Object created = api().post("/api/v1/users", body);
            if (!output().human()) {
                output().object(created);
                return Exit.OK;
            }
            print(this, Values.at(created, "user"));
            String password = Values.text(created, "password");
            if (password != null) {
                out().println(msg().get("user.password", Values.text(created, "user.username"), password));
            }
            return Exit.OK;
        }
    }

    @Command(name = "set-role", description = "Make a user a platform admin or an ordinary user.")
    static final class SetRole extends Verb {
        @Parameters(index = "0", paramLabel = "USER", description = "The username.")
        String username;

        @Parameters(index = "1", paramLabel = "ROLE", description = "admin or user.")
        String role;

        @Override
        protected int execute() {
            print(this, api().patch(path(username), Map.of("role", role)));
            return Exit.OK;
        }
    }

    @Command(
            name = "disable",
            description = "Refuse a user's sign-in and tokens from now on (asks first unless --yes).")
    static final class Disable extends Verb {
        @Parameters(paramLabel = "USER", description = "The username.")
        String username;

        @Override
        protected int execute() {
            confirm(msg().get("user.confirmDisable", username));
            print(this, api().patch(path(username), Map.of("disabled", true)));
            return Exit.OK;
        }
    }

    @Command(name = "enable", description = "Let a disabled user sign in again.")
    static final class Enable extends Verb {
        @Parameters(paramLabel = "USER", description = "The username.")
        String username;

        @Override
        protected int execute() {
            print(this, api().patch(path(username), Map.of("disabled", false)));
            return Exit.OK;
        }
    }

    @Command(
            name = "reset-password",
            description = "Give a user a new generated password, printed once; their sessions end (asks first unless"
                    + " --yes).")
    static final class ResetPassword extends Verb {
        @Parameters(paramLabel = "USER", description = "The username.")
        String username;

        @Override
        protected int execute() {
            confirm(msg().get("user.confirmReset", username));
            Object r = api().post(path(username) + "/password-reset", null);
            if (output().human()) {
                out().println(msg().get("user.password", username, Values.text(r, "password")));
            } else {
                output().object(r);
            }
            return Exit.OK;
        }
    }
}
