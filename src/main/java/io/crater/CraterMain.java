package io.crater;

import io.crater.platform.Bootstrap;
import io.crater.sim.Simulator;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.annotations.QuarkusMain;
import java.time.Clock;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Crater's single entry point. {@code server} (the default) prepares the database and cluster, then boots
 * Quarkus; {@code sim} runs only a simulated cluster and prints its API URL. No verb but {@code server} boots
 * Quarkus.
 */
@QuarkusMain
public final class CraterMain {

    private CraterMain() {}

    public static void main(String... args) {
        String verb = args.length == 0 ? "server" : args[0];
        String[] rest = args.length == 0 ? args : Arrays.copyOfRange(args, 1, args.length);
        switch (verb) {
            case "server" -> server(rest);
            case "sim" -> sim();
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
        Runtime.getRuntime().addShutdownHook(new Thread(bootstrap::close, "crater-bootstrap-stop"));
        Quarkus.run(CraterApplication.class, args);
    }

    private static void sim() {
        String namespace = Bootstrap.setting("crater.cluster.namespace", "CRATER_NAMESPACE", "crater-jobs");
        int port = Integer.parseInt(Bootstrap.setting("crater.sim.port", "CRATER_SIM_PORT", "0"));
        Simulator simulator = new Simulator(
                Simulator.Settings.defaults(Bootstrap.fleet(Bootstrap.home()), namespace)
                        .withClaim(Bootstrap.sharedClaim(), Bootstrap.spaces(Bootstrap.home())),
                Clock.systemUTC());
        String url = simulator.start(port);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            simulator.close();
            stopped.countDown();
        }));
        System.out.println("Simulated cluster API: " + url);
        System.out.println("Point Crater at it with: CRATER_CLUSTER_MODE=kubernetes KUBERNETES_MASTER=" + url
                + " bin/crater server");
        System.out.flush();
        try {
            stopped.await();
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
