package io.crater.interactive;

import static io.crater.Api.as;

import io.crater.TestDirs;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Debian's OpenSSH client ({@code ssh}, {@code scp}, {@code sftp}) against Crater's gateway, with keys of its own. */
public final class OpenSsh {

    /** How a client run ended. */
    public record Result(int code, String out, String err) {}

    private final Path keys;
    private final int port;

    /** A client for the gateway listening on {@code port}, keeping its keys in a new temporary directory. */
    public OpenSsh(int port) throws IOException {
        this.keys = TestDirs.create("crater-ssh-keys");
        this.port = port;
    }

    /** Generates an ed25519 key pair named {@code who} (no passphrase). */
    public void keygen(String who) throws Exception {
        Result r = run(List.of("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key(who)));
        if (r.code() != 0) {
            throw new IllegalStateException("ssh-keygen failed: " + r.err());
        }
    }

    /** The file of the public key {@code who}. */
    public Path publicKey(String who) {
        return keys.resolve(who + ".pub");
    }

    /** Registers the public key {@code who} as the token's user's own. */
    public void register(String token, String who) throws IOException {
        as(token)
                .body(Map.of("name", who, "publicKey", Files.readString(keys.resolve(who + ".pub"))))
                .post("/api/v1/me/ssh-keys")
                .then()
                .statusCode(201);
    }

    /** {@code ssh} with {@code key} as {@code login}@127.0.0.1, then {@code rest} (options or a command). */
    public List<String> ssh(String key, String login, String... rest) {
        List<String> argv = new ArrayList<>(List.of("ssh", "-p", Integer.toString(port)));
        argv.addAll(clientOptions(key));
        argv.addAll(List.of("-o", "LogLevel=INFO", login + "@127.0.0.1"));
        argv.addAll(List.of(rest));
        return argv;
    }

    /** {@code scp} or {@code sftp} with {@code key}, then {@code rest}. */
    public List<String> copying(String tool, String key, String... rest) {
        List<String> argv = new ArrayList<>(List.of(tool, "-P", Integer.toString(port)));
        argv.addAll(clientOptions(key));
        argv.addAll(List.of(rest));
        return argv;
    }

    /** What every client run is given: the key alone, no host key checks, never a prompt. */
    private List<String> clientOptions(String key) {
        return List.of(
                "-i",
                key(key),
                "-o",
                "IdentitiesOnly=yes",
                "-o",
                "StrictHostKeyChecking=no",
                "-o",
                "UserKnownHostsFile=/dev/null",
                "-o",
                "BatchMode=yes");
    }

    private String key(String who) {
        return keys.resolve(who).toString();
    }

    public static Result run(List<String> argv) throws Exception {
        return run(argv, null);
    }

    /** Runs a client with {@code stdin} (closed after it), waiting at most a minute. */
    public static Result run(List<String> argv, String stdin) throws Exception {
        Process p = new ProcessBuilder(argv).start();
        if (stdin != null) {
            p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        p.getOutputStream().close();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(argv + " did not end");
        }
        return new Result(p.exitValue(), out.get(), err.get());
    }

    private static String read(InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}
