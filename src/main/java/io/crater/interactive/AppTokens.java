package io.crater.interactive;

import io.crater.job.JobNames;
import io.crater.job.PodAccess;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/** The tokens the app proxy adds for an app (JupyterLab's), read once per job from the Secret Crater made. */
@ApplicationScoped
class AppTokens {

    private static final Logger LOG = Logger.getLogger(AppTokens.class);

    @Inject
    KubernetesClient client;

    /** Jupyter tokens per job, read once from the job's Secret. */
    private final Map<String, String> tokens = new ConcurrentHashMap<>();

    /** The token the proxy adds for this app, read off the event loop (the Kubernetes client blocks). */
    Uni<java.util.Optional<String>> of(PodAccess.Target target, AppProfile profile) {
        if (!profile.token() || !"jupyter".equals(target.kind())) {
            return Uni.createFrom().item(java.util.Optional.empty());
        }
        String cached = tokens.get(target.job());
        if (cached != null) {
            return Uni.createFrom().item(java.util.Optional.of(cached));
        }
        return Uni.createFrom()
                .item(() -> token(target))
                .runSubscriptionOn(io.smallrye.mutiny.infrastructure.Infrastructure.getDefaultWorkerPool());
    }

    /** The job's Jupyter token, from the Secret Crater made for it. */
    private java.util.Optional<String> token(PodAccess.Target target) {
        return java.util.Optional.ofNullable(tokens.computeIfAbsent(target.job(), job -> {
            try {
                var secret = client.secrets()
                        .inNamespace(target.namespace())
                        .withName(JobNames.volcanoName(job) + "-app")
                        .get();
                if (secret == null) {
                    return null;
                }
                // The API server turns stringData into data; a store that keeps it as written is read as well.
                if (secret.getData() != null && secret.getData().get("token") != null) {
                    return new String(
                            Base64.getDecoder().decode(secret.getData().get("token")), StandardCharsets.UTF_8);
                }
                return secret.getStringData() == null
                        ? null
                        : secret.getStringData().get("token");
            } catch (RuntimeException e) {
                LOG.warnf("reading the app token of %s failed: %s", job, e.getMessage());
                return null;
            }
        }));
    }
}
