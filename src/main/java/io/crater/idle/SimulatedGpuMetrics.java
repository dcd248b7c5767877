package io.crater.idle;

import io.crater.policy.IdlePolicy;
import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The samples of the simulated cluster's GPU exporter (docs/simulator.md), read in memory from the simulator running
 * in this process (through {@link InProcessGpuSamples}). It samples utilisation in percent whatever the metric's name.
 */
final class SimulatedGpuMetrics implements GpuMetrics {

    private final InProcessGpuSamples.Reader samples;

    SimulatedGpuMetrics(InProcessGpuSamples.Reader samples) {
        this.samples = samples;
    }

    @Override
    public Uni<List<IdlePolicy.Series>> utilisation(Query q) {
        return Uni.createFrom().item(() -> {
            List<IdlePolicy.Series> out = new ArrayList<>();
            for (String pod : q.pods()) {
                for (IdlePolicy.Series s : samples.samples(q.namespace(), pod, q.from(), q.to())) {
                    out.add(new IdlePolicy.Series(s.pod(), s.accelerator(), thinned(s.samples(), q)));
                }
            }
            return out;
        });
    }

    /**
     * At most one sample per step: the highest of the step, at the time of its last sample, as the Prometheus source's
     * {@code max_over_time} gives (thinning never hides a busy sample).
     */
    static List<IdlePolicy.Sample> thinned(List<IdlePolicy.Sample> samples, Query q) {
        List<IdlePolicy.Sample> out = new ArrayList<>();
        Instant bucketEnd = null;
        IdlePolicy.Sample last = null;
        double max = 0;
        for (IdlePolicy.Sample s : samples) {
            if (bucketEnd != null && !s.at().isBefore(bucketEnd)) {
                out.add(new IdlePolicy.Sample(last.at(), max));
                bucketEnd = null;
            }
            if (bucketEnd == null) {
                bucketEnd = s.at().plus(q.step());
                max = s.percent();
            }
            max = Math.max(max, s.percent());
            last = s;
        }
        if (last != null) {
            out.add(new IdlePolicy.Sample(last.at(), max));
        }
        return out;
    }
}
