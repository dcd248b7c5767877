package io.crater.identity;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real OpenID provider for the tests: npm's oidc-provider (installed by {@code make oidc} into src/test/oidc)
 * running src/test/resources/oidc/provider.mjs with node, on 127.0.0.1, with one confidential client that must use
 * PKCE and the users given (rewritten by {@link #users} between sign-ins).
 */
final class OidcProvider implements AutoCloseable {

    static final Path MODULES = Path.of("src/test/oidc").toAbsolutePath();
    private static final Path SCRIPT =
            Path.of("src/test/resources/oidc/provider.mjs").toAbsolutePath();
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final Path dir;
    private final String issuer;
    private final StringBuilder output = new StringBuilder();

    private OidcProvider(Process process, Path dir, String issuer) {
        this.process = process;
        this.dir = dir;
        this.issuer = issuer;
    }

    static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Starts the provider on {@code port} and waits until it listens. */
    static OidcProvider start(int port, Map<String, Object> client, Map<String, Object> users) throws Exception {
        if (!Files.isDirectory(MODULES.resolve("node_modules/oidc-provider"))) {
            throw new IllegalStateException("oidc-provider is not installed in " + MODULES + ": run make oidc");
        }
        Path dir = Files.createTempDirectory("crater-oidc-");
        String issuer = "http://127.0.0.1:" + port;
        Files.writeString(dir.resolve("users.json"), JSON.writeValueAsString(users));
        Files.writeString(
                dir.resolve("config.json"),
                JSON.writeValueAsString(Map.of(
                        "port",
                        port,
                        "issuer",
                        issuer,
                        "modules",
                        MODULES.toString(),
                        "clients",
                        List.of(client),
                        "users",
                        dir.resolve("users.json").toString())));
        Process p = new ProcessBuilder(
                        "node", SCRIPT.toString(), dir.resolve("config.json").toString())
                .redirectErrorStream(true)
                .start();
        OidcProvider provider = new OidcProvider(p, dir, issuer);
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        String line;
        while ((line = out.readLine()) != null) {
            provider.output.append(line).append('\n');
            if (line.startsWith("ready ")) {
                Thread reader = new Thread(() -> provider.drain(out), "oidc-provider-output");
                reader.setDaemon(true);
                reader.start();
                return provider;
            }
            if (System.nanoTime() > deadline) {
                break;
            }
        }
        provider.close();
        throw new IllegalStateException("the OpenID provider did not start:\n" + provider.output);
    }

    private void drain(BufferedReader out) {
        try {
            String line;
            while ((line = out.readLine()) != null) {
                synchronized (output) {
                    output.append(line).append('\n');
                }
            }
        } catch (IOException e) {
            // the process ended
        }
    }

    String issuer() {
        return issuer;
    }

    /** What the provider printed (its warnings and errors), for failure messages. */
    String output() {
        synchronized (output) {
            return output.toString();
        }
    }

    /** Replaces the users; the provider reads them at every sign-in. */
    void users(Map<String, Object> users) throws IOException {
        Path tmp = dir.resolve("users.json.tmp");
        Files.writeString(tmp, JSON.writeValueAsString(users));
        Files.move(tmp, dir.resolve("users.json"), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    @Override
    public void close() {
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            // already closed
        }
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // best effort
        }
    }
}
