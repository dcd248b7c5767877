package io.crater.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** One's credentials: secrets stored write-only that jobs reference by name ({@code {"credential": NAME}}). */
@Command(
        name = "credential",
        description = "Your credentials: tokens and passwords stored write-only; a job's env takes one with"
                + " {\"credential\": NAME}.",
        subcommands = {
            CredentialCommands.ListCredentials.class,
            CredentialCommands.Set.class,
            CredentialCommands.Delete.class
        })
final class CredentialCommands {

    static List<Output.Column> columns(Messages msg) {
        return List.of(
                Output.Column.path(msg.get("col.name"), "name"),
                Output.Column.path(msg.get("col.kind"), "kind"),
                Output.Column.of(msg.get("col.registry"), o -> registry(o)),
                Output.Column.of(msg.get("col.lastUsed"), o -> Values.text(o, "lastUsedAt")),
                Output.Column.wide(msg.get("col.updated"), o -> Values.text(o, "updatedAt")),
                Output.Column.wide(msg.get("col.description"), o -> Values.text(o, "description")));
    }

    private static String registry(Object o) {
        String host = Values.text(o, "host");
        String user = Values.text(o, "username");
        return host == null ? "" : (user == null ? "" : user + "@") + host;
    }

    @Command(name = "list", aliases = "ls", description = "Your credentials (names and kinds, never values).")
    static final class ListCredentials extends Verb {
        @Override
        protected int execute() {
            Object page = api().get("/api/v1/me/credentials");
            output().list(List.of(Values.items(page)).iterator(), columns(msg()), o -> Values.text(o, "name"));
            return Exit.OK;
        }
    }

    @Command(
            name = "set",
            description = "Store a credential or replace its value. The value is read from standard input, or at a"
                    + " terminal from a prompt that does not echo it; never from an argument.")
    static final class Set extends Verb {
        @Parameters(paramLabel = "NAME", description = "1 to 40 lowercase letters, digits or -.")
        String name;

        @Option(
                names = "--kind",
                paramLabel = "KIND",
                description = "huggingface, modelscope, wandb, registry or generic (default: generic; new ones only).")
        String kind;

        @Option(names = "--host", paramLabel = "HOST", description = "The registry's host (registry only).")
        String host;

        @Option(names = "--username", paramLabel = "USER", description = "The registry's user name (registry only).")
        String username;

        @Option(names = "--description", paramLabel = "TEXT", description = "What it is for.")
        String description;

        @Override
        protected int execute() {
            boolean exists = Values.items(api().get("/api/v1/me/credentials")).stream()
                    .anyMatch(o -> name.equals(Values.text(o, "name")));
            if (exists && kind != null) {
                throw new CliException(Exit.USAGE, msg().get("credential.kindFixed", name));
            }
            Map<String, Object> body = new LinkedHashMap<>();
            if (!exists) {
                body.put("name", name);
                body.put("kind", kind == null ? "generic" : kind);
            }
            put(body, "host", host);
            put(body, "username", username);
            put(body, "description", description);
            body.put("value", value());
            Object saved = exists
                    ? api().put("/api/v1/me/credentials/" + name, body)
                    : api().post("/api/v1/me/credentials", body);
            if (output().human()) {
                err().println(msg().get(exists ? "credential.replaced" : "credential.stored", name));
            } else {
                output().object(saved);
            }
            return Exit.OK;
        }

        private static void put(Map<String, Object> body, String key, String value) {
            if (value != null) {
                body.put(key, value);
            }
        }

        /** The value from a no-echo prompt at a terminal, else all of standard input less one final newline. */
        private String value() {
            java.io.Console console = System.console();
            String v;
            if (term().interactive() && console != null) {
                char[] typed = console.readPassword(msg().get("credential.prompt", name));
                v = typed == null ? "" : new String(typed);
            } else {
                v = readAll();
                v = v.endsWith("\r\n")
                        ? v.substring(0, v.length() - 2)
                        : v.endsWith("\n") ? v.substring(0, v.length() - 1) : v;
            }
            if (v.isEmpty()) {
                throw new CliException(Exit.USAGE, msg().get("credential.empty"));
            }
            return v;
        }
    }

    @Command(name = "delete", aliases = "rm", description = "Delete a credential; jobs not yet started lose it.")
    static final class Delete extends Verb {
        @Parameters(paramLabel = "NAME")
        String name;

        @Override
        protected int execute() {
            confirm(msg().get("credential.confirmDelete", name));
            api().delete("/api/v1/me/credentials/" + name);
            err().println(msg().get("credential.deleted", name));
            return Exit.OK;
        }
    }
}
