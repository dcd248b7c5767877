package io.crater.idle;

import io.crater.policy.IdlePolicy;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Where accelerator utilisation samples come from: Prometheus (DCGM's exporter or another vendor's) in cluster mode,
 * the simulated cluster's GPU exporter in the embedded default. A source that cannot answer fails: it never answers
 * "no samples" for an error, and no samples never mean idle (see {@link IdlePolicy}).
 */
interface GpuMetrics {

    /**
     * What to read.
     *
     * @param namespace the pods' namespace
     * @param pods the pods' names
     * @param metric the metric's name
     * @param ratio whether the metric is a ratio (0–1), read as percent
     * @param step at most one sample per accelerator this often
     * @param mean each point the mean of its step (usage), else its highest sample (idle detection: a busy moment
     *     is never lost)
     * @param prefixes {@code pods} are name prefixes ({@code c-<job>-}: every pod a job ever had), else exact names
     */
    record Query(
            String namespace,
            List<String> pods,
            String metric,
            boolean ratio,
            Instant from,
            Instant to,
            Duration step,
            boolean mean,
            boolean prefixes) {

        public Query {
            pods = List.copyOf(pods);
        }

        /** The highest sample of each step of the named pods. */
        public Query(
                String namespace,
                List<String> pods,
                String metric,
                boolean ratio,
                Instant from,
                Instant to,
                Duration step) {
            this(namespace, pods, metric, ratio, from, to, step, false, false);
        }
    }

    /** The samples (percent) of each accelerator of each pod taken in [from, to]. */
    Uni<List<IdlePolicy.Series>> utilisation(Query query);
}
