package io.crater.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.crater.policy.Reason;
import io.crater.policy.ReasonCode;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** History entries carry codes and arguments; waits name the jobs they wait for only to those who may see them. */
class JobHistoryTest {

    static final OffsetDateTime AT = OffsetDateTime.of(2026, 12, 1, 10, 0, 0, 0, ZoneOffset.UTC);

    static Object[] row(String from, String to, String reason, String message, String args) {
        return new Object[] {AT, from, to, reason, message, args};
    }

    @Test
    void storedArgumentsAreGivenAsWritten() {
        List<Object[]> rows = new java.util.ArrayList<>();
        rows.add(row("Pending", "Running", "PodRunning", "1 of 1 pod(s) running", "{\"running\":1,\"total\":1}"));
        List<JobViews.Transition> h = JobHistory.of(rows, false, List.of());
        assertThat(h).singleElement().satisfies(t -> {
            assertThat(t.reason()).isEqualTo("PodRunning");
            assertThat(t.message()).isEqualTo("1 of 1 pod(s) running");
            assertThat(t.args()).containsEntry("running", 1).containsEntry("total", 1);
            assertThat(t.at()).isEqualTo(Instant.parse("2026-12-01T10:00:00Z"));
        });
    }

    @Test
    void entriesWrittenWithoutArgumentsTakeWhatTheJobStillSays() {
        Reason quota = ReasonCode.AccountQuotaExceeded.reason(
                "the account would use 10 of nvidia-a100-80gb but its max is 8",
                Map.of("requested", 4000L, "used", 6000L, "effectiveMax", 8000L),
                Map.of("resource", "nvidia-a100-80gb"));
        List<JobViews.Transition> h = JobHistory.of(
                List.<Object[]>of(
                        row("", "Queued", "Submitted", "", null),
                        row("Queued", "Admitted", "Admitted", "borrowing nvidia-a100-80gb", null),
                        row("Queued", "Rejected", "AccountQuotaExceeded", quota.message(), null),
                        row("Running", "Failed", "VolcanoJobDeleted", "deleted", null)),
                true,
                List.of(quota));
        assertThat(h)
                .extracting(JobViews.Transition::reason)
                .containsExactly("Submitted", "Admitted", "AccountQuotaExceeded", "VolcanoJobDeleted");
        assertThat(h.get(0).args()).isNull();
        assertThat(h.get(0).from()).isNull();
        assertThat(h.get(1).args()).isEqualTo(Map.of("borrowing", 1L));
        assertThat(h.get(2).args())
                .containsEntry("resource", "nvidia-a100-80gb")
                .containsEntry("requested", 4000L)
                .containsEntry("effectiveMax", 8000L);
        assertThat(h.get(3).args()).isNull();
    }

    @Test
    void aWaitNamesOnlyTheJobsTheViewerMaySee() {
        Map<String, JobRow> known = Map.of(
                "ab12cd", row("ab12cd", 1, "resnet-sweep"),
                "zz99yy", row("zz99yy", 2, "their-secret-run"));
        List<String> ids = List.of("ab12cd", "zz99yy", "gone00");
        assertThat(WaitService.named(ids, known, java.util.Set.of(1L)))
                .containsExactly(
                        new JobViews.WaitsForJob("ab12cd", "resnet-sweep"),
                        new JobViews.WaitsForJob(null, null),
                        new JobViews.WaitsForJob(null, null));
        assertThat(WaitService.named(ids, known, null))
                .as("a platform admin sees every job")
                .containsExactly(
                        new JobViews.WaitsForJob("ab12cd", "resnet-sweep"),
                        new JobViews.WaitsForJob("zz99yy", "their-secret-run"),
                        new JobViews.WaitsForJob(null, null));
    }

    private static JobRow row(String id, long account, String name) {
        return new JobRow(1, id, account, 7, name, "custom", false, "Running", "{}", 1, false, null);
    }
}
