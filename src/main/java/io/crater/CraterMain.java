package io.crater;

import io.crater.boot.Bootstrap;
import io.crater.boot.SimulatedClusterAlone;
import io.quarkus.runtime.Application;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.annotations.QuarkusMain;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;

/**
 * Crater's single entry point. {@code server} (the default) prepares the database and cluster, then boots
 * Quarkus; {@code sim} runs only a simulated cluster and prints its API URL. No verb but {@code server} boots
 * Quarkus.
 */
@QuarkusMain
public final class CraterMain {

    /** How long the database and the simulated cluster wait for Quarkus to stop before they stop anyway. */
    private static final Duration STOP_WAIT = Duration.ofSeconds(60);

    private CraterMain() {}

    public static void main(String... args) {
        String verb = args.length == 0 ? "server" : args[0];
        String[] rest = args.length == 0 ? args : Arrays.copyOfRange(args, 1, args.length);
        switch (verb) {
            case "server" -> server(rest);
            case "sim" -> SimulatedClusterAlone.run();
            case "help", "-h", "--help" -> usage(0);
            default -> {
                System.err.println("crater: unknown command '" + verb + "'");
                usage(2);
            }
        }
    }

    private static void server(String[] args) {
        Bootstrap bootstrap = new Bootstrap();
        Map<String, String> properties;
        try {
            properties = bootstrap.prepare();
        } catch (RuntimeException e) {
            bootstrap.close();
            System.err.println("crater: " + e.getMessage());
            System.exit(1);
            return;
        }
        properties.forEach(System::setProperty);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            awaitQuarkusStopped();
                            bootstrap.close();
                        },
                        "crater-bootstrap-stop"));
        Quarkus.run(CraterApplication.class, args);
    }

    /**
     * Shutdown hooks run side by side: Quarkus's own one stops the application, whose last steps (giving up the
     * admission Lease, the final writes) still need the database and the cluster's API server. Stopping those first
     * left the Lease's release retrying against a closed port for 19 s and failing on every stop.
     */
    private static void awaitQuarkusStopped() {
        Application app = Application.currentApplication();
        if (app == null) {
            return;
        }
        Thread waiter = new Thread(app::awaitShutdown, "crater-await-stop");
        waiter.setDaemon(true);
        waiter.start();
        try {
            waiter.join(STOP_WAIT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void usage(int code) {
        System.out.println("""
                usage: crater <command>

                  server   start the control plane (default). Embedded PostgreSQL and a simulated cluster
                           unless CRATER_DB_URL / CRATER_CLUSTER_MODE=kubernetes say otherwise.
                  sim      run only a simulated cluster (API server + simulator) and print its URL
                  help     this text
                """);
        System.exit(code);
    }
}
