package io.crater.chart;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The chart linted strictly and rendered by a real helm over a matrix of values, every object read strictly into fabric8's models, and
 * the install held to a table of policies: probes on Crater's health paths, resources everywhere, non-root with a
 * read-only root, no wildcard and no cluster-wide Secrets in RBAC, a PDB and leader election with replicas, a
 * NetworkPolicy per workload, no secret value outside Secrets. The bad values files and the strict reader are in
 * {@link ChartValuesTest}; the RBAC against what Crater really calls in {@code ChartRbacIT}.
 */
class ChartTest {

    /** One render: its name, the namespace it goes into, its values file and extra helm flags. */
    record Case(String name, String namespace, String values, List<String> flags) {
        @Override
        public String toString() {
            return name;
        }

        /** The objects, rendered once per case. */
        List<HasMetadata> render() {
            return RENDERS.computeIfAbsent(
                    name,
                    n -> HelmChart.objects(HelmChart.template(
                            namespace,
                            HelmChart.DIR.resolve("examples").resolve(values),
                            flags.toArray(String[]::new))));
        }
    }

    static final String MONITORING = "monitoring.coreos.com/v1";
    private static final Map<String, List<HasMetadata>> RENDERS = new java.util.concurrent.ConcurrentHashMap<>();

    static Stream<Case> cases() {
        return Stream.of(
                new Case("minimal", "crater", "minimal.yaml", List.of()),
                new Case("one replica", "crater", "single-replica.yaml", List.of()),
                new Case("two replicas", "crater", "minimal.yaml", List.of("--set", "replicaCount=2")),
                new Case("three replicas", "crater", "minimal.yaml", List.of("--set", "replicaCount=3")),
                new Case("monitoring", "crater", "monitoring.yaml", List.of("--api-versions", MONITORING)),
                new Case("monitoring without its CRDs", "crater", "monitoring.yaml", List.of()),
                new Case(
                        "monitoring forced",
                        "crater",
                        "monitoring.yaml",
                        List.of("--set", "metrics.serviceMonitor.force=true,metrics.prometheusRule.force=true")),
                new Case("ingress with TLS", "crater", "ingress-tls.yaml", List.of()),
                new Case("external database, existing secrets", "crater-jobs", "existing-secrets.yaml", List.of()),
                new Case("in-cluster PostgreSQL", "crater", "in-cluster-postgresql.yaml", List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void rendersOnlyObjectsOfKnownKindsWithKnownFields(Case c) {
        List<HasMetadata> objects = c.render();
        assertThat(objects).extracting(HasMetadata::getKind).contains("Deployment", "Service", "ConfigMap");
        assertThat(objects)
                .allSatisfy(o -> assertThat(o.getMetadata().getName()).isNotBlank());
        assertThat(env(objects).get("JAVA_OPTS_APPEND"))
                .startsWith("-Djava.util.logging.manager=org.jboss.logmanager.LogManager -XX:");
        assertThat(objects)
                .filteredOn(o -> !o.getKind().equals("Namespace") && !clusterScoped(o))
                .allSatisfy(o -> assertThat(o.getMetadata().getNamespace()).isNotBlank());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void passesStrictLint(Case c) {
        List<String> args = new ArrayList<>(List.of(
                "lint",
                "--strict",
                HelmChart.DIR.toString(),
                "--namespace",
                c.namespace(),
                "--values",
                HelmChart.DIR.resolve("examples").resolve(c.values()).toString()));
        // helm lint has no --api-versions: the Prometheus Operator's kinds are linted in the forced case.
        for (int i = 0; i < c.flags().size(); i++) {
            if (c.flags().get(i).equals("--api-versions")) {
                i++;
            } else {
                args.add(c.flags().get(i));
            }
        }
        HelmChart.Run run = HelmChart.helm(args);
        assertThat(run.exit()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("0 chart(s) failed").doesNotContain("[WARNING]", "[ERROR]");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void probesPointAtCratersHealthPaths(Case c) {
        Container crater = crater(c.render());
        assertThat(crater.getStartupProbe().getHttpGet().getPath()).isEqualTo("/q/health/started");
        assertThat(crater.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/q/health/live");
        assertThat(crater.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/q/health/ready");
        assertThat(crater.getPorts())
                .extracting(p -> p.getName())
                .contains(crater.getReadinessProbe().getHttpGet().getPort().getStrVal());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void everyContainerHasResourcesAndRunsLocked(Case c) {
        List<HasMetadata> objects = c.render();
        List<PodSpec> pods = pods(objects);
        assertThat(pods).isNotEmpty();
        for (PodSpec pod : pods) {
            assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
            assertThat(pod.getSecurityContext().getRunAsUser()).isPositive();
            assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
            assertThat(pod.getHostNetwork()).isNotEqualTo(Boolean.TRUE);
            for (Container k : pod.getContainers()) {
                assertThat(k.getResources().getRequests()).containsKeys("cpu", "memory");
                assertThat(k.getResources().getLimits()).containsKey("memory");
                var sc = k.getSecurityContext();
                assertThat(sc.getReadOnlyRootFilesystem()).as(k.getName()).isTrue();
                assertThat(sc.getAllowPrivilegeEscalation()).isFalse();
                assertThat(sc.getRunAsNonRoot()).isTrue();
                assertThat(sc.getPrivileged()).isNotEqualTo(Boolean.TRUE);
                assertThat(sc.getCapabilities().getDrop()).containsExactly("ALL");
                assertThat(sc.getCapabilities().getAdd()).isNullOrEmpty();
                assertThat(sc.getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
                // A read-only root still needs a writable /tmp: an emptyDir.
                String tmp = k.getVolumeMounts().stream()
                        .filter(m -> m.getMountPath().equals("/tmp"))
                        .findFirst()
                        .orElseThrow()
                        .getName();
                assertThat(pod.getVolumes()).anySatisfy(v -> {
                    assertThat(v.getName()).isEqualTo(tmp);
                    assertThat(v.getEmptyDir()).isNotNull();
                });
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void rbacHasNoWildcardAndNoClusterWideSecrets(Case c) {
        List<HasMetadata> objects = c.render();
        List<PolicyRule> all = new ArrayList<>();
        objects.stream().filter(Role.class::isInstance).forEach(r -> {
            assertThat(r.getMetadata().getNamespace()).isEqualTo(jobNamespace(objects));
            all.addAll(((Role) r).getRules());
        });
        List<PolicyRule> cluster = objects.stream()
                .filter(ClusterRole.class::isInstance)
                .flatMap(r -> ((ClusterRole) r).getRules().stream())
                .toList();
        all.addAll(cluster);
        assertThat(all).isNotEmpty().allSatisfy(rule -> {
            assertThat(rule.getVerbs()).isNotEmpty().doesNotContain("*");
            assertThat(rule.getResources()).isNotEmpty().noneMatch(r -> r.contains("*"));
            assertThat(rule.getApiGroups()).doesNotContain("*");
            assertThat(rule.getNonResourceURLs()).isNullOrEmpty();
            assertThat(rule.getResourceNames()).isNullOrEmpty();
        });
        assertThat(cluster)
                .noneMatch(rule -> rule.getResources().contains("secrets")
                        || rule.getVerbs().contains("escalate")
                        || rule.getVerbs().contains("bind")
                        || rule.getVerbs().contains("impersonate"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void replicasComeWithADisruptionBudgetAndTheLeaderLease(Case c) {
        List<HasMetadata> objects = c.render();
        Deployment d = one(objects, Deployment.class);
        int replicas = d.getSpec().getReplicas();
        List<PodDisruptionBudget> pdbs = all(objects, PodDisruptionBudget.class);
        if (replicas > 1) {
            assertThat(pdbs).singleElement().satisfies(pdb -> {
                assertThat(pdb.getSpec().getSelector().getMatchLabels())
                        .isEqualTo(d.getSpec().getSelector().getMatchLabels());
                assertThat(pdb.getSpec().getMaxUnavailable().getIntVal()).isLessThan(replicas);
            });
            // Leader election (always on in Crater): the Lease crater-admission in the job namespace.
            String ns = env(objects).get("CRATER_CLUSTER_NAMESPACE");
            Role role = one(objects, Role.class);
            assertThat(role.getMetadata().getNamespace()).isEqualTo(ns);
            assertThat(role.getRules()).anySatisfy(rule -> {
                assertThat(rule.getApiGroups()).containsExactly("coordination.k8s.io");
                assertThat(rule.getResources()).containsExactly("leases");
                assertThat(rule.getVerbs()).contains("get", "create", "patch");
            });
            assertThat(d.getSpec().getTemplate().getSpec().getTopologySpreadConstraints())
                    .isNotEmpty();
        } else {
            assertThat(pdbs).isEmpty();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void everyWorkloadIsFencedByANetworkPolicy(Case c) {
        List<HasMetadata> objects = c.render();
        List<NetworkPolicy> policies = all(objects, NetworkPolicy.class);
        for (PodTemplateSpec t : templates(objects)) {
            Map<String, String> labels = t.getMetadata().getLabels();
            assertThat(policies).as("a policy for %s", labels).anySatisfy(p -> {
                assertThat(labels)
                        .containsAllEntriesOf(p.getSpec().getPodSelector().getMatchLabels());
                assertThat(p.getSpec().getPolicyTypes()).containsExactlyInAnyOrder("Ingress", "Egress");
            });
        }
        // The NetworkPolicy Crater writes for every job admits pods labelled app.kubernetes.io/name=crater.
        assertThat(one(objects, Deployment.class)
                        .getSpec()
                        .getTemplate()
                        .getMetadata()
                        .getLabels())
                .containsEntry("app.kubernetes.io/name", "crater");
        assertThat(policies)
                .anySatisfy(p -> assertThat(p.getMetadata().getNamespace()).isEqualTo(jobNamespace(objects)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void secretValuesStayInSecrets(Case c) {
        List<HasMetadata> objects = c.render();
        List<String> values = new ArrayList<>();
        all(objects, Secret.class)
                .forEach(s -> s.getData()
                        .values()
                        .forEach(v -> values.add(new String(Base64.getDecoder().decode(v)))));
        String elsewhere = objects.stream()
                .filter(o -> !(o instanceof Secret))
                .map(io.fabric8.kubernetes.client.utils.Serialization::asYaml)
                .reduce("", String::concat);
        assertThat(values).allSatisfy(v -> assertThat(elsewhere).doesNotContain(v));
        Container crater = crater(objects);
        assertThat(crater.getEnv())
                .filteredOn(e -> e.getName().endsWith("PASSWORD") || e.getName().endsWith("_KEY"))
                .isNotEmpty()
                .allSatisfy(e -> assertThat(e.getValueFrom().getSecretKeyRef()).isNotNull());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void servicesAndIngressReachNamedPorts(Case c) {
        List<HasMetadata> objects = c.render();
        List<String> ports = new ArrayList<>();
        pods(objects)
                .forEach(p -> p.getContainers().forEach(k -> k.getPorts().forEach(port -> ports.add(port.getName()))));
        for (Service s : all(objects, Service.class)) {
            assertThat(s.getSpec().getPorts())
                    .allSatisfy(
                            p -> assertThat(ports).contains(p.getTargetPort().getStrVal()));
        }
        for (Ingress i : all(objects, Ingress.class)) {
            String apps = env(objects).get("CRATER_APPS_DOMAIN");
            assertThat(i.getSpec().getRules()).extracting(r -> r.getHost()).contains("*." + apps);
            assertThat(i.getSpec().getTls()).flatExtracting(t -> t.getHosts()).contains("*." + apps);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void monitoringOnlyWhereTheClusterHasIt(Case c) throws Exception {
        List<HasMetadata> objects = c.render();
        boolean wanted = c.flags().contains(MONITORING) || c.flags().stream().anyMatch(f -> f.contains("force=true"));
        assertThat(objects.stream().filter(o -> o.getKind().equals("ServiceMonitor")))
                .hasSize(wanted ? 1 : 0);
        assertThat(objects.stream().filter(o -> o.getKind().equals("PrometheusRule")))
                .hasSize(wanted ? 1 : 0);
        List<ConfigMap> dashboards = all(objects, ConfigMap.class).stream()
                .filter(m -> "1".equals(m.getMetadata().getLabels().get("grafana_dashboard")))
                .toList();
        try (var files = Files.list(Path.of("grafana-dashboards"))) {
            List<Path> json = files.filter(f -> f.toString().endsWith(".json")).toList();
            assertThat(dashboards).hasSize(json.size());
            for (Path f : json) {
                String name = f.getFileName().toString();
                assertThat(dashboards)
                        .as("the dashboard %s as in grafana-dashboards/", name)
                        .anySatisfy(m -> assertThat(m.getData().get(name))
                                .isEqualTo(Files.readString(f).stripTrailing()));
            }
        }
    }

    static boolean clusterScoped(HasMetadata o) {
        return List.of("ClusterRole", "ClusterRoleBinding", "PersistentVolume", "Namespace")
                .contains(o.getKind());
    }

    static String jobNamespace(List<HasMetadata> objects) {
        return env(objects).get("CRATER_CLUSTER_NAMESPACE");
    }

    static Map<String, String> env(List<HasMetadata> objects) {
        String name = one(objects, Deployment.class).getMetadata().getName();
        return all(objects, ConfigMap.class).stream()
                .filter(m -> m.getMetadata().getName().equals(name))
                .findFirst()
                .orElseThrow()
                .getData();
    }

    static Container crater(List<HasMetadata> objects) {
        return one(objects, Deployment.class).getSpec().getTemplate().getSpec().getContainers().stream()
                .filter(k -> k.getName().equals("crater"))
                .findFirst()
                .orElseThrow();
    }

    static List<PodTemplateSpec> templates(List<HasMetadata> objects) {
        List<PodTemplateSpec> t = new ArrayList<>();
        all(objects, Deployment.class).forEach(d -> t.add(d.getSpec().getTemplate()));
        all(objects, StatefulSet.class).forEach(s -> t.add(s.getSpec().getTemplate()));
        return t;
    }

    static List<PodSpec> pods(List<HasMetadata> objects) {
        return templates(objects).stream().map(PodTemplateSpec::getSpec).toList();
    }

    static <T extends HasMetadata> List<T> all(List<HasMetadata> objects, Class<T> kind) {
        return objects.stream().filter(kind::isInstance).map(kind::cast).toList();
    }

    static <T extends HasMetadata> T one(List<HasMetadata> objects, Class<T> kind) {
        List<T> found = all(objects, kind);
        assertThat(found).as("one %s", kind.getSimpleName()).hasSize(1);
        return found.get(0);
    }
}
