package io.crater.job;

import io.crater.policy.Reason;
import io.crater.policy.ReasonCode;
import java.time.Instant;
import java.util.Map;

/** The reasons a submission is refused before admission decides, with the names they are about. */
final class Refusals {

    private Refusals() {}

    static Reason expired(String account, Instant at) {
        return ReasonCode.AccountExpired.reason(
                "account '" + account + "' expired at " + at + "; no new jobs start in it",
                Map.of(),
                Map.of("account", account, "expiredAt", at.toString()));
    }

    static Reason notApproved(String model) {
        return ReasonCode.ModelNotApproved.reason(
                "'" + model + "' is restricted: ask for access in this account first (Approvals)",
                Map.of(),
                Map.of("model", model));
    }
}
