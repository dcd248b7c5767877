package io.crater.approval;

import java.time.Instant;

/** Request and response records of the approvals API. */
public final class ApprovalViews {

    private ApprovalViews() {}

    /**
     * A request. {@code kind} is {@code quota-grant} (account, resource, amount, until), {@code job-lock} (jobId,
     * until) or {@code model-access} (account, model); {@code reason} always.
     */
    public record CreateApproval(
            String kind,
            String account,
            String resource,
            String amount,
            Instant until,
            String model,
            String jobId,
            String reason) {}

    /** A person as shown on an approval. */
    public record Person(String username, String displayName) {}

    /** An approval; {@code state} is pending, approved, rejected, cancelled or expired. */
    public record Approval(
            long id,
            String kind,
            String state,
            String account,
            Person requester,
            String resource,
            String amount,
            Instant until,
            String model,
            String jobId,
            String reason,
            Person reviewer,
            String comment,
            Instant createdAt,
            Instant decidedAt) {}

    /** A reviewer's decision. */
    public record Decision(String comment) {}
}
