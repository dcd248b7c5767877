package io.crater.sim.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The simulated device plugin: stable card identities per node and the lowest free cards given to a pod. */
class GpuCardsTest {

    static final Map<String, Node> NODES = Fleet.defaults().nodes().stream()
            .collect(java.util.stream.Collectors.toMap(n -> n.getMetadata().getName(), n -> n));

    static final GpuCards cards() {
        return new GpuCards(Set.of("nvidia.com/gpu", "huawei.com/Ascend910"));
    }

    static Pod pod(String name, int gpus) {
        return SimObjects.pod(name, Map.of("cpu", 1000L, "nvidia.com/gpu", gpus * 1000L), Map.of(), List.of());
    }

    @Test
    void everyCardOfANodeHasAStableIdentityAndTheModelsName() {
        List<GpuCards.Card> a100 = cards().of(NODES.get("a100-0"));
        assertThat(a100).extracting(GpuCards.Card::index).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
        assertThat(a100).allSatisfy(c -> {
            assertThat(c.modelName()).isEqualTo("NVIDIA A100 SXM4 80GB");
            assertThat(c.memoryMiB()).isEqualTo(81920);
            assertThat(c.node()).isEqualTo("a100-0");
            assertThat(c.uuid()).matches("GPU-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
        });
        assertThat(a100).extracting(GpuCards.Card::uuid).doesNotHaveDuplicates();
        assertThat(cards().of(NODES.get("a100-0")))
                .as("the same identities every time")
                .isEqualTo(a100);
        assertThat(cards().of(NODES.get("a100-1")).get(0).uuid())
                .as("another node's card 0 is another card")
                .isNotEqualTo(a100.get(0).uuid());
        assertThat(cards().of(NODES.get("ascend-0")))
                .hasSize(8)
                .allSatisfy(c -> assertThat(c.modelName()).isEqualTo("910B"));
        assertThat(cards().of(NODES.get("cpu-0"))).isEmpty();
    }

    @Test
    void podsGetTheLowestFreeCardsAndGiveThemBack() {
        GpuCards cards = cards();
        Node rtx = NODES.get("rtx4090-0");
        cards.allocate(pod("a", 2), rtx);
        cards.allocate(pod("b", 1), rtx);
        assertThat(cards.heldBy("crater-jobs/a").indexes()).containsExactly(0, 1);
        assertThat(cards.heldBy("crater-jobs/b").indexes()).containsExactly(2);
        cards.allocate(pod("a", 2), rtx);
        assertThat(cards.heldBy("crater-jobs/a").indexes())
                .as("a pod that holds cards keeps them")
                .containsExactly(0, 1);

        cards.release("crater-jobs/a");
        assertThat(cards.heldBy("crater-jobs/a")).as("freed when it ends").isNull();
        assertThat(cards.lastHeldBy("crater-jobs/a").indexes())
                .as("its samples keep their names until it is deleted")
                .containsExactly(0, 1);
        cards.allocate(pod("c", 3), rtx);
        assertThat(cards.heldBy("crater-jobs/c").indexes()).containsExactly(0, 1, 3);
        assertThat(cards.holders("rtx4090-0"))
                .containsOnly(
                        Map.entry("nvidia.com/gpu/0", "crater-jobs/c"),
                        Map.entry("nvidia.com/gpu/1", "crater-jobs/c"),
                        Map.entry("nvidia.com/gpu/2", "crater-jobs/b"),
                        Map.entry("nvidia.com/gpu/3", "crater-jobs/c"));
        assertThat(cards.holders("rtx4090-1")).isEmpty();

        cards.forget("crater-jobs/a");
        assertThat(cards.lastHeldBy("crater-jobs/a")).isNull();
        cards.allocate(pod("cpu-only", 0), rtx);
        assertThat(cards.heldBy("crater-jobs/cpu-only")).isNull();
    }
}
