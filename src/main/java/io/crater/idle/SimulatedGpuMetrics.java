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
            List<String> pods = q.prefixes()
                    ? q.pods().stream()
                            .flatMap(p -> samples.pods(q.namespace(), p).stream())
                            .distinct()
                            .toList()
                    : q.pods();
            for (String pod : pods) {
                // A mean's first point looks back one step, as a range selector does.
                Instant since = q.mean() ? q.from().minus(q.step()) : q.from();
                for (IdlePolicy.Series s : samples.samples(q.namespace(), pod, since, q.to())) {
                    List<IdlePolicy.Sample> points = q.mean() ? means(s.samples(), q) : thinned(s.samples(), q);
                    out.add(new IdlePolicy.Series(s.pod(), s.accelerator(), points));
                }
            }
            return out;
        });
    }

    /**
     * One point at each {@code from + k × step} (up to {@code to}) that has samples in {@code (t - step, t]}: their
     * mean, as Prometheus's {@code avg_over_time} over a range query's steps gives.
     */
    static List<IdlePolicy.Sample> means(List<IdlePolicy.Sample> samples, Query q) {
        List<IdlePolicy.Sample> out = new ArrayList<>();
        long step = Math.max(1, q.step().toMillis());
        long from = q.from().toEpochMilli();
        long to = q.to().toEpochMilli();
        int i = 0;
        for (long t = from; t <= to; t += step) {
            double sum = 0;
            int n = 0;
            while (i < samples.size() && samples.get(i).at().toEpochMilli() <= t) {
                if (samples.get(i).at().toEpochMilli() > t - step) {
                    sum += samples.get(i).percent();
                    n++;
                }
                i++;
            }
            if (n > 0) {
                out.add(new IdlePolicy.Sample(Instant.ofEpochMilli(t), sum / n));
            }
        }
        return out;
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
