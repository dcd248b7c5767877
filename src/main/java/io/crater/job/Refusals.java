package io.crater.job;

import io.crater.platform.ApiException;
import io.crater.policy.Admission;
import io.crater.policy.Reason;
import io.crater.policy.ReasonCode;
import java.time.Instant;
import java.util.List;
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

    /** A kind that only another feature makes (a TensorBoard panel's server), submitted directly: 400. */
    static void requireOwnSubmission(JobKind kind, boolean madeByFeature) {
        if (kind == JobKind.TENSORBOARD && !madeByFeature) {
            throw ApiException.badRequest(
                    "InvalidJob",
                    "TensorBoard jobs are started by their panels",
                    List.of(new io.crater.platform.Problem.FieldError(
                            "kind", "tensorboard jobs are made through /api/v1/tensorboards")));
        }
    }

    /** A submission to an archived account: 409 {@code AccountArchived} (null {@code archivedAt}: active). */
    static void requireActive(String account, Instant archivedAt) {
        if (archivedAt != null) {
            throw new ApiException(
                    409,
                    "AccountArchived",
                    "Conflict",
                    "account '" + account + "' was archived at " + archivedAt + "; no job starts in it",
                    null,
                    null,
                    null);
        }
    }

    /** A refusal before admission: the decision that carries it. */
    static Admission.Decision reject(Reason reason) {
        return new Admission.Decision(Admission.Kind.REJECT, List.of(reason), List.of(), Map.of());
    }

    static Reason retired(String model, Instant at) {
        return ReasonCode.ModelRetired.reason(
                "'" + model + "' was retired at " + at + ": it takes no new jobs; choose another model",
                Map.of(),
                Map.of("model", model, "retiredAt", at.toString()));
    }

    static Reason notApproved(String model) {
        return ReasonCode.ModelNotApproved.reason(
                "'" + model + "' is restricted: ask for access in this account first (Approvals)",
                Map.of(),
                Map.of("model", model));
    }
}
