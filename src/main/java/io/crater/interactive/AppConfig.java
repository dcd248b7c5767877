package io.crater.interactive;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/** Settings of the app origin: where proxied apps (JupyterLab, code-server, any port of a job) are served. */
@ConfigMapping(prefix = "crater.apps")
public interface AppConfig {

    /** Whether the app origin listens at all. */
    @WithDefault("true")
    boolean enabled();

    /** The address its server listens on. */
    @WithDefault("127.0.0.1")
    String host();

    /** The port its server listens on (0: any free port, for tests). */
    @WithDefault("8081")
    int port();

    /**
     * The parent domain of the per-job origins: {@code <job>.<domain>}. {@code apps.localhost} in the embedded
     * default (browsers resolve {@code *.localhost} to loopback); a wildcard DNS name in a cluster.
     */
    @WithDefault("apps.localhost")
    String domain();

    /** The scheme and port users reach the app origins with, when a load balancer terminates TLS in front. */
    @WithDefault("http")
    String publicScheme();

    /** The public port of the app origins; the listening port when absent. */
    Optional<Integer> publicPort();

    /** How long a ticket minted by {@code /open} may be exchanged. */
    @WithDefault("60s")
    Duration ticketTtl();

    /** How long an app origin's session cookie lasts. */
    @WithDefault("12h")
    Duration sessionTtl();

    /**
     * How long the proxy keeps a session's checked access (its owner, the job running, the pod) before checking it
     * in the database again; within it a request costs no query. A stopped job, a disabled user or a session that
     * ended is refused at most this long after. 0 checks every request.
     */
    @WithDefault("5s")
    Duration accessCheckTtl();

    /**
     * How often each replica writes down the last request its proxy passed to each job's app ({@code app_activity}):
     * one statement per interval for all of them, never a write per request.
     */
    @WithDefault("15s")
    Duration activityFlush();

    /**
     * How the proxy reaches a pod's port: {@code port-forward} (the Kubernetes API, works everywhere, the simulated
     * cluster's only way), {@code direct} (the pod's IP, behind Crater's NetworkPolicy), or {@code auto}
     * (port-forward in the simulated cluster, direct in a real one).
     */
    @WithDefault("auto")
    String transport();
}
