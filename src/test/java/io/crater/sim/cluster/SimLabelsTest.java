package io.crater.sim.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.crater.job.JobKind;
import io.crater.job.JobNames;
import java.util.Arrays;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The simulator names Crater's labels itself; they must stay the strings Crater writes. */
class SimLabelsTest {

    @Test
    void theKindLabelIsTheOneCraterWrites() {
        assertThat(SimLabels.KIND).isEqualTo(JobNames.KIND);
    }

    @Test
    void theInteractiveKindsAreCratersInteractiveKinds() {
        assertThat(SimLabels.INTERACTIVE_KINDS)
                .isEqualTo(Arrays.stream(JobKind.values())
                        .filter(JobKind::interactive)
                        .map(JobKind::id)
                        .collect(Collectors.toSet()));
    }

    @Test
    void theAppKindsAreTheInteractiveKinds() {
        assertThat(Arrays.stream(SimApp.Kind.values()).map(k -> k.label).collect(Collectors.toSet()))
                .isEqualTo(SimLabels.INTERACTIVE_KINDS);
    }
}
