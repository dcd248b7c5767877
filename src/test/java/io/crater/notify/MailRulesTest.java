package io.crater.notify;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MailRulesTest {

    static final List<String> KINDS = List.of("job.idle-warning", " job.time-limit ", "approval.*");

    @ParameterizedTest(name = "{0} mailed: {1}")
    @CsvSource({
        "job.idle-warning, true",
        "job.time-limit, true",
        "approval.approved, true",
        "approval.rejected, true",
        "job.idle-warning-x, false",
        "job.reclaimed, false",
        "approvals, false",
        "approval, false",
    })
    void kindsAreNamedOrMatchedByPrefix(String kind, boolean mailed) {
        assertThat(MailRules.mailed(KINDS, kind)).isEqualTo(mailed);
    }

    @ParameterizedTest(name = "after attempt {0}: {1} s")
    @CsvSource({"1, 30", "2, 60", "3, 120", "4, 240", "7, 1920", "8, 3600", "30, 3600"})
    void retriesWaitDoublingUpToTheMaximum(int attempts, long seconds) {
        assertThat(MailRules.retryAfter(attempts, Duration.ofSeconds(30), Duration.ofHours(1)))
                .isEqualTo(Duration.ofSeconds(seconds));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "job.idle-warning | Your job nb (j1) holds 1 × A100. More. | [Crater] your job is idle and will be stopped",
                "approval.approved | Your quota request #4 was approved. See it. | [Crater] Your quota request #4 was approved",
            })
    void subjectsNameWhatHappened(String kind, String message, String subject) {
        assertThat(MailRules.subject(kind, message)).isEqualTo(subject);
    }

    @org.junit.jupiter.api.Test
    void theBodyLinksToTheConsoleWhenItsAddressIsKnown() {
        assertThat(MailRules.body("Ann", "Your job was stopped.", "https://crater.example.org/", "/jobs/j1"))
                .startsWith("Hello Ann,\n\nYour job was stopped.\n\nhttps://crater.example.org/jobs/j1\n");
        assertThat(MailRules.body("Ann", "Your job was stopped.", null, "/jobs/j1"))
                .doesNotContain("/jobs/j1");
    }
}
