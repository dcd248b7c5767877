package io.crater.job;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Settings of jobs and admission. */
@ConfigMapping(prefix = "crater.jobs")
public interface JobsConfig {

    /** Default time limit of interactive jobs (jupyter, webide). */
    @WithDefault("24h")
    Duration interactiveDefaultLimit();

    /** Longest time limit an interactive job may ask for. */
    @WithDefault("7d")
    Duration interactiveMaxLimit();

    /** Default time limit of batch jobs (custom, pytorch). */
    @WithDefault("7d")
    Duration batchDefaultLimit();

    /** Longest time limit a batch job may ask for. */
    @WithDefault("30d")
    Duration batchMaxLimit();

    /** The PersistentVolumeClaim (RWX) holding the user, account and public spaces. */
    @WithDefault("crater-shared")
    String sharedClaim();

    /** How long Volcano keeps a finished job's objects. */
    @WithDefault("1h")
    Duration ttlAfterFinished();

    /** Default images per kind. */
    @WithDefault("quay.io/jupyter/pytorch-notebook:cuda12-2024-12-09")
    String jupyterImage();

    @WithDefault("codercom/code-server:4.96.2")
    String webideImage();

    /** How often the leader runs an admission round even without a wake-up. */
    @WithDefault("2s")
    Duration admissionInterval();

    /**
     * A waiting job that cannot start for lack of capacity and has waited longer than this is no longer passed by
     * smaller jobs that need the same nodes: their capacity accrues for it.
     */
    @WithDefault("1h")
    Duration agingTolerance();

    /** How long before its time limit ends a running job its owner is warned (in the console's notifications). */
    @WithDefault("30m")
    Duration timeLimitWarning();

    /** A borrowing job that has run less than this is not taken back for an account within its guarantee. */
    @WithDefault("0s")
    Duration reclaimMinRunTime();

    /** An admitted job whose Volcano Job is still missing after this long is created again. */
    @WithDefault("10s")
    Duration repairAfter();

    /**
     * How often a replica looks for job state notices to turn into notifications (started, failed, ...) and for
     * jobs that have waited longer than their owner's threshold.
     */
    @WithDefault("2s")
    Duration noticeInterval();

    /**
     * The ingress bandwidth cap of every job's pods ({@code kubernetes.io/ingress-bandwidth}, bits per second as a
     * Kubernetes quantity such as {@code 100M}) where the account sets none of its own; {@code none}: no cap.
     */
    @WithDefault("none")
    String ingressBandwidth();

    /** The egress bandwidth cap ({@code kubernetes.io/egress-bandwidth}), likewise. */
    @WithDefault("none")
    String egressBandwidth();

    /**
     * The features turned off in personal accounts that set none of their own, comma-separated ({@code
     * ssh,high-priority}; the names of {@code GET /api/v1/accounts/{slug}/features}); {@code none}: every feature on.
     */
    @WithDefault("none")
    String personalFeaturesOff();
}
