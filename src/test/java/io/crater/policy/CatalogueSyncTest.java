package io.crater.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.crater.policy.CatalogueSync.Entry;
import io.crater.policy.CatalogueSync.NodeFacts;
import io.crater.policy.CatalogueSync.Proposal;
import io.crater.policy.CatalogueSync.Uncovered;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** From node descriptions to the models the catalogue lacks, per vendor and sharing scheme. */
class CatalogueSyncTest {

    static final Entry A100 =
            new Entry("nvidia-a100-80gb", "nvidia.com/gpu", "nvidia.com/gpu.product", "NVIDIA-A100-SXM4-80GB", null);
    static final Entry ASCEND =
            new Entry("ascend-910b", "huawei.com/Ascend910", "node.kubernetes.io/npu.chip.name", "910B", null);
    static final List<Entry> SEEDED = List.of(A100, ASCEND);

    static NodeFacts node(String name, Map<String, Long> resources, Map<String, String> labels) {
        Map<String, Long> all = new java.util.HashMap<>(resources);
        all.put("cpu", 64L);
        all.put("memory", 256L << 30);
        all.put("pods", 110L);
        all.put("hugepages-2Mi", 0L);
        return new NodeFacts(name, all, labels);
    }

    static Proposal proposal(
            String key,
            String resource,
            String labelKey,
            String labelValue,
            String memoryResource,
            Long memoryMiB,
            String displayName,
            String vendor,
            List<String> nodes,
            long count) {
        return new Proposal(
                key, resource, labelKey, labelValue, memoryResource, memoryMiB, displayName, vendor, nodes, count);
    }

    static final Map<String, String> A100_LABELS =
            Map.of("nvidia.com/gpu.product", "NVIDIA-A100-SXM4-80GB", "nvidia.com/gpu.memory", "81920");
    static final Map<String, String> H100_LABELS =
            Map.of("nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3", "nvidia.com/gpu.memory", "81559");

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of(
                        "catalogued cards propose nothing and leave nothing uncovered",
                        List.of(node("a100-0", Map.of("nvidia.com/gpu", 8L), A100_LABELS)),
                        SEEDED,
                        List.of(),
                        Map.of()),
                Arguments.of(
                        "a new product on nvidia.com/gpu: one model per product label, memory from gpu.memory",
                        List.of(
                                node("h100-0", Map.of("nvidia.com/gpu", 8L), H100_LABELS),
                                node("h100-1", Map.of("nvidia.com/gpu", 8L), H100_LABELS)),
                        SEEDED,
                        List.of(proposal(
                                "nvidia-h100-80gb-hbm3",
                                "nvidia.com/gpu",
                                "nvidia.com/gpu.product",
                                "NVIDIA-H100-80GB-HBM3",
                                null,
                                81559L,
                                "NVIDIA H100 80GB HBM3",
                                "NVIDIA",
                                List.of("h100-0", "h100-1"),
                                16)),
                        Map.of(
                                "h100-0", List.of(new Uncovered("nvidia.com/gpu", 8)),
                                "h100-1", List.of(new Uncovered("nvidia.com/gpu", 8)))),
                Arguments.of(
                        "MIG mixed strategy: one model per profile and product, memory from the profile's name",
                        List.of(node(
                                "mig-0",
                                Map.of("nvidia.com/mig-1g.10gb", 14L, "nvidia.com/mig-3g.40gb", 2L),
                                A100_LABELS)),
                        SEEDED,
                        List.of(
                                proposal(
                                        "nvidia-a100-sxm4-80gb-mig-1g-10gb",
                                        "nvidia.com/mig-1g.10gb",
                                        "nvidia.com/gpu.product",
                                        "NVIDIA-A100-SXM4-80GB",
                                        null,
                                        10240L,
                                        "NVIDIA A100 SXM4 80GB MIG 1g.10gb",
                                        "NVIDIA",
                                        List.of("mig-0"),
                                        14),
                                proposal(
                                        "nvidia-a100-sxm4-80gb-mig-3g-40gb",
                                        "nvidia.com/mig-3g.40gb",
                                        "nvidia.com/gpu.product",
                                        "NVIDIA-A100-SXM4-80GB",
                                        null,
                                        40960L,
                                        "NVIDIA A100 SXM4 80GB MIG 3g.40gb",
                                        "NVIDIA",
                                        List.of("mig-0"),
                                        2)),
                        Map.of(
                                "mig-0",
                                List.of(
                                        new Uncovered("nvidia.com/mig-1g.10gb", 14),
                                        new Uncovered("nvidia.com/mig-3g.40gb", 2)))),
                Arguments.of(
                        "HAMi: a vGPU model asking gpumem per device; gpumem and gpucores are neither models nor"
                                + " uncovered; the whole card stays covered by its catalogued model",
                        List.of(node(
                                "hami-0",
                                Map.of(
                                        "nvidia.com/gpu",
                                        40L,
                                        "nvidia.com/gpumem",
                                        327680L,
                                        "nvidia.com/gpucores",
                                        400L),
                                A100_LABELS)),
                        SEEDED,
                        List.of(proposal(
                                "nvidia-a100-sxm4-80gb-vgpu",
                                "nvidia.com/gpu",
                                "nvidia.com/gpu.product",
                                "NVIDIA-A100-SXM4-80GB",
                                "nvidia.com/gpumem",
                                8192L,
                                "NVIDIA A100 SXM4 80GB vGPU",
                                "NVIDIA",
                                List.of("hami-0"),
                                40)),
                        Map.of()),
                Arguments.of(
                        "HAMi already catalogued: nothing proposed",
                        List.of(node(
                                "hami-0",
                                Map.of(
                                        "nvidia.com/gpu",
                                        40L,
                                        "nvidia.com/gpumem",
                                        327680L,
                                        "nvidia.com/gpucores",
                                        400L),
                                A100_LABELS)),
                        List.of(
                                A100,
                                new Entry(
                                        "a100-vgpu",
                                        "nvidia.com/gpu",
                                        "nvidia.com/gpu.product",
                                        "NVIDIA-A100-SXM4-80GB",
                                        "nvidia.com/gpumem")),
                        List.of(),
                        Map.of()),
                Arguments.of(
                        "Ascend by chip label (a new chip), Hygon and Cambricon by resource alone",
                        List.of(
                                node(
                                        "npu-0",
                                        Map.of("huawei.com/Ascend910", 8L),
                                        Map.of("node.kubernetes.io/npu.chip.name", "910C")),
                                node("dcu-0", Map.of("hygon.com/dcu", 8L), Map.of()),
                                node("mlu-0", Map.of("cambricon.com/mlu", 4L), Map.of())),
                        SEEDED,
                        List.of(
                                proposal(
                                        "ascend-910c",
                                        "huawei.com/Ascend910",
                                        "node.kubernetes.io/npu.chip.name",
                                        "910C",
                                        null,
                                        null,
                                        "Ascend 910C",
                                        "Huawei",
                                        List.of("npu-0"),
                                        8),
                                proposal(
                                        "cambricon-mlu",
                                        "cambricon.com/mlu",
                                        null,
                                        null,
                                        null,
                                        null,
                                        "Cambricon MLU",
                                        "Cambricon",
                                        List.of("mlu-0"),
                                        4),
                                proposal(
                                        "hygon-dcu",
                                        "hygon.com/dcu",
                                        null,
                                        null,
                                        null,
                                        null,
                                        "Hygon DCU",
                                        "Hygon",
                                        List.of("dcu-0"),
                                        8)),
                        Map.of(
                                "npu-0", List.of(new Uncovered("huawei.com/Ascend910", 8)),
                                "dcu-0", List.of(new Uncovered("hygon.com/dcu", 8)),
                                "mlu-0", List.of(new Uncovered("cambricon.com/mlu", 4)))),
                Arguments.of(
                        "a resource-only entry covers every node publishing the resource; a zero count is no resource",
                        List.of(
                                node("dcu-0", Map.of("hygon.com/dcu", 8L), Map.of("x", "y")),
                                node("dcu-1", Map.of("hygon.com/dcu", 0L, "amd.com/gpu", 2L), Map.of())),
                        List.of(new Entry("dcu", "hygon.com/dcu", null, null, null)),
                        List.of(proposal(
                                "amd-gpu",
                                "amd.com/gpu",
                                null,
                                null,
                                null,
                                null,
                                "amd.com/gpu",
                                "AMD",
                                List.of("dcu-1"),
                                2)),
                        Map.of("dcu-1", List.of(new Uncovered("amd.com/gpu", 2)))),
                Arguments.of(
                        "a suggested key already taken gets a number",
                        List.of(node("dcu-0", Map.of("hygon.com/dcu", 8L), Map.of())),
                        List.of(new Entry("hygon-dcu", "nvidia.com/gpu", "p", "q", null)),
                        List.of(proposal(
                                "hygon-dcu-2",
                                "hygon.com/dcu",
                                null,
                                null,
                                null,
                                null,
                                "Hygon DCU",
                                "Hygon",
                                List.of("dcu-0"),
                                8)),
                        Map.of("dcu-0", List.of(new Uncovered("hygon.com/dcu", 8)))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void proposesWhatTheCatalogueLacks(
            String name,
            List<NodeFacts> nodes,
            List<Entry> catalogue,
            List<Proposal> wantProposals,
            Map<String, List<Uncovered>> wantUncovered) {
        CatalogueSync.Result got = CatalogueSync.of(nodes, catalogue);
        assertThat(got.proposals()).isEqualTo(wantProposals);
        assertThat(got.uncovered()).isEqualTo(wantUncovered);
    }
}
