package io.crater.chart;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The comparison ChartRbacIT makes, on copies of the chart with a rule taken out or one too many: each is caught, with
 * the use it concerns.
 */
class ChartRbacTest {

    /** What Crater's client records in a run that exercises every path (the lines of target/kube-uses.txt). */
    static final List<String> EVERY_PATH = List.of(
            "get core pods namespace:crater-jobs",
            "get core pods/log namespace:crater-jobs",
            "get core pods/exec namespace:crater-jobs",
            "create core pods/exec namespace:crater-jobs",
            "get core pods/portforward namespace:crater-jobs",
            "create core pods/portforward namespace:crater-jobs",
            "get core secrets namespace:crater-jobs",
            "create core secrets namespace:crater-jobs",
            "create core services namespace:crater-jobs",
            "create core configmaps namespace:crater-jobs",
            "create networking.k8s.io networkpolicies namespace:crater-jobs",
            "list core events namespace:crater-jobs",
            "watch core events namespace:crater-jobs",
            "get coordination.k8s.io leases namespace:crater-jobs",
            "create coordination.k8s.io leases namespace:crater-jobs",
            "patch coordination.k8s.io leases namespace:crater-jobs",
            "list batch.volcano.sh jobs namespace:crater-jobs",
            "watch batch.volcano.sh jobs namespace:crater-jobs",
            "create batch.volcano.sh jobs namespace:crater-jobs",
            "delete batch.volcano.sh jobs namespace:crater-jobs",
            // Listing a job's pods in its namespace is covered by the cluster-wide grant.
            "list core pods namespace:crater-jobs",
            "list core pods all-namespaces",
            "watch core pods all-namespaces",
            "list core nodes cluster",
            "watch core nodes cluster",
            "get core nodes cluster",
            "patch core nodes cluster",
            "create core pods/eviction namespace:crater-jobs",
            "list core events all-namespaces",
            "get scheduling.volcano.sh queues cluster",
            "list scheduling.volcano.sh queues cluster",
            "watch scheduling.volcano.sh queues cluster",
            "create scheduling.volcano.sh queues cluster",
            "update scheduling.volcano.sh queues cluster",
            "delete scheduling.volcano.sh queues cluster",
            "list scheduling.volcano.sh podgroups all-namespaces",
            // The readiness report's reads; Volcano's scheduler ConfigMap is read but not granted (NOT_GRANTED).
            "get core persistentvolumeclaims namespace:crater-jobs",
            "get core namespaces cluster",
            "get storage.k8s.io storageclasses cluster",
            "get core configmaps namespace:volcano-system");

    Path copy;

    @BeforeEach
    void copyTheChart() throws IOException {
        copy = Files.createTempDirectory("crater-chart");
        try (Stream<Path> files = Files.walk(HelmChart.DIR)) {
            for (Path f : files.toList()) {
                Path to = copy.resolve(HelmChart.DIR.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(f, to);
                }
            }
        }
    }

    @AfterEach
    void removeTheCopy() throws IOException {
        try (Stream<Path> files = Files.walk(copy)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
    }

    Set<ChartRbac.Use> grantedBy(UnaryOperator<String> change) throws IOException {
        Path rbac = copy.resolve("templates/rbac.yaml");
        String before = Files.readString(rbac);
        String after = change.apply(before);
        assertThat(after).as("the change applies to rbac.yaml").isNotEqualTo(before);
        Files.writeString(rbac, after);
        return ChartRbac.granted(
                HelmChart.objects(HelmChart.template(copy, "crater", copy.resolve("examples/minimal.yaml"))));
    }

    @Test
    void theChartAsItIsGrantsEveryPathAndNothingElse() throws IOException {
        Set<ChartRbac.Use> granted = grantedBy(s -> s + "\n");
        Set<ChartRbac.Use> recorded = ChartRbac.recorded(EVERY_PATH);
        assertThat(ChartRbac.missing(recorded, granted)).isEmpty();
        assertThat(ChartRbac.unused(recorded, granted)).isEmpty();
    }

    @Test
    void aChartWithoutTheRuleForPortForwardsIsCaught() throws IOException {
        Set<ChartRbac.Use> granted = grantedBy(s -> s.replace("\"pods/exec\", \"pods/portforward\"", "\"pods/exec\""));
        assertThat(ChartRbac.missing(ChartRbac.recorded(EVERY_PATH), granted))
                .extracting(ChartRbac.Use::toString)
                .containsExactlyInAnyOrder(
                        "get core pods/portforward (job namespace)", "create core pods/portforward (job namespace)");
    }

    @Test
    void aChartGrantingWhatNothingUsesIsCaught() throws IOException {
        Set<ChartRbac.Use> granted = grantedBy(
                s -> s.replace("resources: [\"services\"]", "resources: [\"services\", \"serviceaccounts\"]"));
        Set<ChartRbac.Use> recorded = ChartRbac.recorded(EVERY_PATH);
        assertThat(ChartRbac.missing(recorded, granted)).isEmpty();
        assertThat(ChartRbac.unused(recorded, granted))
                .extracting(ChartRbac.Use::toString)
                .containsExactly("create core serviceaccounts (job namespace)");
    }

    @Test
    void aNamespacedGrantDoesNotCoverAUseAcrossNamespaces() throws IOException {
        // Nodes' capacity needs pods of every namespace: a Role in the job namespace is not enough.
        Set<ChartRbac.Use> granted = grantedBy(s ->
                s.replace("  - apiGroups: [\"\"]\n    resources: [\"pods\"]\n    verbs: [\"list\", \"watch\"]\n", ""));
        assertThat(ChartRbac.missing(ChartRbac.recorded(EVERY_PATH), granted))
                .extracting(ChartRbac.Use::toString)
                .containsExactlyInAnyOrder(
                        "list core pods (cluster-wide)",
                        "watch core pods (cluster-wide)",
                        "list core pods (job namespace)");
    }
}
