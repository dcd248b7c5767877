package io.crater.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PlacementTest {

    static final Map<String, String> A100 = Map.of("gpu", "a100");

    static NodeCapacity node(String name, int gpus, int usedGpus) {
        return new NodeCapacity(
                name,
                A100,
                new Resources(Map.of("cpu", 64_000L, "memory", 512_000L, "nvidia.com/gpu", gpus * 1000L)),
                Resources.of("nvidia.com/gpu", usedGpus * 1000L),
                true);
    }

    static PodDemand pod(String name, int gpus) {
        return new PodDemand(name, new Resources(Map.of("cpu", 4000L, "nvidia.com/gpu", gpus * 1000L)), A100);
    }

    @Test
    void gangGoesWhereItFitsAndPrefersTheTightestNode() {
        GangPlacement p =
                Placement.placeGang(List.of(node("n1", 8, 0), node("n2", 8, 4)), List.of(pod("a", 4), pod("b", 4)));
        assertThat(p.placed()).isTrue();
        assertThat(p.assignments()).containsEntry("a", "n2").containsEntry("b", "n1");
    }

    @Test
    void aGangThatDoesNotFitPlacesNothingAndSaysWhy() {
        GangPlacement p = Placement.placeGang(
                List.of(node("n1", 8, 6), node("n2", 8, 6)), List.of(pod("a", 2), pod("b", 2), pod("c", 2)));
        assertThat(p.placed()).isFalse();
        assertThat(p.assignments()).isEmpty();
        Reason r = p.reasons().get(0);
        assertThat(r.code()).isEqualTo("Unschedulable");
        assertThat(r.numbers())
                .containsEntry("placed", 2L)
                .containsEntry("pods", 3L)
                .containsEntry("insufficient.nvidia.com/gpu", 2L);
        assertThat(r.message()).contains("2 Insufficient nvidia.com/gpu");
    }

    @Test
    void nodeSelectorAndReadinessAreRespected() {
        NodeCapacity other = new NodeCapacity(
                "h1", Map.of("gpu", "h100"), Resources.of("nvidia.com/gpu", 8000), Resources.NONE, true);
        NodeCapacity down = new NodeCapacity("n9", A100, Resources.of("nvidia.com/gpu", 8000), Resources.NONE, false);
        GangPlacement p = Placement.placeGang(
                List.of(other, down), List.of(new PodDemand("a", Resources.of("nvidia.com/gpu", 1000), A100)));
        assertThat(p.placed()).isFalse();
        assertThat(p.reasons().get(0).numbers())
                .containsEntry("selectorMismatch", 1L)
                .containsEntry("unschedulableNodes", 1L);
    }

    @Test
    void effectiveRequestIsTheLargerOfContainersAndInitPlusOverhead() {
        Resources r = EffectiveRequest.of(
                List.of(Resources.of("cpu", 1000), Resources.of("cpu", 1500)),
                List.of(Resources.of("cpu", 4000), new Resources(Map.of("cpu", 500L, "memory", 9000L))),
                Resources.of("cpu", 100));
        assertThat(r.get("cpu")).isEqualTo(4100);
        assertThat(r.get("memory")).isEqualTo(9000);
    }
}
