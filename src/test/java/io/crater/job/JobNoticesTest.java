package io.crater.job;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What a job's owner reads about its states. */
class JobNoticesTest {

    static JobNotices.Due due(String state, String reason, String message, Integer exit, String exitReason) {
        return new JobNotices.Due(1, state, "j7k3f9", "sweep", 2, 3, reason, message, exit, exitReason);
    }

    @Test
    void aFailureSaysTheExitCodeTheContainersReasonAndTheJobsReason() {
        assertThat(JobNotices.message(due("Failed", "PodFailed", "Task main failed", 137, "OOMKilled")))
                .isEqualTo(
                        "Your job sweep (j7k3f9) failed with exit code 137 (OOMKilled): PodFailed: Task main failed.");
        assertThat(JobNotices.message(due("Failed", "VolcanoJobDeleted", "", null, null)))
                .isEqualTo("Your job sweep (j7k3f9) failed: VolcanoJobDeleted.");
        assertThat(JobNotices.message(due("Failed", "", "", 1, "")))
                .isEqualTo("Your job sweep (j7k3f9) failed with exit code 1.");
    }

    @Test
    void theOtherStatesSayWhatHappened() {
        assertThat(JobNotices.message(due("Admitted", "Admitted", "borrowing nvidia-a100-80gb", null, null)))
                .isEqualTo("Your job sweep (j7k3f9) was admitted (borrowing nvidia-a100-80gb).");
        assertThat(JobNotices.message(due("Running", "", "", null, null)))
                .isEqualTo("Your job sweep (j7k3f9) started running.");
        assertThat(JobNotices.message(due("Succeeded", "", "", null, null)))
                .isEqualTo("Your job sweep (j7k3f9) succeeded.");
    }

    @Test
    void onlyTheStatesAnOwnerHearsOfOweANotice() {
        assertThat(JobNotices.KINDS).containsOnlyKeys("Admitted", "Running", "Succeeded", "Failed");
    }
}
