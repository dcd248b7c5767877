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
            String priority,
            TemplateRef template,
            String sourceJob) {

        /** The same job linked to another source job and template reference. */
        public SubmitJob withLinks(TemplateRef newTemplate, String newSourceJob) {
            return new SubmitJob(
                    name,
                    kind,
                    image,
                    command,
                    args,
                    workingDir,
                    env,
                    resources,
                    workers,
                    timeLimit,
                    priority,
                    newTemplate,
                    newSourceJob);
        }

        /** The same job with an explicit time limit. */
        public SubmitJob withTimeLimit(String limit) {
            return new SubmitJob(
                    name,
                    kind,
                    image,
                    command,
                    args,
                    workingDir,
                    env,
                    resources,
                    workers,
                    limit,
                    priority,
                    template,
                    sourceJob);
        }
    }

    /**
     * Render the job from a template: its id, a version (the latest when absent) and parameter values (strings,
     * numbers or booleans).
     */
    public record TemplateRef(String id, Integer version, Map<String, Object> parameters) {}

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

    /** The template version a job was rendered from. */
    public record TemplateLink(String id, int version, String name) {}

    /** A container of a pod now. */
    public record Container(String name, String state, String reason, Integer exitCode, String message, int restarts) {}

    /** A pod of the job as the cluster shows it now, with its node and accelerators. */
    public record JobPod(
            String name,
            String task,
            int index,
            String phase,
            String node,
            String acceleratorModel,
            int accelerators,
            Instant startedAt,
            List<Container> containers) {}

    /** A Kubernetes event about one of the job's objects. */
    public record JobEvent(Instant at, String type, String reason, String object, String message, int count) {}

    /** How a container ended, archived at the job's end. */
    public record ContainerExit(String pod, String container, Integer exitCode, String reason, String message) {}

    /** What the caller may do with the job. */
    public record Permissions(boolean stop, boolean delete, boolean readLogs, boolean resubmit) {}

    /** A job with its spec, history, pods, events, how its containers ended, and what the caller may do. */
    public record JobDetail(
            JobSummary job,
            Object spec,
            String stateReason,
            String stateMessage,
            List<Transition> history,
            TemplateLink template,
            String sourceJob,
            List<JobPod> pods,
            List<JobEvent> events,
            List<ContainerExit> exits,
            Permissions permissions) {}

    /** The objects a job became, as YAML (Secret values withheld). */
    public record Manifests(String yaml) {}

    /** The answer to a dry run: what admission would decide now and the objects the job would become. */
    public record DryRun(String decision, List<Reason> reasons, List<String> borrowing, String manifests) {}
}
