package io.crater.cluster;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Optional;

/** Which cluster Crater runs against. */
@ConfigMapping(prefix = "crater.cluster")
public interface ClusterConfig {

    /**
     * {@code simulated} (the embedded default: an in-process API server and simulator started by the launcher)
     * or {@code kubernetes} (a real cluster: in-cluster service account, else the standard client configuration
     * that the person who chose this mode set up).
     */
    @WithDefault("simulated")
    String mode();

    /** The simulated cluster's API URL, set by the launcher. */
    Optional<String> apiUrl();

    /** The namespace every job, its Services and Secrets live in. */
    @WithDefault("crater-jobs")
    String namespace();

    /**
     * Where Volcano's scheduler reads its configuration, {@code namespace/name} of a ConfigMap whose
     * {@code volcano-scheduler.conf} the readiness report checks (docs/readiness.md).
     */
    @WithDefault("volcano-system/volcano-scheduler-configmap")
    String schedulerConfigMap();
}
