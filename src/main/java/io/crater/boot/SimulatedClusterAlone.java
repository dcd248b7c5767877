package io.crater.boot;

import io.crater.sim.Simulator;
import java.time.Clock;
import java.util.concurrent.CountDownLatch;

/** {@code crater sim}: only a simulated cluster (API server and simulator), its URL printed, until stopped. */
public final class SimulatedClusterAlone {

    private SimulatedClusterAlone() {}

    public static void run() {
        String namespace = Bootstrap.setting("crater.cluster.namespace", "CRATER_NAMESPACE", "crater-jobs");
        int port = Integer.parseInt(Bootstrap.setting("crater.sim.port", "CRATER_SIM_PORT", "0"));
        Simulator simulator = new Simulator(
                Simulator.Settings.defaults(Bootstrap.fleet(Bootstrap.home()), namespace)
                        .withPortBackends(Bootstrap.portBackends())
                        .withDcgmPort(Bootstrap.dcgmPort())
                        .withClaim(Bootstrap.sharedClaim(), Bootstrap.spaces(Bootstrap.home())),
                Clock.systemUTC());
        String url = simulator.start(port);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            simulator.close();
            stopped.countDown();
        }));
        System.out.println("Simulated cluster API: " + url);
        System.out.println("Simulated DCGM exporter: " + simulator.dcgmUrl());
        System.out.println("Point Crater at it with: CRATER_CLUSTER_MODE=kubernetes KUBERNETES_MASTER=" + url
                + " bin/crater server");
        System.out.println("Look at it with kubectl: kubectl --server=" + url + " get vcjob,pods -A");
        System.out.flush();
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
