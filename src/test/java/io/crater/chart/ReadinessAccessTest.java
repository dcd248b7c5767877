package io.crater.chart;

import static org.assertj.core.api.Assertions.assertThat;

import io.crater.cluster.RequiredAccess;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The readiness report asks for exactly what the chart grants Crater's work (docs/readiness.md): a permission it asks
 * for that the chart lacks would be a shortfall of every installation, one the chart grants that it does not ask for
 * would go unchecked. Only the report's own reads are granted beyond it.
 */
class ReadinessAccessTest {

    static final Set<String> THE_REPORTS_OWN_READS = Set.of(
            "get core namespaces (cluster-wide)",
            "get storage.k8s.io storageclasses (cluster-wide)",
            "get core persistentvolumeclaims (job namespace)");

    @Test
    void theReportAsksForWhatTheChartGrants() {
        List<HasMetadata> objects =
                HelmChart.objects(HelmChart.template("crater", HelmChart.DIR.resolve("examples/minimal.yaml")));
        Set<String> granted = new TreeSet<>();
        ChartRbac.granted(objects).forEach(u -> granted.add(u.toString()));
        Set<String> asked = new TreeSet<>();
        for (RequiredAccess.Permission p : RequiredAccess.in("crater-jobs")) {
            asked.add(new ChartRbac.Use(
                            p.verb(), p.group().isEmpty() ? "core" : p.group(), p.resource(), p.namespace() == null)
                    .toString());
        }
        Set<String> expected = new TreeSet<>(granted);
        expected.removeAll(THE_REPORTS_OWN_READS);
        assertThat(granted).containsAll(THE_REPORTS_OWN_READS);
        assertThat(asked).containsExactlyElementsOf(expected);
    }
}
