package io.crater;

import io.crater.boot.Bootstrap;
import io.crater.sim.Simulator;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Starts for tests exactly what {@code bin/crater server} starts: embedded PostgreSQL (or the one in
 * CRATER_DB_URL) and the simulated cluster, with a fresh CRATER_HOME.
 */
public class CraterTestResource implements QuarkusTestResourceLifecycleManager {

    private static Bootstrap bootstrap;
    private static Path home;

    @Override
    public Map<String, String> start() {
        home = TestDirs.create("crater-test-home");
        System.setProperty("crater.home", home.toString());
        bootstrap = new Bootstrap();
        Map<String, String> props = new HashMap<>(bootstrap.prepare());
        System.clearProperty("crater.home");
        return props;
    }

    @Override
    public void stop() {
        if (bootstrap != null) {
            bootstrap.close();
        }
        // A boot's home holds its PostgreSQL's data (hundreds of MB): gone with the boot.
        TestDirs.delete(home);
    }

    public static Simulator simulator() {
        return bootstrap.simulator();
    }

    public static Path home() {
        return home;
    }

    /** The first administrator's credentials, as the person who started Crater finds them. */
    public static String[] initialAdmin() {
        try {
            Map<String, String> kv = new HashMap<>();
            for (String line : Files.readAllLines(home.resolve("initial-admin.txt"))) {
                String[] parts = line.split(": ", 2);
                kv.put(parts[0], parts[1]);
            }
            return new String[] {kv.get("username"), kv.get("password")};
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
