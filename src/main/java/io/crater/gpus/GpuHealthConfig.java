package io.crater.gpus;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Finding and quarantining broken GPUs (docs/nodes.md, "Quarantine"). */
@ConfigMapping(prefix = "crater.gpu-health")
public interface GpuHealthConfig {

    /** Whether the leader reads the cards' error counters and failed jobs and judges the nodes. */
    @WithDefault("true")
    boolean enabled();

    /** How often the cards are read and the nodes judged. */
    @WithDefault("15s")
    Duration interval();

    /** How long evidence counts against a node that is not quarantined. */
    @WithDefault("1h")
    Duration window();

    /** Hardware XIDs within the window that quarantine a node (one makes it suspect). */
    @WithDefault("2")
    int hardwareXids();

    /** Distinct failed jobs on a node within the window that make it suspect. */
    @WithDefault("3")
    int failedJobsSuspect();

    /** Distinct failed jobs on a node within the window that quarantine it. */
    @WithDefault("6")
    int failedJobsQuarantine();

    /** How long evidence is kept for the node's history (a quarantined node keeps all of it until cleared). */
    @WithDefault("7d")
    Duration keep();
}
