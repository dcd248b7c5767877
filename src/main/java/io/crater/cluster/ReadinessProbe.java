package io.crater.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.crater.policy.ClusterReadiness;
import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.APIGroupList;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GroupVersionForDiscovery;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What Crater sees of the cluster for its readiness report ({@link ClusterReadiness}): Volcano's kinds through API
 * discovery (which every signed-in client may read), the scheduler's ConfigMap, one SelfSubjectAccessReview per
 * permission of {@link RequiredAccess}, the job namespace, the shared claim and its storage class, a query to
 * Prometheus. Blocking: call it on a worker thread.
 */
final class ReadinessProbe {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private final KubernetesClient client;
    private final String namespace;
    private final String claim;
    private final String schedulerConfigMap;
    private final Optional<String> prometheusUrl;
    private final boolean simulated;
    private final Duration timeout;

    ReadinessProbe(
            KubernetesClient client,
            String namespace,
            String claim,
            String schedulerConfigMap,
            Optional<String> prometheusUrl,
            boolean simulated,
            Duration timeout) {
        this.client = client;
        this.namespace = namespace;
        this.claim = claim;
        this.schedulerConfigMap = schedulerConfigMap;
        this.prometheusUrl = prometheusUrl.map(String::trim).filter(u -> !u.isEmpty());
        this.simulated = simulated;
        this.timeout = timeout;
    }

    ClusterReadiness.Observations observe() {
        Map<String, List<String>> crds = null;
        String crdsError = null;
        try {
            crds = volcanoKinds();
        } catch (KubernetesClientException e) {
            crdsError = why(e);
        }
        Boolean namespaceExists = null;
        String namespaceError = null;
        try {
            namespaceExists = client.namespaces().withName(namespace).get() != null;
        } catch (KubernetesClientException e) {
            namespaceError = why(e);
        }
        return new ClusterReadiness.Observations(
                crds,
                crdsError,
                scheduler(),
                access(),
                namespace,
                namespaceExists,
                namespaceError,
                claim(),
                prometheus());
    }

    /** Per Volcano CRD that exists, the versions its group serves it at (from discovery). */
    private Map<String, List<String>> volcanoKinds() {
        Map<String, List<String>> served = new LinkedHashMap<>();
        Map<String, APIGroup> groups = new LinkedHashMap<>();
        APIGroupList all = client.getApiGroups();
        if (all != null && all.getGroups() != null) {
            all.getGroups().forEach(g -> groups.put(g.getName(), g));
        }
        for (String crd : ClusterReadiness.VOLCANO_CRDS.keySet()) {
            String plural = crd.substring(0, crd.indexOf('.'));
            String group = crd.substring(crd.indexOf('.') + 1);
            APIGroup g = groups.get(group);
            if (g == null) {
                continue;
            }
            List<String> versions = new ArrayList<>();
            for (GroupVersionForDiscovery v : g.getVersions()) {
                APIResourceList resources = client.getApiResources(v.getGroupVersion());
                if (resources != null && resources.getResources().stream().anyMatch(r -> plural.equals(r.getName()))) {
                    versions.add(v.getVersion());
                }
            }
            if (!versions.isEmpty()) {
                served.put(crd, versions);
            }
        }
        return served;
    }

    private ClusterReadiness.SchedulerConfig scheduler() {
        String source = schedulerConfigMap;
        int slash = source.indexOf('/');
        if (slash <= 0) {
            return ClusterReadiness.SchedulerConfig.unreadable(source, "not namespace/name");
        }
        ConfigMap map;
        try {
            map = client.configMaps()
                    .inNamespace(source.substring(0, slash))
                    .withName(source.substring(slash + 1))
                    .get();
        } catch (KubernetesClientException e) {
            return ClusterReadiness.SchedulerConfig.unreadable(source, why(e));
        }
        if (map == null) {
            return ClusterReadiness.SchedulerConfig.unreadable(source, "not found");
        }
        String conf = map.getData() == null ? null : map.getData().get(SchedulerConfigs.KEY);
        if (conf == null) {
            return ClusterReadiness.SchedulerConfig.unreadable(source, "no " + SchedulerConfigs.KEY);
        }
        try {
            return SchedulerConfigs.parse(source, YAML.readTree(conf));
        } catch (java.io.IOException e) {
            return ClusterReadiness.SchedulerConfig.unreadable(source, "not YAML: " + e.getMessage());
        }
    }

    private List<ClusterReadiness.Access> access() {
        List<ClusterReadiness.Access> out = new ArrayList<>();
        for (RequiredAccess.Permission p : RequiredAccess.in(namespace)) {
            String[] resource = p.resource().split("/", 2);
            SelfSubjectAccessReview review = new SelfSubjectAccessReviewBuilder()
                    .withNewSpec()
                    .withNewResourceAttributes()
                    .withVerb(p.verb())
                    .withGroup(p.group())
                    .withResource(resource[0])
                    .withSubresource(resource.length > 1 ? resource[1] : null)
                    .withNamespace(p.namespace())
                    .endResourceAttributes()
                    .endSpec()
                    .build();
            try {
                SelfSubjectAccessReview answer =
                        client.authorization().v1().selfSubjectAccessReview().create(review);
                boolean allowed = answer.getStatus() != null
                        && Boolean.TRUE.equals(answer.getStatus().getAllowed());
                out.add(new ClusterReadiness.Access(p.verb(), p.group(), p.resource(), p.namespace(), allowed, null));
            } catch (KubernetesClientException e) {
                out.add(new ClusterReadiness.Access(p.verb(), p.group(), p.resource(), p.namespace(), null, why(e)));
            }
        }
        return out;
    }

    private ClusterReadiness.Claim claim() {
        PersistentVolumeClaim pvc;
        try {
            pvc = client.persistentVolumeClaims()
                    .inNamespace(namespace)
                    .withName(claim)
                    .get();
        } catch (KubernetesClientException e) {
            return new ClusterReadiness.Claim(claim, false, null, List.of(), null, null);
        }
        if (pvc == null) {
            return new ClusterReadiness.Claim(claim, false, null, List.of(), null, null);
        }
        String storageClass = pvc.getSpec() == null ? null : pvc.getSpec().getStorageClassName();
        Boolean classExists = null;
        if (storageClass != null && !storageClass.isEmpty()) {
            try {
                classExists = client.storage()
                                .v1()
                                .storageClasses()
                                .withName(storageClass)
                                .get()
                        != null;
            } catch (KubernetesClientException e) {
                classExists = e.getCode() == 404 ? Boolean.FALSE : null;
            }
        }
        return new ClusterReadiness.Claim(
                claim,
                true,
                pvc.getStatus() == null ? null : pvc.getStatus().getPhase(),
                pvc.getSpec() == null ? List.of() : pvc.getSpec().getAccessModes(),
                storageClass,
                classExists);
    }

    /** Prometheus answers {@code vector(1)} with {@code "status":"success"}. */
    private ClusterReadiness.Prometheus prometheus() {
        if (prometheusUrl.isEmpty()) {
            return new ClusterReadiness.Prometheus(null, simulated, false, null);
        }
        String url = prometheusUrl.get();
        try {
            URI base = URI.create(url.endsWith("/") ? url : url + "/");
            HttpClient http = HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(timeout)
                    .build();
            HttpResponse<String> answer = http.send(
                    HttpRequest.newBuilder(base.resolve("api/v1/query?query=vector(1)"))
                            .timeout(timeout)
                            .header("Accept", "application/json")
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            JsonNode body = answer.statusCode() == 200 ? new ObjectMapper().readTree(answer.body()) : null;
            if (body != null && "success".equals(body.path("status").asText())) {
                return new ClusterReadiness.Prometheus(url, simulated, true, null);
            }
            return new ClusterReadiness.Prometheus(url, simulated, false, "answered " + answer.statusCode());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new ClusterReadiness.Prometheus(url, simulated, false, "interrupted");
        } catch (Exception e) {
            return new ClusterReadiness.Prometheus(
                    url,
                    simulated,
                    false,
                    e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()));
        }
    }

    private static String why(KubernetesClientException e) {
        return switch (e.getCode()) {
            case 401 -> "unauthorized";
            case 403 -> "forbidden";
            case 404 -> "not found";
            default -> e.getCode() > 0 ? "answered " + e.getCode() : String.valueOf(e.getMessage());
        };
    }
}
