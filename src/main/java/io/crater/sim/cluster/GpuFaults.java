package io.crater.sim.cluster;

import io.fabric8.kubernetes.api.model.Node;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Faults injected into a simulated node's cards (docs/simulator.md): the node's annotation {@value #ANNOTATION} lists
 * {@code <index>:xid=<code>} and {@code <index>:dbe=<count>} entries, comma-separated ({@code 3:xid=79,1:dbe=2}). The
 * exporter reports each card's XID as its last XID error and its count as the uncorrectable ECC errors; a running pod
 * holding a card with a fault fails, as a CUDA process does when its card errs. Set and cleared through the API
 * server like any annotation ({@code kubectl annotate node a100-4 sim.crater.io/gpu-faults=3:xid=79}). Entries that
 * do not parse are ignored.
 */
final class GpuFaults {

    static final String ANNOTATION = "sim.crater.io/gpu-faults";

    /** A card's fault: its last XID (0: none) and its uncorrectable ECC error count. */
    record Fault(long xid, long dbe) {
        static final Fault NONE = new Fault(0, 0);

        boolean any() {
            return xid != 0 || dbe > 0;
        }

        /** What the failing process says. */
        String message(int index) {
            return xid != 0
                    ? "CUDA error on GPU " + index + ": the card reported XID " + xid + " (simulated)"
                    : "CUDA error on GPU " + index + ": uncorrectable ECC error encountered (simulated)";
        }
    }

    private GpuFaults() {}

    /** The node's faults by card index. */
    static Map<Integer, Fault> of(Node node) {
        Map<String, String> ann = node == null
                ? Map.of()
                : Objects.requireNonNullElse(node.getMetadata().getAnnotations(), Map.of());
        return parse(ann.get(ANNOTATION));
    }

    static Map<Integer, Fault> parse(String value) {
        Map<Integer, Fault> out = new TreeMap<>();
        if (value == null || value.isBlank()) {
            return out;
        }
        for (String entry : value.split(",")) {
            String[] card = entry.strip().split(":", -1);
            String[] kv = card.length == 2 ? card[1].split("=", -1) : new String[0];
            if (kv.length != 2) {
                continue;
            }
            String[] parts = {card[0], kv[0], kv[1]};
            try {
                int index = Integer.parseInt(parts[0].strip());
                long n = Long.parseLong(parts[2].strip());
                if (index < 0 || n < 0) {
                    continue;
                }
                Fault f = out.getOrDefault(index, Fault.NONE);
                switch (parts[1].strip()) {
                    case "xid" -> out.put(index, new Fault(n, f.dbe()));
                    case "dbe" -> out.put(index, new Fault(f.xid(), n));
                    default -> {}
                }
            } catch (NumberFormatException e) {
                // not a fault entry
            }
        }
        return out;
    }
}
