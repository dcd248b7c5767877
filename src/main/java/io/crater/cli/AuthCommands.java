package io.crater.cli;

import java.net.InetAddress;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Signing in and out: a password, or an approval in the browser (the device authorization grant), becomes a personal
 * access token kept in the configuration file.
 */
final class AuthCommands {

    private AuthCommands() {}

    @Command(
            name = "login",
            description = {
                "Sign in to a Crater server and keep a personal access token for it (mode 600).",
                "With --device you approve the sign-in in a browser where you are signed in to the console (the way"
                        + " for people who sign in with an OpenID provider or the directory); with -u the password is"
                        + " read from the terminal without echo, or from standard input with --password-stdin."
            })
    static final class Login extends Verb {

        @Parameters(
                arity = "0..1",
                paramLabel = "SERVER",
                description = "The server's URL, e.g. https://crater.example.org (default: the current context's).")
        String server;

        @Option(
                names = {"-u", "--username"},
                paramLabel = "USER",
                description = "Your username.")
        String username;

        @Option(names = "--password-stdin", description = "Read the password from standard input.")
        boolean passwordStdin;

        @Option(
                names = "--token",
                paramLabel = "TOKEN",
                description = "Use this personal access token (crt_...) instead of a password ('-' reads stdin).")
        String token;

        @Option(
                names = "--device",
                description = "Sign in through the browser: open the page shown, enter the code, approve.")
        boolean device;

        @Option(
                names = "--name",
                paramLabel = "CONTEXT",
                description = "The context's name (default: the server's host and port).")
        String name;

        @Override
        protected int execute() {
            String url = serverUrl();
            String contextName = name != null ? name : contextName(url);
            Config.Context ctx;
            if (device && (token != null || username != null || passwordStdin)) {
                throw new CliException(Exit.USAGE, msg().get("login.deviceAlone"));
            }
            if (device) {
                Problems problems = new Problems(msg());
                DeviceSignIn.Result r = new DeviceSignIn(
                                new Api(url, null, null, problems),
                                msg(),
                                err(),
                                DeviceSignIn.threadSleeper(),
                                java.time.Clock.systemUTC())
                        .run("crater CLI on " + hostname());
                ctx = new Config.Context(contextName, url, r.username(), r.token(), r.tokenId(), null);
            } else if (token != null) {
                String t = token.equals("-") ? readAll().strip() : token;
                Map<String, Object> me = Values.map(new Api(url, t, null, new Problems(msg())).get("/api/v1/auth/me"));
                ctx = new Config.Context(contextName, url, Values.str(me.get("username")), t, null, null);
            } else {
                ctx = withPassword(url, contextName);
            }
            Config.Context previous = config().context(contextName);
            if (previous != null
                    && previous.account() != null
                    && previous.user() != null
                    && previous.user().equals(ctx.user())) {
                ctx = ctx.withAccount(previous.account());
            }
            config().put(ctx);
            config().save();
            err().println(msg().get("login.done", url, ctx.user(), contextName, config().file()));
            return Exit.OK;
        }

        private Config.Context withPassword(String url, String contextName) {
            String user = username;
            if (user == null) {
                if (!term().interactive()) {
                    throw new CliException(Exit.USAGE, msg().get("login.needUser"));
                }
                err().println(msg().get("login.deviceHint"));
                err().print(msg().get("login.username"));
                user = readLine();
            }
            String password = password();
            Problems problems = new Problems(msg());
            Api anonymous = new Api(url, null, null, problems);
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("username", user == null ? "" : user.strip());
            body.put("password", password);
            Map<String, Object> session = Values.map(anonymous.post("/api/v1/auth/login", body));
            String access = Values.str(session.get("accessToken"));
            Api signedIn = new Api(url, access, null, problems);
            Map<String, Object> created =
                    Values.map(signedIn.post("/api/v1/me/tokens", Map.of("name", "crater CLI on " + hostname())));
            endSignIn(anonymous, Values.str(session.get("refreshToken")));
            return new Config.Context(
                    contextName,
                    url,
                    Values.text(session, "user.username"),
                    Values.str(created.get("token")),
                    created.get("id") instanceof Number n ? n.longValue() : null,
                    null);
        }

        /** The password sign-in is only the way to the token: its refresh token is revoked at once. */
        private static void endSignIn(Api anonymous, String refresh) {
            if (refresh == null) {
                return;
            }
            try {
                anonymous.send(
                        "POST",
                        "/api/v1/auth/logout",
                        null,
                        null,
                        Map.of("Cookie", "crater_refresh=" + refresh, "X-Requested-With", "crater"));
            } catch (CliException e) {
                // The token is made; an unrevoked refresh token expires on its own in 14 days.
            }
        }

        private String password() {
            if (passwordStdin) {
                String line = readLine();
                if (line == null || line.isEmpty()) {
                    throw new CliException(Exit.USAGE, msg().get("login.noPassword"));
                }
                return line;
            }
            java.io.Console console = System.console();
            if (!term().interactive() || console == null) {
                throw new CliException(Exit.USAGE, msg().get("login.needPassword"));
            }
            char[] p = console.readPassword(msg().get("login.password"));
            return p == null ? "" : new String(p);
        }

        private String serverUrl() {
            String s = server;
            if (s == null) {
                Config.Context current = root().chosenContext();
                s = term().env("CRATER_SERVER") != null
                        ? term().env("CRATER_SERVER")
                        : current != null ? current.server() : "http://127.0.0.1:8080";
            }
            if (!s.contains("://")) {
                s = (s.startsWith("127.0.0.1") || s.startsWith("localhost") ? "http://" : "https://") + s;
            }
            URI u;
            try {
                u = URI.create(s);
            } catch (IllegalArgumentException e) {
                throw new CliException(Exit.USAGE, msg().get("login.badServer", s));
            }
            if (u.getHost() == null
                    || !(u.getScheme().equals("http") || u.getScheme().equals("https"))) {
                throw new CliException(Exit.USAGE, msg().get("login.badServer", s));
            }
            return s.replaceAll("/+$", "");
        }

        static String contextName(String url) {
            URI u = URI.create(url);
            return u.getPort() < 0 ? u.getHost() : u.getHost() + ":" + u.getPort();
        }

        private static String hostname() {
            try {
                return InetAddress.getLocalHost().getHostName();
            } catch (java.io.IOException e) {
                return "this computer";
            }
        }
    }

    @Command(name = "logout", description = "Revoke this context's token on the server and forget it here.")
    static final class Logout extends Verb {

        @Override
        protected int execute() {
            Config.Context ctx = root().chosenContext();
            if (ctx == null || ctx.token() == null) {
                err().println(msg().get("logout.none"));
                return Exit.OK;
            }
            if (ctx.tokenId() != null) {
                try {
                    api().delete("/api/v1/me/tokens/" + ctx.tokenId());
                } catch (Problems.ApiError e) {
                    if (e.status() != 401 && e.status() != 404) {
                        throw e;
                    }
                }
            }
            config().update(new Config.Context(ctx.name(), ctx.server(), null, null, null, ctx.account()));
            config().save();
            err().println(msg().get("logout.done", ctx.server()));
            return Exit.OK;
        }
    }

    @Command(name = "whoami", description = "Who you are signed in as, where, and in which account.")
    static final class Whoami extends Verb {

        @Override
        protected int execute() {
            Map<String, Object> profile = Values.map(api().get("/api/v1/me"));
            Map<String, Object> me = new LinkedHashMap<>();
            for (String k : new String[] {"id", "username", "displayName", "email", "role", "uid"}) {
                me.put(k, profile.get(k));
            }
            me.put("server", api().server());
            me.put("account", api().account() != null ? api().account() : profile.get("defaultAccount"));
            if (output().human()) {
                out().println(msg().get(
                                "whoami.line",
                                me.get("username"),
                                me.get("displayName"),
                                me.get("role"),
                                me.get("server"),
                                me.get("account")));
            } else {
                output().one(me, java.util.List.of(), o -> Values.text(o, "username"));
            }
            return Exit.OK;
        }
    }
}
