package io.crater.boot;

import io.crater.idle.InProcessGpuSamples;
import io.crater.policy.IdlePolicy;
import io.crater.sim.GpuSeries;
import io.crater.sim.Simulator;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;

/** The simulated GPU exporter's samples, for idle detection, when Crater's cluster is a simulator in this process. */
@ApplicationScoped
class SimulatorGpuSamples implements InProcessGpuSamples {

    @Override
    public Optional<Reader> at(String apiUrl) {
        return Simulator.at(apiUrl)
                .map(sim -> (namespace, pod, from, to) -> series(sim.gpuSamples(namespace, pod, from, to)));
    }

    static List<IdlePolicy.Series> series(List<GpuSeries> samples) {
        return samples.stream()
                .map(s -> new IdlePolicy.Series(
                        s.pod(),
                        s.accelerator(),
                        s.samples().stream()
                                .map(x -> new IdlePolicy.Sample(x.at(), x.percent()))
                                .toList()))
                .toList();
    }
}
