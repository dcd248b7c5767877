package io.crater.idle;

import static org.assertj.core.api.Assertions.assertThat;

import io.crater.policy.IdlePolicy;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The rules per accelerator model and how each model's metric reads, from {@code crater.idle.*}. */
class IdleConfigTest {

    /** {@code crater.idle.*} at its defaults, with the given overrides per model. */
    record Settings(Map<String, IdleConfig.Model> models) implements IdleConfig {
        public boolean enabled() {
            return true;
        }

        public Duration checkInterval() {
            return Duration.ofMinutes(1);
        }

        public double threshold() {
            return 5;
        }

        public Duration window() {
            return Duration.ofHours(2);
        }

        public Duration grace() {
            return Duration.ofMinutes(30);
        }

        public Duration maxGap() {
            return Duration.ofMinutes(5);
        }

        public String metric() {
            return "DCGM_FI_DEV_GPU_UTIL";
        }

        public Optional<String> prometheusUrl() {
            return Optional.empty();
        }

        public Duration prometheusTimeout() {
            return Duration.ofSeconds(10);
        }
    }

    /** One model's overrides. */
    record Model(
            Optional<Double> threshold,
            Optional<Duration> window,
            Optional<String> metric,
            Optional<IdleConfig.Unit> unit)
            implements IdleConfig.Model {}

    static final Settings SETTINGS = new Settings(Map.of(
            "nvidia-a100-80gb",
            new Model(Optional.of(10.0), Optional.of(Duration.ofHours(1)), Optional.empty(), Optional.empty()),
            "nvidia-a100-mig",
            new Model(
                    Optional.empty(), Optional.empty(), Optional.of("DCGM_FI_PROF_GR_ENGINE_ACTIVE"), Optional.empty()),
            "ascend-910b",
            new Model(
                    Optional.empty(),
                    Optional.empty(),
                    Optional.of("npu_chip_info_utilization"),
                    Optional.of(IdleConfig.Unit.PERCENT)),
            "vendor-x",
            new Model(Optional.empty(), Optional.empty(), Optional.of("x_busy"), Optional.of(IdleConfig.Unit.RATIO))));

    @Test
    void aModelsOverridesReplaceOnlyWhatTheyName() {
        IdlePolicy.Rule a100 = SETTINGS.rules().of("nvidia-a100-80gb");
        assertThat(a100.threshold()).isEqualTo(10.0);
        assertThat(a100.window()).isEqualTo(Duration.ofHours(1));
        assertThat(a100.metric()).isEqualTo("DCGM_FI_DEV_GPU_UTIL");
        assertThat(a100.grace()).isEqualTo(Duration.ofMinutes(30));
        IdlePolicy.Rule rtx = SETTINGS.rules().of("nvidia-rtx-4090");
        assertThat(rtx.threshold()).isEqualTo(5.0);
        assertThat(rtx.window()).isEqualTo(Duration.ofHours(2));
        assertThat(SETTINGS.rules().of("ascend-910b").metric()).isEqualTo("npu_chip_info_utilization");
    }

    @Test
    void dcgmProfilingMetricsAreRatiosOthersPercentUnlessConfigured() {
        assertThat(SETTINGS.ratio("nvidia-rtx-4090")).isFalse();
        assertThat(SETTINGS.ratio("nvidia-a100-mig")).isTrue();
        assertThat(SETTINGS.ratio("ascend-910b")).isFalse();
        assertThat(SETTINGS.ratio("vendor-x")).isTrue();
    }
}
