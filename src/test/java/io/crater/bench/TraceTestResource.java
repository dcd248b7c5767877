package io.crater.bench;

import io.crater.CraterTestResource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * What {@link CraterTestResource} starts, on a fleet whose allocatable CPU equals the Kueue trace's total nominal
 * quota, with the simulated cluster at the trace benchmark's pace (ticks of 0.05 s, pods start at once).
 */
public class TraceTestResource extends CraterTestResource {

    /** Allocatable CPU of a full node (capacity 102: the kubelet keeps 2 % of it, at most 2 cores). */
    static final long NODE_MILLI = 100_000;

    @Override
    public Map<String, String> start() {
        Path fleet;
        try {
            fleet = Files.createTempFile("crater-kueue-fleet", ".yaml");
            Files.writeString(fleet, fleetYaml(TraceBench.trace().nominalMilli()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        System.setProperty("crater.sim.fleet", fleet.toString());
        System.setProperty("crater.sim.tick", "0.05s");
        System.setProperty("crater.sim.start-delay", "0s");
        try {
            return super.start();
        } finally {
            System.clearProperty("crater.sim.fleet");
            System.clearProperty("crater.sim.tick");
            System.clearProperty("crater.sim.start-delay");
        }
    }

    /**
     * A fleet of CPU nodes whose allocatable CPU sums to exactly {@code cpuMilli}: nodes of 100 allocatable cores and,
     * for a remainder, one smaller node; memory is plentiful (512Gi a node).
     */
    static String fleetYaml(long cpuMilli) {
        StringBuilder yaml = new StringBuilder("nodeGroups:\n");
        long full = cpuMilli / NODE_MILLI;
        long rest = cpuMilli % NODE_MILLI;
        if (full > 0) {
            yaml.append(group("kq", full, capacityFor(NODE_MILLI)));
        }
        if (rest > 0) {
            yaml.append(group("kq-rest", 1, capacityFor(rest)));
        }
        return yaml.toString();
    }

    private static String group(String name, long count, long cpuMilli) {
        String cpu = cpuMilli % 1000 == 0 ? Long.toString(cpuMilli / 1000) : cpuMilli + "m";
        return "  - name: " + name + "\n    count: " + count + "\n    cpu: \"" + cpu + "\"\n    memory: 512Gi\n";
    }

    /** The CPU capacity (milli) whose allocatable is {@code allocatable}: capacity − min(capacity / 50, 2000). */
    static long capacityFor(long allocatable) {
        for (long c = allocatable; ; c++) {
            if (c - Math.min(c / 50, 2000) == allocatable) {
                return c;
            }
        }
    }
}
