package io.crater.gpus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.crater.platform.ApiException;
import io.crater.platform.Problem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class GpuOverviewsTest {

    static CardReading free(String node, int index, String model) {
        return new CardReading(node, index, "GPU-" + node + index, model, null, null, 0.0, 0L, 80L, 55.0, 30.0);
    }

    static CardReading held(String node, int index, String model, String pod, Double util) {
        return new CardReading(node, index, "GPU-" + node + index, model, "ns", pod, util, 40L, 80L, 300.0, 60.0);
    }

    /** a100-0: 2 of 4 held; a100-1: 4 free but cordoned; h100-0: 1 of 2 held (no reading); x-0: unknown node. */
    static List<CardReading> fleet() {
        List<CardReading> cards = new ArrayList<>();
        cards.add(held("a100-0", 0, "NVIDIA A100", "c-jmine1-main-0", 80.0));
        cards.add(held("a100-0", 1, "NVIDIA A100", "c-jother1-main-0", 20.0));
        cards.add(free("a100-0", 2, "NVIDIA A100"));
        cards.add(free("a100-0", 3, "NVIDIA A100"));
        for (int i = 0; i < 4; i++) {
            cards.add(free("a100-1", i, "NVIDIA A100"));
        }
        cards.add(held("h100-0", 0, "NVIDIA H100", "c-jmine2-main-0", null));
        cards.add(free("h100-0", 1, "NVIDIA H100"));
        cards.add(free("x-0", 0, "Tesla T4"));
        return cards;
    }

    static final Map<String, GpuOverviews.NodeInfo> NODES = Map.of(
            "a100-0", new GpuOverviews.NodeInfo("nvidia-a100-80gb", "NVIDIA A100 80GB", true),
            "a100-1", new GpuOverviews.NodeInfo("nvidia-a100-80gb", "NVIDIA A100 80GB", false),
            "h100-0", new GpuOverviews.NodeInfo("nvidia-h100-80gb", "NVIDIA H100 80GB", true));

    static final GpuViews.Holder MINE = new GpuViews.Holder("jmine1", "train", "lab", "ann", null, null, false);

    @Test
    void summarisesEachModelAndHidesHoldersWithoutAnEntry() {
        GpuViews.Overview o =
                GpuOverviews.build(fleet(), NODES, Map.of("ns/c-jmine1-main-0", MINE), GpuOverviews.Filter.NONE);
        assertThat(o.unavailable()).isNull();
        assertThat(o.models())
                .containsExactly(
                        new GpuViews.ModelSummary(
                                "Tesla T4", "Tesla T4", 1, 0, 1, null, List.of(new GpuViews.NodeFree("x-0", 1))),
                        // The cordoned node's cards count, its free ones do not; mean of 80 and 20.
                        new GpuViews.ModelSummary(
                                "nvidia-a100-80gb",
                                "NVIDIA A100 80GB",
                                8,
                                2,
                                2,
                                50.0,
                                List.of(new GpuViews.NodeFree("a100-0", 2))),
                        // The held card has no reading: no mean rather than 0.
                        new GpuViews.ModelSummary(
                                "nvidia-h100-80gb",
                                "NVIDIA H100 80GB",
                                2,
                                1,
                                1,
                                null,
                                List.of(new GpuViews.NodeFree("h100-0", 1))));
        GpuViews.NodeGpus a100 = o.nodes().get(0);
        assertThat(a100.name()).isEqualTo("a100-0");
        assertThat(a100.cards())
                .extracting(GpuViews.Card::holder)
                .containsExactly(MINE, GpuViews.Holder.hidden(), null, null);
        assertThat(o.nodes()).extracting(GpuViews.NodeGpus::name).containsExactly("a100-0", "a100-1", "h100-0", "x-0");
        assertThat(o.nodes().get(1).free()).isZero();
        assertThat(o.nodes().get(1).schedulable()).isFalse();
    }

    @Test
    void theFilterKeepsNodesWithEnoughFreeCardsOfTheModelAndLeavesTheSummary() {
        record Case(GpuOverviews.Filter filter, List<String> nodes) {}
        List<Case> cases = List.of(
                new Case(new GpuOverviews.Filter(2, "nvidia-a100-80gb"), List.of("a100-0")),
                new Case(new GpuOverviews.Filter(3, "nvidia-a100-80gb"), List.of()),
                new Case(new GpuOverviews.Filter(1, "nvidia-h100-80gb"), List.of("h100-0")),
                new Case(new GpuOverviews.Filter(0, "nvidia-a100-80gb"), List.of("a100-0", "a100-1")),
                new Case(new GpuOverviews.Filter(1, null), List.of("a100-0", "h100-0", "x-0")));
        for (Case c : cases) {
            GpuViews.Overview o = GpuOverviews.build(fleet(), NODES, Map.of(), c.filter());
            assertThat(o.nodes())
                    .as(c.filter().toString())
                    .extracting(GpuViews.NodeGpus::name)
                    .isEqualTo(c.nodes());
            assertThat(o.models()).as(c.filter().toString()).hasSize(3);
        }
    }

    @Test
    void badParametersAreFieldErrors() {
        Set<String> models = Set.of("nvidia-a100-80gb");
        assertThat(GpuService.filter(null, null, models)).isEqualTo(GpuOverviews.Filter.NONE);
        assertThat(GpuService.filter(" 4 ", "nvidia-a100-80gb", models))
                .isEqualTo(new GpuOverviews.Filter(4, "nvidia-a100-80gb"));
        record Case(String minFree, String model, List<String> fields) {}
        for (Case c : List.of(
                new Case("-1", null, List.of("minFree")),
                new Case("two", null, List.of("minFree")),
                new Case("1025", null, List.of("minFree")),
                new Case("1", "nvidia-b200", List.of("model")),
                new Case("x", "nvidia-b200", List.of("minFree", "model")))) {
            assertThatThrownBy(() -> GpuService.filter(c.minFree(), c.model(), models))
                    .isInstanceOfSatisfying(ApiException.class, e -> {
                        assertThat(e.status()).isEqualTo(400);
                        assertThat(e.errors())
                                .extracting(Problem.FieldError::field)
                                .isEqualTo(c.fields());
                    });
        }
    }

    @Test
    void publicIdsComeFromPodNames() {
        assertThat(GpuHolders.publicIdOf("c-j7k3f9x-main-0")).isEqualTo("j7k3f9x");
        assertThat(GpuHolders.publicIdOf("c-j7k3f9x")).isEqualTo("j7k3f9x");
        assertThat(GpuHolders.publicIdOf("dcgm-exporter-abc")).isNull();
        assertThat(GpuHolders.publicIdOf("c-NotAnId-main-0")).isNull();
        assertThat(GpuHolders.publicIdOf(null)).isNull();
    }
}
