package io.crater.kube;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

/** Kubernetes clients built from an explicit URL, never from a kubeconfig or the environment. */
public final class KubeClients {

    /**
     * The user agent of Crater's own client (the server's, in both cluster modes): the simulated API server records
     * the uses of this agent alone, which the chart's RBAC is checked against (docs/deploy.md).
     */
    public static final String SERVER_AGENT = "crater-server";

    private KubeClients() {}

    public static KubernetesClient forUrl(String masterUrl) {
        return forUrl(masterUrl, null);
    }

    /** A client of {@code masterUrl} that sends {@code userAgent} (null: fabric8's own). */
    public static KubernetesClient forUrl(String masterUrl, String userAgent) {
        Config config = new ConfigBuilder(Config.empty())
                .withMasterUrl(masterUrl)
                .withRequestTimeout(30_000)
                .withConnectionTimeout(10_000)
                .withWatchReconnectInterval(500)
                .build();
        if (userAgent != null) {
            config.setUserAgent(userAgent);
        }
        return new KubernetesClientBuilder().withConfig(config).build();
    }
}
