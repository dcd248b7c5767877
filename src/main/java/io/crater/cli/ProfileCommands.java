package io.crater.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** One's own SSH keys (for {@code crater job ssh} and SFTP) and personal access tokens. */
final class ProfileCommands {

    private ProfileCommands() {}

    static List<Output.Column> keyColumns(Messages msg) {
        return List.of(
                Output.Column.path(msg.get("col.id"), "id"),
                Output.Column.path(msg.get("col.name"), "name"),
                Output.Column.path(msg.get("col.type"), "type"),
                Output.Column.path(msg.get("col.fingerprint"), "fingerprint"),
                Output.Column.wide(msg.get("col.lastUsed"), o -> Values.text(o, "lastUsedAt")),
                Output.Column.wide(msg.get("col.created"), o -> Values.text(o, "createdAt")));
    }

    @Command(
            name = "ssh-key",
            description = "Your SSH public keys: the SSH gateway (crater job ssh, port-forward, sftp) accepts them.",
            subcommands = {SshKey.ListKeys.class, SshKey.Add.class, SshKey.Remove.class})
    static final class SshKey {

        @Command(name = "list", aliases = "ls", description = "Your registered SSH keys.")
        static final class ListKeys extends Verb {
            @Override
            protected int execute() {
                Object page = api().get("/api/v1/me/ssh-keys");
                output().list(List.of(Values.items(page)).iterator(), keyColumns(msg()), o -> Values.text(o, "id"));
                return Exit.OK;
            }
        }

        @Command(
                name = "add",
                description =
                        "Register a public key (default: ~/.ssh/id_ed25519.pub, else ~/.ssh/id_rsa.pub; '-' reads stdin).")
        static final class Add extends Verb {
            @Parameters(
                    arity = "0..1",
                    paramLabel = "FILE",
                    description = "The public key file (one authorized_keys line).")
            String file;

            @Option(
                    names = "--name",
                    paramLabel = "NAME",
                    description = "A name for it (default: the key's comment or file).")
            String name;

            @Override
            protected int execute() {
                String line;
                String source;
                if ("-".equals(file)) {
                    line = readAll().strip();
                    source = "stdin";
                } else {
                    Path p = file != null ? Path.of(file) : defaultKey();
                    if (p.getFileName().toString().startsWith("id_")
                            && !p.toString().endsWith(".pub")) {
                        throw new CliException(Exit.USAGE, msg().get("sshKey.private", p));
                    }
                    try {
                        line = Files.readString(p, StandardCharsets.UTF_8).strip();
                    } catch (IOException e) {
                        throw new CliException(Exit.NOT_FOUND, msg().get("sshKey.unreadable", p));
                    }
                    source = p.getFileName().toString();
                }
                String[] parts = line.split("\\s+", 3);
                String keyName = name != null ? name : parts.length == 3 ? parts[2] : source;
                Map<String, Object> body = new LinkedHashMap<>();
                body.put("name", keyName);
                body.put("publicKey", line);
                Object created = api().post("/api/v1/me/ssh-keys", body);
                if (output().human()) {
                    err().println(msg().get("sshKey.added", Values.text(created, "fingerprint"), keyName));
                } else {
                    output().object(created);
                }
                return Exit.OK;
            }

            private Path defaultKey() {
                Path ssh = Path.of(Config.home(term()), ".ssh");
                for (String n : new String[] {"id_ed25519.pub", "id_ecdsa.pub", "id_rsa.pub"}) {
                    if (Files.exists(ssh.resolve(n))) {
                        return ssh.resolve(n);
                    }
                }
                throw new CliException(Exit.NOT_FOUND, msg().get("sshKey.none", ssh));
            }
        }

        @Command(name = "remove", aliases = "rm", description = "Remove a registered key by its id (see ssh-key list).")
        static final class Remove extends Verb {
            @Parameters(paramLabel = "ID")
            long id;

            @Override
            protected int execute() {
                confirm(msg().get("sshKey.confirmRemove", id));
                api().delete("/api/v1/me/ssh-keys/" + id);
                err().println(msg().get("sshKey.removed", id));
                return Exit.OK;
            }
        }
    }

    @Command(
            name = "token",
            description = "Your personal access tokens (crt_...) for scripts, CI and agents; each is shown once.",
            subcommands = {Token.ListTokens.class, Token.Create.class, Token.Revoke.class})
    static final class Token {

        @Command(name = "list", aliases = "ls", description = "Your tokens (never their secrets).")
        static final class ListTokens extends Verb {
            @Override
            protected int execute() {
                Object page = api().get("/api/v1/me/tokens");
                output().list(
                                List.of(Values.items(page)).iterator(),
                                List.of(
                                        Output.Column.path(msg().get("col.id"), "id"),
                                        Output.Column.path(msg().get("col.name"), "name"),
                                        Output.Column.path(msg().get("col.prefix"), "prefix"),
                                        Output.Column.of(msg().get("col.expires"), o -> Values.text(o, "expiresAt")),
                                        Output.Column.of(msg().get("col.lastUsed"), o -> Values.text(o, "lastUsedAt")),
                                        Output.Column.wide(msg().get("col.created"), o -> Values.text(o, "createdAt"))),
                                o -> Values.text(o, "id"));
                return Exit.OK;
            }
        }

        @Command(name = "create", description = "Create a token; its secret is printed once, on standard output.")
        static final class Create extends Verb {
            @Parameters(paramLabel = "NAME", description = "What it is for (1 to 100 characters).")
            String name;

            @Option(
                    names = "--expires",
                    paramLabel = "WHEN",
                    description = "An expiry: a duration from now (30d, 12h) or an instant (2027-01-31T00:00:00Z).")
            String expires;

            @Override
            protected int execute() {
                Map<String, Object> body = new LinkedHashMap<>();
                body.put("name", name);
                if (expires != null) {
                    body.put("expiresAt", expiry(expires, now()).toString());
                }
                Object created = api().post("/api/v1/me/tokens", body);
                if (output().human()) {
                    out().println(Values.text(created, "token"));
                    err().println(msg().get("token.created", name));
                } else {
                    output().object(created);
                }
                return Exit.OK;
            }
        }

        @Command(name = "revoke", description = "Revoke a token by its id (see token list).")
        static final class Revoke extends Verb {
            @Parameters(paramLabel = "ID")
            long id;

            @Override
            protected int execute() {
                confirm(msg().get("token.confirmRevoke", id));
                api().delete("/api/v1/me/tokens/" + id);
                err().println(msg().get("token.revoked", id));
                return Exit.OK;
            }
        }
    }

    /** {@code 30d}, {@code 12h}, {@code 90m} from now, or an ISO instant. */
    static Instant expiry(String text, Instant now) {
        java.util.regex.Matcher m =
                java.util.regex.Pattern.compile("(\\d{1,6})([dhm])").matcher(text.strip());
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            return switch (m.group(2)) {
                case "d" -> now.plus(java.time.Duration.ofDays(n));
                case "h" -> now.plus(java.time.Duration.ofHours(n));
                default -> now.plus(java.time.Duration.ofMinutes(n));
            };
        }
        try {
            return Instant.parse(text.strip());
        } catch (DateTimeParseException e) {
            throw new CliException(Exit.USAGE, "--expires '" + text + "': use 30d, 12h, 90m or 2027-01-31T00:00:00Z");
        }
    }
}
