package io.crater.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.crater.sim.cluster.Fleet;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Kueue traces as {@link TraceBench} replays them: counts, creation times, lower limits, the fleet. */
class KueueTraceTest {

    @Test
    void baselineHasFifteenThousandWorkloadsOverThirtyQueues() {
        KueueTrace trace = KueueTrace.load("baseline");

        assertThat(trace.queues()).hasSize(30);
        assertThat(trace.cohorts()).isEqualTo(5);
        assertThat(trace.workloads()).hasSize(15_000);
        assertThat(trace.countByClass()).isEqualTo(Map.of("large", 1_500L, "medium", 3_000L, "small", 10_500L));
        assertThat(trace.nominalMilli()).isEqualTo(600_000);
        assertThat(trace.queues().get(29))
                .isEqualTo(new KueueTrace.Queue(29, 4, "cq", 20_000, 100_000, "Any", "LowerPriority"));
        assertThat(trace.workloads()).filteredOn(w -> w.queue() == 7).hasSize(500);
    }

    @Test
    void largeScaleHasFiftyThousandWorkloadsOverAThousandQueues() {
        KueueTrace trace = KueueTrace.load("large-scale");

        assertThat(trace.queues()).hasSize(1_000);
        assertThat(trace.cohorts()).isEqualTo(10);
        assertThat(trace.workloads()).hasSize(50_000);
        assertThat(trace.countByClass()).isEqualTo(Map.of("large", 4_000L, "medium", 11_000L, "small", 35_000L));
        assertThat(trace.nominalMilli()).isEqualTo(20_000_000);
        assertThat(trace.queues().get(999).cohort()).isEqualTo(9);
    }

    @Test
    void eachWorkloadIsCreatedOneIntervalAfterThePreviousOneOfItsSet() {
        KueueTrace trace = KueueTrace.load("baseline");
        List<KueueTrace.Workload> queue3 =
                trace.workloads().stream().filter(w -> w.queue() == 3).toList();

        assertThat(queue3)
                .filteredOn(w -> w.className().equals("small"))
                .extracting(KueueTrace.Workload::createdAtMs)
                .startsWith(100L, 200L, 300L)
                .endsWith(35_000L);
        assertThat(queue3)
                .filteredOn(w -> w.className().equals("medium"))
                .extracting(KueueTrace.Workload::createdAtMs)
                .startsWith(500L, 1_000L)
                .endsWith(50_000L);
        assertThat(queue3)
                .filteredOn(w -> w.className().equals("large"))
                .extracting(KueueTrace.Workload::createdAtMs)
                .startsWith(1_200L, 2_400L)
                .endsWith(60_000L);
        assertThat(queue3.get(0))
                .isEqualTo(new KueueTrace.Workload("q3-small-0-0-0", 3, 0, "small", 100, 200, 50, 1_000));
        assertThat(trace.workloads())
                .extracting(KueueTrace.Workload::createdAtMs)
                .isSorted();
        assertThat(trace.lastCreationMs()).isEqualTo(60_000);
    }

    @Test
    void aRoundOfSeveralTemplatesWaitsAnIntervalBeforeEach() {
        String yaml = """
                cohorts:
                - className: c
                  count: 1
                  queuesSets:
                  - className: cq
                    count: 1
                    nominalQuota: 4
                    workloadsSets:
                    - count: 2
                      creationIntervalMs: 10
                      workloads:
                      - {className: a, runtimeMs: 1000, priority: 1, request: 500m}
                      - {className: b, runtimeMs: 2000, priority: 2, request: 2}
                """;
        KueueTrace trace = KueueTrace.parse(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)));

        assertThat(trace.workloads())
                .extracting(w -> w.className() + "@" + w.createdAtMs() + ":" + w.requestMilli())
                .containsExactly("a@10:500", "b@20:2000", "a@30:500", "b@40:2000");
        // Work: 2 × 0.5 × 1000 + 2 × 2 × 2000 = 9000 CPU·ms over 4 CPU.
        assertThat(trace.lowerLimitMs()).isEqualTo(2_250.0);
    }

    @Test
    void lowerLimitsAreKueuesSixtySixAndFourSeconds() {
        // baseline: per queue 350 × 1 × 200 + 100 × 5 × 500 + 50 × 20 × 1000 = 1,320,000 CPU·ms; 6 queues over 120 CPU.
        assertThat(KueueTrace.load("baseline").lowerLimitMs()).isEqualTo(66_000.0);
        // large-scale: per queue 35 × 1 × 150 + 11 × 5 × 350 + 4 × 20 × 700 = 80,500 CPU·ms; 100 queues over 2,000 CPU.
        assertThat(KueueTrace.load("large-scale").lowerLimitMs()).isCloseTo(4_025.0, within(1e-9));
    }

    @Test
    void keepingAFractionKeepsTheFirstQueuesAndTheLowerLimit() {
        KueueTrace tenth = KueueTrace.load("baseline").keep(0.1);

        assertThat(tenth.queues()).extracting(KueueTrace.Queue::index).containsExactly(0, 1, 2);
        assertThat(tenth.cohorts()).isEqualTo(1);
        assertThat(tenth.workloads()).hasSize(1_500).allMatch(w -> w.queue() < 3);
        assertThat(tenth.nominalMilli()).isEqualTo(60_000);
        assertThat(tenth.lowerLimitMs()).isEqualTo(66_000.0);
        assertThat(KueueTrace.load("baseline").keep(0.001).queues()).hasSize(1);
        assertThatThrownBy(() -> KueueTrace.load("baseline").keep(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rangeSpecsAreRead() {
        KueueTrace.RangeSpec baseline = KueueTrace.rangeSpec("baseline");
        assertThat(baseline.cmd().maxWallMs()).isEqualTo(425_000);
        assertThat(baseline.clusterQueueClassesMinUsage()).isEqualTo(Map.of("cq", 50.0));
        assertThat(baseline.wlClassesMaxAvgTimeToAdmissionMs())
                .containsOnly(Map.entry("large", 23_000L), Map.entry("medium", 90_000L), Map.entry("small", 260_000L));

        KueueTrace.RangeSpec large = KueueTrace.rangeSpec("large-scale");
        assertThat(large.cmd().maxWallMs()).isEqualTo(1_416_000);
        assertThat(large.clusterQueueClassesMinUsage()).containsEntry("cq", 31.6);
        assertThat(large.wlClassesMaxAvgTimeToAdmissionMs()).containsEntry("small", 841_000L);
    }

    @Test
    void unknownFieldsAreRefused() {
        String yaml = "cohorts:\n- className: c\n  count: 1\n  colour: red\n  queuesSets: []\n";

        assertThatThrownBy(() -> KueueTrace.parse(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))))
                .hasMessageContaining("colour");
    }

    @Test
    void theFleetOffersExactlyTheNominalQuota() {
        assertThat(allocatableMilli(TraceTestResource.fleetYaml(600_000))).isEqualTo(600_000);
        assertThat(TraceTestResource.fleetYaml(600_000)).contains("count: 6", "cpu: \"102\"");
        assertThat(allocatableMilli(TraceTestResource.fleetYaml(20_000_000))).isEqualTo(20_000_000);
        assertThat(TraceTestResource.fleetYaml(20_000_000)).contains("count: 200");
        // A tenth of the baseline: 60 CPU on one smaller node; 4 queues: one node of 100 and one of 60.
        assertThat(allocatableMilli(TraceTestResource.fleetYaml(60_000))).isEqualTo(60_000);
        assertThat(allocatableMilli(TraceTestResource.fleetYaml(160_000))).isEqualTo(160_000);
        assertThat(allocatableMilli(TraceTestResource.fleetYaml(20_000))).isEqualTo(20_000);
    }

    private static long allocatableMilli(String yaml) {
        Fleet fleet = Fleet.parse(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)));
        return fleet.nodes().stream()
                .mapToLong(n -> io.crater.policy.Quantities.toMilli(
                        n.getStatus().getAllocatable().get("cpu").toString()))
                .sum();
    }
}
