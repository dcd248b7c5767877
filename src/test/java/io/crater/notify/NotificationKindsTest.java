package io.crater.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.crater.platform.ApiException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which preference covers which notification, the defaults of a user who chose nothing, and what a PUT may say. */
class NotificationKindsTest {

    static final List<String> MAILED = List.of("job.failed", "job.idle-warning", "job.reclaimed", "approval.*");

    @ParameterizedTest(name = "{0} is chosen as {1}")
    @CsvSource({
        "job.failed, job.failed",
        "job.idle-reclaimed, job.reclaimed",
        "job.reclaimed, job.reclaimed",
        "approval.approved, approval.decided",
        "approval.rejected, approval.decided",
        "allotment.threshold, budget.threshold",
        "job.waiting, job.waiting"
    })
    void everyNotificationKindHasItsPreference(String kind, String preference) {
        assertThat(NotificationKinds.preferenceOf(kind)).isEqualTo(preference);
    }

    @Test
    void everyNotificationKindIsCoveredByOnePreferenceAndATestByNone() {
        for (String kind : NotificationService.KINDS) {
            assertThat(NotificationKinds.preferenceOf(kind)).as(kind).isNotNull();
        }
        assertThat(NotificationKinds.preferenceOf(NotificationKinds.TEST)).isNull();
    }

    @ParameterizedTest(name = "{0} on {1}: {2}")
    @CsvSource({
        "job.failed, email, true",
        "job.started, email, false",
        "job.reclaimed, email, true",
        "approval.decided, email, true",
        "approval.requested, email, true",
        "budget.threshold, email, false",
        "job.started, in-app, true",
        "budget.threshold, webhook, true"
    })
    void defaultsFollowTheOperatorsMailedKinds(String kind, String channel, boolean on) {
        assertThat(NotificationKinds.byDefault(kind, channel, MAILED)).isEqualTo(on);
    }

    @Test
    void aWrongKindChannelOrThresholdIsOneBadRequestWithEveryField() {
        List<NotificationPreferences.Change> changes = List.of(
                new NotificationPreferences.Change("job.failed", "email", true),
                new NotificationPreferences.Change("job.nope", "sms", null));
        assertThatThrownBy(() -> NotificationPreferences.check(changes, 0))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.errors())
                            .extracting(f -> f.field())
                            .containsExactly(
                                    "preferences[1].kind",
                                    "preferences[1].channel",
                                    "preferences[1].enabled",
                                    "waitingThresholdMinutes");
                });
        NotificationPreferences.check(changes.subList(0, 1), 10080);
        assertThatThrownBy(() -> NotificationPreferences.check(List.of(), 10081))
                .isInstanceOf(ApiException.class);
    }
}
