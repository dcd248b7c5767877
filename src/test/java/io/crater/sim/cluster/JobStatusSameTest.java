package io.crater.sim.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.crater.volcano.VolcanoJobStatus;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The job controller writes a Volcano Job's status only when a field of it changed. */
class JobStatusSameTest {

    static VolcanoJobStatus status() {
        VolcanoJobStatus s = new VolcanoJobStatus();
        s.state = new VolcanoJobStatus.JobState();
        s.state.phase = "Running";
        s.state.reason = "PodRunning";
        s.state.message = "1 of 1 pod(s) running";
        s.state.lastTransitionTime = "2026-12-07T10:00:00Z";
        s.minAvailable = 1;
        s.pending = 0;
        s.running = 1;
        s.succeeded = 0;
        s.failed = 0;
        s.terminating = 0;
        s.unknown = 0;
        s.version = 1;
        s.retryCount = 0;
        VolcanoJobStatus.TaskState task = new VolcanoJobStatus.TaskState();
        task.phase = new LinkedHashMap<>(Map.of("Running", 1));
        s.taskStatusCount = new LinkedHashMap<>(Map.of("worker", task));
        return s;
    }

    @Test
    void equalStatusesAreTheSame() {
        assertThat(VolcanoJobController.same(status(), status())).isTrue();
        assertThat(VolcanoJobController.same(null, null)).isTrue();
        assertThat(VolcanoJobController.same(null, status())).isFalse();
    }

    static Stream<Arguments> changes() {
        return Stream.of(
                change("phase", s -> s.state.phase = "Completed"),
                change("reason", s -> s.state.reason = "TaskCompleted"),
                change("message", s -> s.state.message = "all 1 pod(s) succeeded"),
                change("transition time", s -> s.state.lastTransitionTime = "2026-12-07T10:00:01Z"),
                change("no state", s -> s.state = null),
                change("minAvailable", s -> s.minAvailable = 2),
                change("pending", s -> s.pending = 1),
                change("running", s -> s.running = 0),
                change("succeeded", s -> s.succeeded = 1),
                change("failed", s -> s.failed = 1),
                change("terminating", s -> s.terminating = 1),
                change("unknown", s -> s.unknown = 1),
                change("version", s -> s.version = 2),
                change("retryCount", s -> s.retryCount = 1),
                change("task counts", s -> s.taskStatusCount.get("worker").phase = Map.of("Succeeded", 1)),
                change("another task", s -> s.taskStatusCount.put("ps", new VolcanoJobStatus.TaskState())),
                change("no tasks", s -> s.taskStatusCount = null));
    }

    static Arguments change(String what, Consumer<VolcanoJobStatus> change) {
        return Arguments.of(what, change);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("changes")
    void anyChangedFieldIsAChange(String what, Consumer<VolcanoJobStatus> change) {
        VolcanoJobStatus changed = status();
        change.accept(changed);
        assertThat(VolcanoJobController.same(status(), changed)).as(what).isFalse();
        assertThat(VolcanoJobController.same(changed, status())).as(what).isFalse();
    }
}
