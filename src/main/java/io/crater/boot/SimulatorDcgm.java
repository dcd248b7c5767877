package io.crater.boot;

import io.crater.gpus.InProcessDcgm;
import io.crater.sim.Simulator;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;

/** The simulated DCGM exporter's URL, for the GPUs view, when Crater's cluster is a simulator in this process. */
@ApplicationScoped
class SimulatorDcgm implements InProcessDcgm {

    @Override
    public Optional<String> metricsUrl(String apiUrl) {
        return Simulator.at(apiUrl).map(Simulator::dcgmUrl).filter(u -> u != null && !u.isBlank());
    }
}
