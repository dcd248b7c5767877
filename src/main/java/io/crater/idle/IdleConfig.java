package io.crater.idle;

import io.crater.policy.IdlePolicy;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Idle GPU reclamation of interactive jobs (docs/interactive.md): an interactive job whose accelerators stay below
 * the threshold for the window is warned, then stopped after the grace period.
 */
@ConfigMapping(prefix = "crater.idle")
public interface IdleConfig {

    /** Whether the leader checks interactive jobs for idle accelerators at all. */
    @WithDefault("true")
    boolean enabled();

    /** How often the leader checks. */
    @WithDefault("1m")
    Duration checkInterval();

    /** Percent utilisation below which a sample counts as idle (the platform's; per model in {@link #models()}). */
    @WithDefault("5")
    double threshold();

    /** How long every sample of every accelerator of a job must stay below the threshold. */
    @WithDefault("2h")
    Duration window();

    /** How long after the warning a job that is still idle is stopped. */
    @WithDefault("30m")
    Duration grace();

    /** The longest stretch without a sample that still counts as covered; longer gaps make the decision unknown. */
    @WithDefault("5m")
    Duration maxGap();

    /** The utilisation metric (DCGM exporter's name) read from Prometheus in cluster mode. */
    @WithDefault("DCGM_FI_DEV_GPU_UTIL")
    String metric();

    /**
     * Overrides per accelerator model, keyed by the catalogue's model key
     * ({@code crater.idle.models."nvidia-a100-80gb".threshold=10}).
     */
    Map<String, Model> models();

    /**
     * Prometheus's base URL in cluster mode ({@code http://prometheus.monitoring:9090}); without it idle detection
     * is off in cluster mode. The simulated cluster needs none.
     */
    Optional<String> prometheusUrl();

    /** How long one Prometheus query may take. */
    @WithDefault("10s")
    Duration prometheusTimeout();

    /** One accelerator model's overrides; an absent key takes the platform's value. */
    interface Model {

        /** Percent utilisation below which a sample of this model counts as idle. */
        Optional<Double> threshold();

        /** The window for this model. */
        Optional<Duration> window();

        /**
         * The metric of this model: {@code DCGM_FI_PROF_GR_ENGINE_ACTIVE} for MIG, another vendor's exporter metric
         * for other accelerators.
         */
        Optional<String> metric();

        /**
         * {@code percent} (0–100) or {@code ratio} (0–1, multiplied by 100); by default {@code ratio} for DCGM's
         * profiling metrics ({@code DCGM_FI_PROF_*}) and {@code percent} for everything else.
         */
        Optional<Unit> unit();
    }

    /** How a metric's values read: percent (0–100) or a ratio (0–1). */
    enum Unit {
        PERCENT,
        RATIO
    }

    /** The rules of {@link IdlePolicy} these settings give. */
    default IdlePolicy.Rules rules() {
        IdlePolicy.Rule defaults = new IdlePolicy.Rule("*", metric(), threshold(), window(), grace(), maxGap());
        Map<String, IdlePolicy.Rule> perModel = new HashMap<>();
        models().forEach((key, m) -> perModel.put(
                key,
                new IdlePolicy.Rule(
                        key,
                        m.metric().orElse(metric()),
                        m.threshold().orElse(threshold()),
                        m.window().orElse(window()),
                        grace(),
                        maxGap())));
        return new IdlePolicy.Rules(defaults, perModel);
    }

    /** Whether a model's metric is a ratio (0–1) to be read as percent. */
    default boolean ratio(String model) {
        Model m = models().get(model);
        String metric = m == null ? metric() : m.metric().orElse(metric());
        Unit unit = m == null ? null : m.unit().orElse(null);
        return unit == null ? metric.startsWith("DCGM_FI_PROF_") : unit == Unit.RATIO;
    }
}
