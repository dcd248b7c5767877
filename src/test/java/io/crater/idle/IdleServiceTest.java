package io.crater.idle;

import static org.assertj.core.api.Assertions.assertThat;

import io.crater.cluster.ClusterCache;
import io.crater.cluster.ClusterConfig;
import io.crater.policy.IdlePolicy;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** How a job's samples are asked for and judged, and that a failing metrics source never stops anything. */
class IdleServiceTest {

    static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");
    static final IdleService.Candidate NOTEBOOK = new IdleService.Candidate(
            1,
            "jabc2345",
            "notebook",
            7,
            9,
            "nvidia-rtx-4090",
            1,
            true,
            NOW.minus(Duration.ofHours(3)),
            null,
            null,
            NOW.plus(Duration.ofHours(20)));

    static IdleService service() {
        IdleService s = new IdleService();
        s.config = IdleConfigTest.SETTINGS;
        s.cluster = new ClusterConfig() {
            public String mode() {
                return "kubernetes";
            }

            public Optional<String> apiUrl() {
                return Optional.empty();
            }

            public String namespace() {
                return "crater-jobs";
            }

            public String schedulerConfigMap() {
                return "volcano-system/volcano-scheduler-configmap";
            }
        };
        s.cache = new ClusterCache();
        return s;
    }

    @Test
    void aSourceThatFailsGivesUnknownNeverIdle() {
        GpuMetrics failing = q -> Uni.createFrom().failure(new IllegalStateException("Prometheus answered 503"));
        IdlePolicy.Decision d = service().decide(NOTEBOOK, failing, NOW).await().indefinitely();
        assertThat(d).isInstanceOf(IdlePolicy.Unknown.class);
        assertThat(((IdlePolicy.Unknown) d).why()).isEqualTo("MetricsUnavailable");
        assertThat(d.message()).contains("503");
    }

    @Test
    void theLastWindowIsAskedForAtAFifthOfTheLongestGapAndJudged() {
        AtomicReference<GpuMetrics.Query> asked = new AtomicReference<>();
        GpuMetrics idle = q -> {
            asked.set(q);
            List<IdlePolicy.Sample> samples = new ArrayList<>();
            for (Instant t = q.from(); !t.isAfter(q.to()); t = t.plus(q.step())) {
                samples.add(new IdlePolicy.Sample(t, 1));
            }
            return Uni.createFrom().item(List.of(new IdlePolicy.Series("c-jabc2345-main-0", "0", samples)));
        };
        IdlePolicy.Decision d = service().decide(NOTEBOOK, idle, NOW).await().indefinitely();
        assertThat(asked.get().namespace()).isEqualTo("crater-jobs");
        assertThat(asked.get().metric()).isEqualTo("DCGM_FI_DEV_GPU_UTIL");
        assertThat(asked.get().ratio()).isFalse();
        assertThat(asked.get().from()).isEqualTo(NOW.minus(Duration.ofHours(2)));
        assertThat(asked.get().to()).isEqualTo(NOW);
        assertThat(asked.get().step()).isEqualTo(Duration.ofMinutes(1));
        assertThat(d).isInstanceOf(IdlePolicy.Warn.class);
        assertThat(((IdlePolicy.Warn) d).stopAt()).isEqualTo(NOW.plus(Duration.ofMinutes(30)));
    }
}
