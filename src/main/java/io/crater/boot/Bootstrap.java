package io.crater.boot;

import io.crater.sim.Simulator;
import io.crater.sim.cluster.Fleet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * What Crater prepares before Quarkus boots: the database (embedded unless one is configured) and the
 * cluster (simulated unless Kubernetes is chosen explicitly or Crater runs in a pod with a service account).
 * The main and the test resource both use it, so tests start exactly what {@code make run} starts.
 */
public final class Bootstrap implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(Bootstrap.class);
    public static final String SERVICE_ACCOUNT_TOKEN = "/var/run/secrets/kubernetes.io/serviceaccount/token";

    private final List<AutoCloseable> started = new ArrayList<>();
    private final Map<String, String> properties = new LinkedHashMap<>();
    private Simulator simulator;

    /** Reads a setting from a system property, else its environment variable. */
    public static String setting(String property, String env, String fallback) {
        String v = System.getProperty(property);
        if (v == null || v.isBlank()) {
            v = System.getenv(env);
        }
        return v == null || v.isBlank() ? fallback : v;
    }

    public static Path home() {
        return Path.of(setting("crater.home", "CRATER_HOME", System.getProperty("user.home") + "/.crater"));
    }

    /** Prepares the database and cluster and returns the configuration Quarkus must run with. */
    public Map<String, String> prepare() {
        Path home = home();
        try {
            Files.createDirectories(home);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot create CRATER_HOME " + home, e);
        }
        properties.put("crater.home", home.toString());
        prepareDatabase(home);
        prepareCluster(home);
        return properties;
    }

    private void prepareDatabase(Path home) {
        String external = setting("quarkus.datasource.jdbc.url", "CRATER_DB_URL", null);
        if (external != null) {
            properties.put("quarkus.datasource.jdbc.url", external);
            properties.put("quarkus.datasource.reactive.url", external.replaceFirst("^jdbc:", ""));
            properties.put(
                    "quarkus.datasource.username", setting("quarkus.datasource.username", "CRATER_DB_USER", "crater"));
            properties.put(
                    "quarkus.datasource.password", setting("quarkus.datasource.password", "CRATER_DB_PASSWORD", ""));
            LOG.infof("using the PostgreSQL at %s", external);
            return;
        }
        EmbeddedDatabase db = EmbeddedDatabase.start(home.resolve("postgres"), home.resolve("postgres-bin"));
        started.add(db);
        properties.put("quarkus.datasource.jdbc.url", db.jdbcUrl());
        properties.put("quarkus.datasource.reactive.url", db.jdbcUrl().replaceFirst("^jdbc:", ""));
        properties.put("quarkus.datasource.username", "postgres");
        properties.put("quarkus.datasource.password", "postgres");
    }

    private void prepareCluster(Path home) {
        String mode = setting("crater.cluster.mode", "CRATER_CLUSTER_MODE", null);
        boolean inCluster =
                System.getenv("KUBERNETES_SERVICE_HOST") != null && Files.exists(Path.of(SERVICE_ACCOUNT_TOKEN));
        if ("kubernetes".equals(mode) || (mode == null && inCluster)) {
            properties.put("crater.cluster.mode", "kubernetes");
            LOG.info("cluster mode: kubernetes");
            return;
        }
        if (mode != null && !mode.equals("simulated")) {
            throw new IllegalArgumentException(
                    "crater.cluster.mode must be 'simulated' or 'kubernetes', not '" + mode + "'");
        }
        String namespace = setting("crater.cluster.namespace", "CRATER_NAMESPACE", "crater-jobs");
        Simulator.Settings settings = Simulator.Settings.defaults(fleet(home), namespace)
                .paced(
                        setting("crater.sim.tick", "CRATER_SIM_TICK", null),
                        setting("crater.sim.start-delay", "CRATER_SIM_START_DELAY", null))
                .sampled(setting("crater.sim.gpu-sample-interval", "CRATER_SIM_GPU_SAMPLE_INTERVAL", null))
                .withPortBackends(portBackends())
                .withDcgmPort(dcgmPort())
                .withClaim(sharedClaim(), spaces(home));
        simulator = new Simulator(settings, Clock.systemUTC());
        started.add(simulator);
        String url = simulator.start(0);
        properties.put("crater.cluster.mode", "simulated");
        properties.put("crater.cluster.api-url", url);
    }

    /** The simulated DCGM exporter's port ({@code crater.sim.dcgm-port}, none: any free one; docs/simulator.md). */
    public static String dcgmPort() {
        return setting("crater.sim.dcgm-port", "CRATER_SIM_DCGM_PORT", null);
    }

    /** Real servers on this host serving simulated pods' ports ({@code crater.sim.port-backends}; docs/simulator.md). */
    public static String portBackends() {
        return setting("crater.sim.port-backends", "CRATER_SIM_PORT_BACKENDS", null);
    }

    /** The PersistentVolumeClaim holding the file spaces ({@code crater.jobs.shared-claim}). */
    public static String sharedClaim() {
        return setting("crater.jobs.shared-claim", "CRATER_JOBS_SHARED_CLAIM", "crater-shared");
    }

    /**
     * The folder holding the file spaces in the embedded default ({@code crater.ssh.spaces-root}, else
     * {@code $CRATER_HOME/spaces}): SFTP serves it and the simulated pods mount it as the shared claim.
     */
    public static Path spaces(Path home) {
        Path dir = Path.of(setting(
                "crater.ssh.spaces-root",
                "CRATER_SSH_SPACES_ROOT",
                home.resolve("spaces").toString()));
        try {
            Files.createDirectories(dir);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot create the spaces folder " + dir, e);
        }
        return dir;
    }

    /** The fleet of the simulated cluster: {@code crater.sim.fleet}, else {@code $CRATER_HOME/fleet.yaml}, else the default. */
    public static Fleet fleet(Path home) {
        String file = setting("crater.sim.fleet", "CRATER_SIM_FLEET", null);
        if (file != null) {
            return Fleet.read(Path.of(file));
        }
        Path inHome = home.resolve("fleet.yaml");
        return Files.exists(inHome) ? Fleet.read(inHome) : Fleet.defaults();
    }

    public Simulator simulator() {
        return simulator;
    }

    @Override
    public void close() {
        for (int i = started.size() - 1; i >= 0; i--) {
            try {
                started.get(i).close();
            } catch (Exception e) {
                LOG.warn("stopping failed", e);
            }
        }
        started.clear();
    }
}
