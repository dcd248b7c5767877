package io.crater.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.crater.policy.GangPlacement;
import io.crater.policy.NodeCapacity;
import io.crater.policy.Placement;
import io.crater.policy.PodDemand;
import io.crater.policy.Resources;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Whatever mix of jobs arrives and ends, the scheduler's accounting never goes below zero or above capacity. */
class PlacementProperties {

    record Op(boolean release, int pods, int gpus, int cpu) {}

    @Provide
    Arbitrary<List<Op>> ops() {
        return op().list().ofMinSize(1).ofMaxSize(60);
    }

    Arbitrary<Op> op() {
        return Arbitraries.integers()
                .between(0, 3)
                .flatMap(kind -> Arbitraries.integers()
                        .between(1, 4)
                        .flatMap(pods -> Arbitraries.integers()
                                .between(0, 8)
                                .flatMap(gpus -> Arbitraries.integers()
                                        .between(1, 64)
                                        .map(cpu -> new Op(kind == 0, pods, gpus, cpu)))));
    }

    @Property(tries = 300)
    void acceleratorAccountingStaysWithinCapacity(@ForAll("ops") List<Op> ops) {
        List<NodeCapacity> nodes = List.of(
                node("a100-0", 8),
                node("a100-1", 8),
                node("a100-2", 8),
                node("rtx-0", 4),
                node("rtx-1", 4),
                node("cpu-0", 0));
        SimLedger ledger = new SimLedger();
        Map<String, List<String>> gangs = new HashMap<>();
        int seq = 0;
        for (Op op : ops) {
            if (op.release()) {
                if (!gangs.isEmpty()) {
                    String victim = gangs.keySet().iterator().next();
                    gangs.remove(victim).forEach(ledger::release);
                }
            } else {
                String gang = "job" + seq++;
                List<PodDemand> demands = new ArrayList<>();
                for (int i = 0; i < op.pods(); i++) {
                    demands.add(new PodDemand(
                            gang + "-" + i,
                            new Resources(Map.of("cpu", op.cpu() * 1000L, "nvidia.com/gpu", op.gpus() * 1000L)),
                            Map.of()));
                }
                GangPlacement p = Placement.placeGang(ledger.capacities(nodes), demands);
                assertThat(p.assignments().size()).isIn(0, demands.size());
                assertThat(p.placed()).isEqualTo(p.assignments().size() == demands.size());
                if (p.placed()) {
                    List<String> keys = new ArrayList<>();
                    for (PodDemand d : demands) {
                        ledger.bind(d.name(), p.assignments().get(d.name()), d.request());
                        keys.add(d.name());
                    }
                    gangs.put(gang, keys);
                }
            }
            for (NodeCapacity n : nodes) {
                Resources used = ledger.usedOn(n.name());
                assertThat(used.isNegativeAnywhere()).isFalse();
                assertThat(used.fitsIn(n.allocatable()))
                        .as("node %s used %s of %s", n.name(), used, n.allocatable())
                        .isTrue();
            }
        }
    }

    static NodeCapacity node(String name, int gpus) {
        Map<String, Long> alloc = new HashMap<>(Map.of("cpu", 128_000L, "memory", 1_000_000L));
        if (gpus > 0) {
            alloc.put("nvidia.com/gpu", gpus * 1000L);
        }
        return new NodeCapacity(name, Map.of(), new Resources(alloc), Resources.NONE, true);
    }
}
