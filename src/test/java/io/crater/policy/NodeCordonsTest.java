package io.crater.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which cordoned nodes a waiting job's reasons name, and that placement never counts them as room. */
class NodeCordonsTest {

    static final Map<String, String> RTX = Map.of("gpu", "rtx");

    static NodeCapacity node(String name, Map<String, String> labels, int gpus) {
        return new NodeCapacity(
                name, labels, new Resources(Map.of("nvidia.com/gpu", gpus * 1000L)), Resources.NONE, false);
    }

    static PodDemand pod(int gpus) {
        return new PodDemand("p0", Resources.of("nvidia.com/gpu", gpus * 1000L), RTX);
    }

    @Test
    void namesTheCordonedNodesThatCouldHoldThePodWithReasonAndWho() {
        List<NodeCordons.Cordoned> cordoned = List.of(
                new NodeCordons.Cordoned(node("rtx-1", RTX, 4), "fan replacement", "ada"),
                new NodeCordons.Cordoned(node("rtx-0", RTX, 4), "", ""),
                new NodeCordons.Cordoned(node("a100-0", Map.of("gpu", "a100"), 8), "driver update", "ada"),
                new NodeCordons.Cordoned(node("rtx-small", RTX, 2), "bad card", "ada"));
        List<Reason> reasons = NodeCordons.explain(cordoned, List.of(pod(4)));
        assertThat(reasons).extracting(r -> r.args().get("node")).containsExactly("rtx-0", "rtx-1");
        Reason r = reasons.get(1);
        assertThat(r.code()).isEqualTo("NodeCordoned");
        assertThat(r.args()).containsEntry("reason", "fan replacement").containsEntry("by", "ada");
        assertThat(r.numbers()).containsEntry("cordonedNodes", 2L);
        assertThat(r.message()).contains("rtx-1").contains("fan replacement").contains("ada");
        assertThat(reasons.get(0).message()).contains("no reason given");
    }

    @Test
    void namesAtMostFiveButCountsAll() {
        List<NodeCordons.Cordoned> many = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            many.add(new NodeCordons.Cordoned(node("rtx-" + i, RTX, 4), "r", "ada"));
        }
        List<Reason> reasons = NodeCordons.explain(many, List.of(pod(1)));
        assertThat(reasons).hasSize(5);
        assertThat(reasons.get(0).numbers()).containsEntry("cordonedNodes", 7L);
    }

    @Test
    void noCordonedNodeNoReasonAndPlacementSkipsCordonedNodes() {
        assertThat(NodeCordons.explain(List.of(), List.of(pod(1)))).isEmpty();
        GangPlacement p = Placement.placeGang(List.of(node("rtx-0", RTX, 4)), List.of(pod(1)));
        assertThat(p.placed()).isFalse();
        assertThat(p.reasons().get(0).numbers()).containsEntry("unschedulableNodes", 1L);
    }
}
