package io.crater.sim.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.crater.kube.PodRequests;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
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
        List<Node> nodes = List.of(
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
                List<Pod> demands = new ArrayList<>();
                for (int i = 0; i < op.pods(); i++) {
                    demands.add(SimObjects.pod(
                            gang + "-" + i,
                            Map.of("cpu", op.cpu() * 1000L, "nvidia.com/gpu", op.gpus() * 1000L),
                            Map.of(),
                            List.of()));
                }
                GangFit.Result p = GangFit.place(nodes, ledger.usedByNode(), demands);
                assertThat(p.assignments().size()).isIn(0, demands.size());
                assertThat(p.placed()).isEqualTo(p.assignments().size() == demands.size());
                if (p.placed()) {
                    List<String> keys = new ArrayList<>();
                    for (Pod d : demands) {
                        String name = d.getMetadata().getName();
                        ledger.bind(name, p.assignments().get(name), PodRequests.of(d.getSpec()));
                        keys.add(name);
                    }
                    gangs.put(gang, keys);
                }
            }
            for (Node n : nodes) {
                String name = n.getMetadata().getName();
                Map<String, Long> used = ledger.usedOn(name);
                Map<String, Long> allocatable = GangFit.allocatable(n);
                assertThat(used.values()).allSatisfy(v -> assertThat(v).isNotNegative());
                assertThat(used)
                        .as("node %s used %s of %s", name, used, allocatable)
                        .allSatisfy((res, v) -> assertThat(v).isLessThanOrEqualTo(allocatable.getOrDefault(res, 0L)));
            }
        }
    }

    static Node node(String name, int gpus) {
        Map<String, Long> alloc = new HashMap<>(Map.of("cpu", 128_000L, "memory", 1_000_000L));
        if (gpus > 0) {
            alloc.put("nvidia.com/gpu", gpus * 1000L);
        }
        return SimObjects.node(name, Map.of(), alloc, List.of());
    }
}
