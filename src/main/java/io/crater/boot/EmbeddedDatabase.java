package io.crater.boot;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * The embedded PostgreSQL of the embedded default: its data directory lives under {@code $CRATER_HOME} so
 * everything survives a restart. PostgreSQL daemonises, so after a {@code kill -9} of Crater the old
 * postmaster still holds the data directory: it is found through {@code postmaster.pid} and stopped first.
 */
public final class EmbeddedDatabase implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(EmbeddedDatabase.class);

    private final EmbeddedPostgres postgres;

    private EmbeddedDatabase(EmbeddedPostgres postgres) {
        this.postgres = postgres;
    }

    /** Starts PostgreSQL on a free loopback port with its data in {@code dataDir}. */
    public static EmbeddedDatabase start(Path dataDir, Path workDir) {
        try {
            return start(dataDir, workDir, freePort());
        } catch (IOException e) {
            throw new IllegalStateException("no free port for the embedded PostgreSQL: " + e.getMessage(), e);
        }
    }

    /** Starts PostgreSQL on the given loopback port (a restart keeps its address) with its data in {@code dataDir}. */
    public static EmbeddedDatabase start(Path dataDir, Path workDir, int port) {
        try {
            Files.createDirectories(dataDir);
            Files.createDirectories(workDir);
            stopLeftover(dataDir);
            EmbeddedPostgres pg = EmbeddedPostgres.builder()
                    .setDataDirectory(dataDir)
                    .setCleanDataDirectory(false)
                    .setOverrideWorkingDirectory(workDir.toFile())
                    .setPort(port)
                    .setPGStartupWait(Duration.ofSeconds(60))
                    .setServerConfig("listen_addresses", "127.0.0.1")
                    .setServerConfig("max_connections", "100")
                    .setOutputRedirector(java.lang.ProcessBuilder.Redirect.DISCARD)
                    // Whoever started it stops it (close()), after the application that uses it: a hook of its own
                    // would stop it while the application still writes on its way out.
                    .setRegisterShutdownHook(false)
                    .start();
            LOG.infof("embedded PostgreSQL on 127.0.0.1:%d, data in %s", pg.getPort(), dataDir);
            return new EmbeddedDatabase(pg);
        } catch (IOException e) {
            throw new IllegalStateException(
                    "the embedded PostgreSQL could not start in " + dataDir + ": " + e.getMessage(), e);
        }
    }

    public int port() {
        return postgres.getPort();
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port() + "/postgres";
    }

    /** Stops a postmaster that a killed Crater left running on this data directory. */
    static void stopLeftover(Path dataDir) throws IOException {
        Path pidFile = dataDir.resolve("postmaster.pid");
        if (!Files.exists(pidFile)) {
            return;
        }
        List<String> lines = Files.readAllLines(pidFile);
        long pid;
        try {
            pid = Long.parseLong(lines.get(0).trim());
        } catch (RuntimeException e) {
            return;
        }
        Optional<ProcessHandle> process =
                ProcessHandle.of(pid).filter(ProcessHandle::isAlive).filter(EmbeddedDatabase::isPostgres);
        if (process.isEmpty()) {
            return;
        }
        LOG.warnf("a PostgreSQL server (pid %d) left by an earlier run still holds %s: stopping it", pid, dataDir);
        ProcessHandle p = process.get();
        // SIGTERM is PostgreSQL's "smart" shutdown; the old clients are gone with the process that held them.
        p.destroy();
        try {
            p.onExit().get(20, TimeUnit.SECONDS);
        } catch (Exception e) {
            p.destroyForcibly();
            try {
                p.onExit().get(10, TimeUnit.SECONDS);
            } catch (Exception ignored) {
                throw new IllegalStateException("could not stop the PostgreSQL server with pid " + pid);
            }
        }
    }

    private static boolean isPostgres(ProcessHandle p) {
        return p.info().command().map(c -> c.contains("postgres")).orElse(true);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Override
    public void close() {
        try {
            postgres.close();
        } catch (IOException e) {
            LOG.warn("stopping the embedded PostgreSQL failed", e);
        }
    }
}
