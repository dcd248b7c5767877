package io.crater.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.crater.policy.ClusterReadiness.Access;
import io.crater.policy.ClusterReadiness.Claim;
import io.crater.policy.ClusterReadiness.Observations;
import io.crater.policy.ClusterReadiness.Prometheus;
import io.crater.policy.ClusterReadiness.SchedulerConfig;
import io.crater.policy.ClusterReadiness.State;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** From what Crater observed of a cluster to its readiness report: per shortfall, the check, its state and reason. */
class ClusterReadinessTest {

    static final Instant AT = Instant.parse("2026-12-02T05:00:00Z");

    /** A cluster with everything Crater needs, changed by each case. */
    static final class Cluster {
        Map<String, List<String>> crds = new LinkedHashMap<>(Map.of(
                "jobs.batch.volcano.sh", List.of("v1alpha1"),
                "queues.scheduling.volcano.sh", List.of("v1beta1"),
                "podgroups.scheduling.volcano.sh", List.of("v1beta1")));
        String crdsError;
        SchedulerConfig scheduler = SchedulerConfig.read(
                "volcano-system/volcano-scheduler-configmap",
                List.of("enqueue", "allocate", "backfill"),
                List.of("priority", "gang", "predicates", "capacity", "nodeorder", "binpack"));
        List<Access> access = List.of(
                new Access("create", "", "pods/exec", "crater-jobs", true, null),
                new Access("list", "scheduling.volcano.sh", "queues", null, true, null));
        Boolean namespaceExists = true;
        String namespaceError;
        Claim claim = new Claim("crater-shared", true, "Bound", List.of("ReadWriteMany"), "cephfs", true);
        Prometheus prometheus = new Prometheus("http://prometheus.monitoring:9090", false, true, null);

        Observations observations() {
            return new Observations(
                    crds,
                    crdsError,
                    scheduler,
                    access,
                    "crater-jobs",
                    namespaceExists,
                    namespaceError,
                    claim,
                    prometheus);
        }
    }

    static Cluster aCluster(UnaryOperator<Cluster> change) {
        return change.apply(new Cluster());
    }

    static SchedulerConfig scheduler(List<String> actions, List<String> plugins) {
        return SchedulerConfig.read("volcano-system/volcano-scheduler-configmap", actions, plugins);
    }

    static Arguments when(String name, Cluster cluster, String check, State state, String... reasons) {
        return Arguments.of(name, cluster, check, state, List.of(reasons));
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                when("everything there", aCluster(c -> c), "volcano-crds", State.ok),
                when(
                        "a Volcano CRD missing",
                        aCluster(c -> {
                            c.crds.remove("queues.scheduling.volcano.sh");
                            return c;
                        }),
                        "volcano-crds",
                        State.degraded,
                        "VolcanoCrdMissing(crd=queues.scheduling.volcano.sh, version=v1beta1)"),
                when(
                        "a Volcano CRD without the version Crater speaks",
                        aCluster(c -> {
                            c.crds.put("jobs.batch.volcano.sh", List.of("v1beta1"));
                            return c;
                        }),
                        "volcano-crds",
                        State.degraded,
                        "VolcanoCrdVersionNotServed(crd=jobs.batch.volcano.sh, version=v1alpha1, served=v1beta1)"),
                when(
                        "discovery failed",
                        aCluster(c -> {
                            c.crds = null;
                            c.crdsError = "answered 503";
                            return c;
                        }),
                        "volcano-crds",
                        State.unknown,
                        "CrdsUnreadable(error=answered 503)"),
                when(
                        "the scheduler without backfill, with reclaim and proportion, without capacity",
                        aCluster(c -> {
                            c.scheduler = scheduler(
                                    List.of("enqueue", "allocate", "reclaim"),
                                    List.of("priority", "gang", "predicates", "proportion", "nodeorder", "binpack"));
                            return c;
                        }),
                        "volcano-scheduler",
                        State.degraded,
                        "SchedulerActionMissing(action=backfill, actions=enqueue,allocate,reclaim)",
                        "SchedulerActionUnwanted(action=reclaim)",
                        "SchedulerPluginMissing(plugin=capacity)",
                        "SchedulerPluginUnwanted(plugin=proportion)"),
                when(
                        "the scheduler's ConfigMap not readable: unknown, not degraded",
                        aCluster(c -> {
                            c.scheduler = SchedulerConfig.unreadable(
                                    "volcano-system/volcano-scheduler-configmap", "forbidden");
                            return c;
                        }),
                        "volcano-scheduler",
                        State.unknown,
                        "SchedulerConfigUnreadable(source=volcano-system/volcano-scheduler-configmap, error=forbidden)"),
                when(
                        "a permission denied",
                        aCluster(c -> {
                            c.access = List.of(
                                    new Access("create", "", "pods/exec", "crater-jobs", false, null),
                                    new Access("list", "scheduling.volcano.sh", "queues", null, true, null));
                            return c;
                        }),
                        "permissions",
                        State.degraded,
                        "PermissionDenied(permission=create pods/exec in crater-jobs)"),
                when(
                        "a cluster-scoped permission of a named group denied, another not asked",
                        aCluster(c -> {
                            c.access = List.of(
                                    new Access("create", "", "pods/exec", "crater-jobs", null, "answered 500"),
                                    new Access("list", "scheduling.volcano.sh", "queues", null, false, null));
                            return c;
                        }),
                        "permissions",
                        State.degraded,
                        "PermissionDenied(permission=list queues.scheduling.volcano.sh (cluster))",
                        "PermissionUnchecked(permission=create pods/exec in crater-jobs, error=answered 500)"),
                when(
                        "access reviews failing alone: unknown",
                        aCluster(c -> {
                            c.access = List.of(new Access("create", "", "pods/exec", "crater-jobs", null, "forbidden"));
                            return c;
                        }),
                        "permissions",
                        State.unknown,
                        "PermissionUnchecked(permission=create pods/exec in crater-jobs, error=forbidden)"),
                when(
                        "the job namespace missing",
                        aCluster(c -> {
                            c.namespaceExists = false;
                            return c;
                        }),
                        "job-namespace",
                        State.degraded,
                        "JobNamespaceMissing(namespace=crater-jobs)"),
                when(
                        "the job namespace not readable",
                        aCluster(c -> {
                            c.namespaceExists = null;
                            c.namespaceError = "forbidden";
                            return c;
                        }),
                        "job-namespace",
                        State.unknown,
                        "NamespaceUnreadable(namespace=crater-jobs, error=forbidden)"),
                when(
                        "no shared claim",
                        aCluster(c -> {
                            c.claim = new Claim("crater-shared", false, null, null, null, null);
                            return c;
                        }),
                        "storage",
                        State.degraded,
                        "SharedClaimMissing(claim=crater-shared)"),
                when(
                        "a pending ReadWriteOnce claim of a storage class that is gone",
                        aCluster(c -> {
                            c.claim = new Claim(
                                    "crater-shared", true, "Pending", List.of("ReadWriteOnce"), "fast", false);
                            return c;
                        }),
                        "storage",
                        State.degraded,
                        "SharedClaimNotBound(claim=crater-shared, phase=Pending)",
                        "SharedClaimNotReadWriteMany(claim=crater-shared, accessModes=ReadWriteOnce)",
                        "StorageClassMissing(storageClass=fast, claim=crater-shared)"),
                when(
                        "a bound claim whose storage class Crater may not read",
                        aCluster(c -> {
                            c.claim =
                                    new Claim("crater-shared", true, "Bound", List.of("ReadWriteMany"), "cephfs", null);
                            return c;
                        }),
                        "storage",
                        State.ok),
                when(
                        "Prometheus unreachable",
                        aCluster(c -> {
                            c.prometheus = new Prometheus("http://prom:9090", false, false, "ConnectException");
                            return c;
                        }),
                        "prometheus",
                        State.degraded,
                        "PrometheusUnreachable(url=http://prom:9090, error=ConnectException)"),
                when(
                        "no Prometheus on a real cluster",
                        aCluster(c -> {
                            c.prometheus = new Prometheus(null, false, false, null);
                            return c;
                        }),
                        "prometheus",
                        State.degraded,
                        "PrometheusNotConfigured()"),
                when(
                        "no Prometheus in the simulated cluster, whose exporter Crater reads itself",
                        aCluster(c -> {
                            c.prometheus = new Prometheus(null, true, false, null);
                            return c;
                        }),
                        "prometheus",
                        State.ok));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void reportsEachShortfallByName(String name, Cluster cluster, String check, State state, List<String> reasons) {
        ClusterReadiness.Report report = ClusterReadiness.report(cluster.observations(), AT);

        ClusterReadiness.Check found = report.checks().stream()
                .filter(c -> c.name().equals(check))
                .findFirst()
                .orElseThrow();
        assertThat(found.state()).isEqualTo(state);
        assertThat(found.reasons()).extracting(Object::toString).containsExactlyElementsOf(reasons);
        assertThat(report.checkedAt()).isEqualTo(AT);
        assertThat(report.checks())
                .extracting(ClusterReadiness.Check::name)
                .containsExactly(
                        "volcano-crds", "volcano-scheduler", "permissions", "job-namespace", "storage", "prometheus");
        // The other checks stay ok: each case changes one thing.
        assertThat(report.checks().stream().filter(c -> !c.name().equals(check)))
                .allMatch(c -> c.state() == State.ok);
        assertThat(report.state()).isEqualTo(state == State.degraded ? State.degraded : State.ok);
    }
}
