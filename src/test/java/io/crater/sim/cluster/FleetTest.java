package io.crater.sim.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Quantity;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A fleet describes any device plugin's resources: several per node, and resources without cards. */
class FleetTest {

    static Fleet parse(String yaml) {
        return Fleet.parse(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void migHamiAndOtherVendorsNodesPublishTheirResourcesAndLabels() {
        List<Node> nodes = parse("""
                        nodeGroups:
                          - name: mig
                            count: 1
                            cpu: "64"
                            memory: 512Gi
                            labels: {nvidia.com/gpu.product: NVIDIA-A100-SXM4-80GB}
                            accelerators:
                              - {resource: nvidia.com/mig-1g.10gb, count: 14}
                              - {resource: nvidia.com/mig-3g.40gb, count: 2}
                          - name: hami
                            count: 2
                            cpu: "64"
                            memory: 512Gi
                            accelerator: {resource: nvidia.com/gpu, count: 40, labels: {nvidia.com/gpu.product: NVIDIA-L40S}}
                            resources: {nvidia.com/gpumem: "184320", nvidia.com/gpucores: "400"}
                          - name: dcu
                            count: 1
                            cpu: "32"
                            memory: 128Gi
                            accelerators: [{resource: hygon.com/dcu, count: 8}]
                        """).nodes();
        assertThat(nodes)
                .extracting(n -> n.getMetadata().getName())
                .containsExactly("mig-0", "hami-0", "hami-1", "dcu-0");
        Map<String, Quantity> mig = nodes.get(0).getStatus().getAllocatable();
        assertThat(mig.get("nvidia.com/mig-1g.10gb")).isEqualTo(new Quantity("14"));
        assertThat(mig.get("nvidia.com/mig-3g.40gb")).isEqualTo(new Quantity("2"));
        assertThat(nodes.get(0).getMetadata().getLabels())
                .containsEntry("nvidia.com/gpu.product", "NVIDIA-A100-SXM4-80GB");
        Map<String, Quantity> hami = nodes.get(1).getStatus().getCapacity();
        assertThat(hami.get("nvidia.com/gpu")).isEqualTo(new Quantity("40"));
        assertThat(hami.get("nvidia.com/gpumem")).isEqualTo(new Quantity("184320"));
        assertThat(hami.get("nvidia.com/gpucores")).isEqualTo(new Quantity("400"));
        assertThat(nodes.get(3).getStatus().getAllocatable().get("hygon.com/dcu"))
                .isEqualTo(new Quantity("8"));
    }

    @Test
    void refusesResourcesThatAreNoExtendedResourceAndEmptyDevices() {
        String head = "nodeGroups:\n  - {name: g, count: 1, cpu: \"1\", memory: 1Gi, ";
        assertThatThrownBy(() -> parse(head + "accelerators: [{resource: gpu, count: 1}]}"))
                .hasMessageContaining("extended resource name");
        assertThatThrownBy(() -> parse(head + "accelerators: [{resource: hygon.com/dcu, count: 0}]}"))
                .hasMessageContaining("count > 0");
        assertThatThrownBy(() -> parse(head + "resources: {gpumem: \"1\"}}")).hasMessageContaining("domain/name");
    }
}
