package io.crater.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.crater.volcano.VolcanoJob;
import io.crater.volcano.VolcanoJobStatus;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Where a Volcano Job's state takes the stored job: the pure decision each batch of the reconciler makes per job. */
class ReconcilerMoveTest {

    static JobReconciler.Stored stored(String state, boolean stopRequested, String reason) {
        return new JobReconciler.Stored(7, state, stopRequested, reason, "said before", "{\"node\": \"a100-4\"}");
    }

    static VolcanoJob volcano(String phase, String reason, int running) {
        VolcanoJob job = new VolcanoJob();
        VolcanoJobStatus status = new VolcanoJobStatus();
        status.state = new VolcanoJobStatus.JobState();
        status.state.phase = phase;
        status.state.reason = reason;
        status.state.message = reason == null ? null : reason + " message";
        status.running = running;
        status.minAvailable = 1;
        job.setStatus(status);
        return job;
    }

    @Test
    void volcanoPhasesMoveTheJobWithVolcanosReasonAndCounts() {
        JobReconciler.Move m =
                JobReconciler.move(stored("Pending", false, "PodPending"), volcano("Running", "PodRunning", 1), false);
        assertThat(m.from()).isEqualTo("Pending");
        assertThat(m.to()).isEqualTo("Running");
        assertThat(m.reason()).isEqualTo("PodRunning");
        assertThat(m.message()).isEqualTo("PodRunning message");
        assertThat(m.args())
                .containsEntry("running", 1L)
                .containsEntry("minAvailable", 1L)
                .containsEntry("total", 1L);
        assertThat(JobReconciler.move(stored("Running", false, "PodRunning"), volcano("Completing", null, 1), false))
                .as("Completing is still Running: no move")
                .isNull();
        assertThat(JobReconciler.move(
                                stored("Running", false, "PodRunning"), volcano("Completed", "TaskCompleted", 0), false)
                        .to())
                .isEqualTo("Succeeded");
    }

    @Test
    void aStopRequestedTurnsFailuresIntoStopsAndKeepsCratersOwnReason() {
        assertThat(JobReconciler.move(
                                stored("Running", true, "StopRequested"), volcano("Running", "PodRunning", 1), false)
                        .to())
                .isEqualTo("Stopping");
        JobReconciler.Move aborted =
                JobReconciler.move(stored("Stopping", true, "Reclaimed"), volcano("Aborted", "PodFailed", 0), false);
        assertThat(aborted.to()).isEqualTo("Stopped");
        assertThat(aborted.reason()).isEqualTo("Reclaimed");
        assertThat(aborted.message()).isEqualTo("said before");
        assertThat(aborted.args()).isEqualTo(Map.of("node", "a100-4"));
    }

    @Test
    void aDeletedVolcanoJobEndsTheJobStoppedOrFailed() {
        JobReconciler.Move stopped =
                JobReconciler.move(stored("Stopping", true, "StopRequested"), volcano("Running", null, 1), true);
        assertThat(stopped.to()).isEqualTo("Stopped");
        assertThat(stopped.reason()).isEqualTo("Stopped");
        JobReconciler.Move deleted =
                JobReconciler.move(stored("Running", false, "PodRunning"), volcano("Running", null, 1), true);
        assertThat(deleted.to()).isEqualTo("Failed");
        assertThat(deleted.reason()).isEqualTo("VolcanoJobDeleted");
        assertThat(deleted.args()).isNull();
    }
}
