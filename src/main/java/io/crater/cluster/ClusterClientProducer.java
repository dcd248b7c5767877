package io.crater.cluster;

import io.crater.kube.KubeClients;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * Crater's one Kubernetes client. In the simulated mode it points at the in-process API server and reads no
 * kubeconfig, so a developer's production context can never be picked up by {@code make run}.
 */
@ApplicationScoped
public class ClusterClientProducer {

    @Produces
    @Singleton
    KubernetesClient client(ClusterConfig config) {
        if ("kubernetes".equals(config.mode())) {
            Config standard = Config.autoConfigure(null);
            standard.setUserAgent(KubeClients.SERVER_AGENT);
            return new KubernetesClientBuilder().withConfig(standard).build();
        }
        return KubeClients.forUrl(
                config.apiUrl()
                        .orElseThrow(
                                () -> new IllegalStateException(
                                        "crater.cluster.api-url is not set: start Crater with bin/crater server, which starts the simulated cluster")),
                KubeClients.SERVER_AGENT);
    }

    void close(@Disposes KubernetesClient client) {
        client.close();
    }
}
