package io.crater.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The servers this client knows ("contexts"): list them, add one, switch, remove. */
@Command(
        name = "context",
        description = "The Crater servers you use, one context each (the file `crater login` writes).",
        subcommands = {
            ContextCommands.List.class,
            ContextCommands.Use.class,
            ContextCommands.Add.class,
            ContextCommands.Delete.class
        })
final class ContextCommands {

    static Map<String, Object> view(Config.Context c, String current) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", c.name());
        m.put("current", c.name().equals(current));
        m.put("server", c.server());
        m.put("user", c.user());
        m.put("account", c.account());
        m.put("signedIn", c.token() != null);
        return m;
    }

    @Command(name = "list", aliases = "ls", description = "Every context; * marks the current one.")
    static final class List extends Verb {
        @Override
        protected int execute() {
            Config c = config();
            java.util.List<Object> items = new ArrayList<>();
            c.contexts().forEach(ctx -> items.add(view(ctx, c.currentName())));
            output().list(
                            java.util.List.of(items).iterator(),
                            java.util.List.of(
                                    Output.Column.of(
                                            msg().get("col.current"),
                                            o -> Boolean.TRUE.equals(Values.at(o, "current")) ? "*" : ""),
                                    Output.Column.path(msg().get("col.name"), "name"),
                                    Output.Column.path(msg().get("col.server"), "server"),
                                    Output.Column.path(msg().get("col.user"), "user"),
                                    Output.Column.path(msg().get("col.account"), "account")),
                            o -> Values.text(o, "name"));
            return Exit.OK;
        }
    }

    @Command(name = "use", description = "Make a context the current one.")
    static final class Use extends Verb {
        @Parameters(paramLabel = "CONTEXT", description = "The context's name (see crater context list).")
        String name;

        @Override
        protected int execute() {
            config().use(name);
            config().save();
            err().println(msg().get("context.using", name));
            return Exit.OK;
        }
    }

    @Command(name = "add", description = "Add a server without signing in (then: crater login --context NAME).")
    static final class Add extends Verb {
        @Parameters(index = "0", paramLabel = "NAME", description = "A name of your choice for the context.")
        String name;

        @Option(names = "--server", required = true, paramLabel = "URL", description = "The server's URL.")
        String server;

        @Option(names = "--token", paramLabel = "TOKEN", description = "A personal access token ('-' reads stdin).")
        String token;

        @Override
        protected int execute() {
            if (!server.matches("https?://[^\\s/]+(/\\S*)?")) {
                throw new CliException(Exit.USAGE, msg().get("login.badServer", server));
            }
            String t = "-".equals(token) ? readAll().strip() : token;
            String user = null;
            if (t != null) {
                user = Values.text(new Api(server, t, null, new Problems(msg())).get("/api/v1/auth/me"), "username");
            }
            config().put(new Config.Context(name, server.replaceAll("/+$", ""), user, t, null, null));
            config().save();
            err().println(msg().get("context.added", name, server));
            return Exit.OK;
        }
    }

    @Command(name = "delete", description = "Forget a context (its token is not revoked: use logout for that).")
    static final class Delete extends Verb {
        @Parameters(paramLabel = "CONTEXT", description = "The context to forget.")
        String name;

        @Override
        protected int execute() {
            if (!config().remove(name)) {
                throw new CliException(Exit.NOT_FOUND, msg().get("context.none", name));
            }
            config().save();
            err().println(msg().get("context.deleted", name));
            return Exit.OK;
        }
    }
}
