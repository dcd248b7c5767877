package io.crater.kube;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

/** Kubernetes clients built from an explicit URL, never from a kubeconfig or the environment. */
public final class KubeClients {

    private KubeClients() {}

    public static KubernetesClient forUrl(String masterUrl) {
        Config config = new ConfigBuilder(Config.empty())
                .withMasterUrl(masterUrl)
                .withRequestTimeout(30_000)
                .withConnectionTimeout(10_000)
                .withWatchReconnectInterval(500)
                .build();
        return new KubernetesClientBuilder().withConfig(config).build();
    }
}
