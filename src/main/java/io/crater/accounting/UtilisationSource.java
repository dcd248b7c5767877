package io.crater.accounting;

import io.crater.policy.IdlePolicy;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Where the usage meter reads jobs' accelerator utilisation; idle detection's source implements it (Prometheus in a
 * cluster, the simulated exporter in the embedded default), so both read the same samples.
 */
public interface UtilisationSource {

    /** Whether this replica has a source; when not, {@link #whyNone()} says why. */
    boolean available();

    /** Why there is no source. */
    String whyNone();

    /**
     * One point per accelerator at each {@code from + k × step} up to {@code to} (k ≥ 1), the mean utilisation in
     * percent over the step that ends there, for every pod the jobs {@code publicIds} ever had holding
     * {@code resource}; a step without a sample has no point. Fails when the source does or there is none.
     */
    Uni<List<IdlePolicy.Series>> means(
            List<String> publicIds, String resource, Instant from, Instant to, Duration step);
}
