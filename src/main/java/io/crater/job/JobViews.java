package io.crater.job;

import io.crater.policy.Reason;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Request and response records of the jobs API. */
public final class JobViews {

    private JobViews() {}

    /** Resources of each pod: quantities as strings; the accelerator by catalogue model and count. */
    public record PodResources(
            String cpu, String memory, String acceleratorModel, Integer accelerators, String sharedMemory) {}

    /**
     * A job to submit. {@code workers}: extra pods beside the master ({@code pytorch} only). {@code timeLimit}:
     * e.g. {@code 2h}, {@code 3d}; the kind's default when absent.
     */
    public record SubmitJob(
            String name,
            String kind,
            String image,
            List<String> command,
            List<String> args,
            String workingDir,
            Map<String, String> env,
            PodResources resources,
            Integer workers,
            String timeLimit,
            String priority) {}

    /** A job as listed. */
    public record JobSummary(
            String id,
            String name,
            String kind,
            String state,
            String account,
            String owner,
            Map<String, String> requests,
            boolean borrowing,
            List<Reason> reasons,
            Instant createdAt,
            Instant startedAt,
            Instant finishedAt) {}

    /** One change of state. */
    public record Transition(Instant at, String from, String to, String reason, String message) {}

    /** A job with its spec and history. */
    public record JobDetail(
            JobSummary job, Object spec, String stateReason, String stateMessage, List<Transition> history) {}

    /** The answer to a dry run: what admission would decide now and the objects the job would become. */
    public record DryRun(String decision, List<Reason> reasons, List<String> borrowing, String manifests) {}
}
