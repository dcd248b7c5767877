package io.crater.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What a drain does to each pod on the node, one named case a row. */
class NodeDrainTest {

    static NodeDrain.Pod pod(String name, String phase, String job) {
        return new NodeDrain.Pod("crater-jobs", name, phase, job, false, false);
    }

    static NodeDrain.Pod daemon(String name) {
        return new NodeDrain.Pod("kube-system", name, "Running", null, true, false);
    }

    static NodeDrain.Pod mirror(String name) {
        return new NodeDrain.Pod("kube-system", name, "Running", null, false, true);
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("empty node", List.of(), List.of(), List.of(), List.of()),
                Arguments.of(
                        "a crater job's pods are evicted and the job stopped once",
                        List.of(pod("c-ab-1", "Running", "ab"), pod("c-ab-0", "Running", "ab")),
                        List.of("c-ab-0", "c-ab-1"),
                        List.of("ab"),
                        List.of()),
                Arguments.of(
                        "a pod of no crater job is evicted, no job stopped",
                        List.of(pod("web-1", "Running", null)),
                        List.of("web-1"),
                        List.of(),
                        List.of()),
                Arguments.of(
                        "pending pods are evicted too",
                        List.of(pod("c-cd-0", "Pending", "cd")),
                        List.of("c-cd-0"),
                        List.of("cd"),
                        List.of()),
                Arguments.of(
                        "finished pods are kept, their job not stopped",
                        List.of(pod("c-ef-0", "Succeeded", "ef"), pod("c-gh-0", "Failed", "gh")),
                        List.of(),
                        List.of(),
                        List.of("c-ef-0:Finished", "c-gh-0:Finished")),
                Arguments.of(
                        "daemon set and static pods stay",
                        List.of(daemon("exporter-x"), mirror("kube-proxy-n1"), pod("c-ij-0", "Running", "ij")),
                        List.of("c-ij-0"),
                        List.of("ij"),
                        List.of("exporter-x:DaemonSet", "kube-proxy-n1:StaticPod")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void plan(
            String name,
            List<NodeDrain.Pod> pods,
            List<String> wantEvicted,
            List<String> wantStopped,
            List<String> wantKept) {
        NodeDrain.Plan plan = NodeDrain.plan(pods);
        assertThat(plan.evict()).extracting(NodeDrain.Pod::name).containsExactlyElementsOf(wantEvicted);
        assertThat(plan.stopJobs()).containsExactlyElementsOf(wantStopped);
        assertThat(plan.kept()).extracting(k -> k.name() + ":" + k.why()).containsExactlyElementsOf(wantKept);
    }
}
