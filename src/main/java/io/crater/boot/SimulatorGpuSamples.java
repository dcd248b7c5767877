package io.crater.boot;

import io.crater.idle.InProcessGpuSamples;
import io.crater.policy.IdlePolicy;
import io.crater.sim.Simulator;
import io.crater.sim.cluster.GpuSeries;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** The simulated GPU exporter's samples, for idle detection, when Crater's cluster is a simulator in this process. */
@ApplicationScoped
class SimulatorGpuSamples implements InProcessGpuSamples {

    @Override
    public Optional<Reader> at(String apiUrl) {
        return Simulator.at(apiUrl).map(sim -> new Reader() {
            @Override
            public List<IdlePolicy.Series> samples(String namespace, String pod, Instant from, Instant to) {
                return series(sim.gpuSamples(namespace, pod, from, to));
            }

            @Override
            public List<String> pods(String namespace, String prefix) {
                return sim.gpuPods(namespace, prefix);
            }
        });
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
