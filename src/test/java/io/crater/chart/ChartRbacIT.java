package io.crater.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Least privilege from use: after the unit and {@code @QuarkusTest} tests have run (surefire, one JVM), the in-process
 * API server has recorded every (verb, group, resource[/subresource], scope) Crater's own client asked for
 * ({@code target/kube-uses.txt}, written by {@code io.crater.sim.apiserver.ClientUses}). The chart's rendered Role
 * (job namespace) and ClusterRole must grant each of them and, after a whole run, nothing that none of them needs but
 * for {@link ChartRbac#EXCEPTIONS}, each with its reason (docs/deploy.md, RBAC). {@code ChartRbacTest} shows the
 * comparison failing on a chart that lacks a rule or has one too many.
 */
class ChartRbacIT {

    @Test
    void theChartGrantsExactlyWhatCratersClientUses() throws Exception {
        Path file = Path.of(System.getProperty("crater.kube.record-uses", "target/kube-uses.txt"));
        boolean someTestsOnly = System.getProperty("test") != null;
        if (someTestsOnly) {
            // -Dtest=…: only some unit tests ran, perhaps none that reach the cluster.
            assumeTrue(Files.exists(file), "no uses recorded by the unit tests that ran");
        }
        assertThat(file)
                .as("the uses recorded by the unit tests; run them first (mvn verify)")
                .exists();
        List<HasMetadata> objects =
                HelmChart.objects(HelmChart.template("crater", HelmChart.DIR.resolve("examples/minimal.yaml")));
        Set<ChartRbac.Use> recorded = ChartRbac.recorded(Files.readAllLines(file));
        Set<ChartRbac.Use> granted = ChartRbac.granted(objects);
        assertThat(ChartRbac.missing(recorded, granted))
                .as("used by Crater but not granted by the chart")
                .isEmpty();
        if (someTestsOnly) {
            // What the tests that did not run would have used cannot be called unused.
            return;
        }
        assertThat(ChartRbac.unused(recorded, granted))
                .as("granted by the chart but used by nothing Crater does in the tests (or add an exception with its"
                        + " reason to ChartRbac.EXCEPTIONS)")
                .isEmpty();
    }
}
