package io.crater.job;

import io.crater.policy.Reason;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** Request and response records of the jobs API. */
public final class JobViews {

    private JobViews() {}

    /** Resources of each pod: quantities as strings; the accelerator by catalogue model and count. */
    public record PodResources(
            String cpu, String memory, String acceleratorModel, Integer accelerators, String sharedMemory) {}

    /**
     * A job to submit. {@code workers}: extra pods beside the master ({@code pytorch} only). {@code timeLimit}:
     * e.g. {@code 2h}, {@code 3d}; the kind's default when absent.
     * {@code backfill}: run on idle capacity outside the account's quota, in the {@code crater-backfill} Volcano
     * Queue, first to be stopped when a job within its quota needs the room (custom and pytorch jobs only).
     * {@code mounts}: datasets and models mounted read-only ({@code {"dataset": "imagenet", "path": "/data"}}).
     */
    public record SubmitJob(
            String name,
            String kind,
            String image,
            List<String> command,
            List<String> args,
            String workingDir,
            Map<String, EnvValue> env,
            PodResources resources,
            Integer workers,
            String timeLimit,
            String priority,
            TemplateRef template,
            String sourceJob,
            Boolean backfill,
            List<JobMount> mounts,
            NodeTargets nodes) {

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
                    newSourceJob,
                    backfill,
                    mounts,
                    nodes);
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
                    sourceJob,
                    backfill,
                    mounts,
                    nodes);
        }

        /** The same job mounting these entries. */
        public SubmitJob withMounts(List<JobMount> newMounts) {
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
                    template,
                    sourceJob,
                    backfill,
                    newMounts,
                    nodes);
        }
    }

    /**
     * The nodes a job asks to use ({@code use}: only these) or to avoid ({@code avoid}: any but these), by name; one
     * of the two, never both (docs/jobs.md, target nodes).
     */
    public record NodeTargets(List<String> use, List<String> avoid) {}

    /**
     * A dataset or a model (one of them: a name, {@code owner/name} or its id) mounted read-only at {@code path}.
     * The stored spec names the entry by its id.
     */
    public record JobMount(String dataset, String model, String path) {}

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

    /**
     * One change of state: {@code reason} is its code (a {@link HistoryCode} or a reason code), {@code message} the
     * English sentence, {@code args} the numbers and names the code is rendered with (null when unknown).
     */
    public record Transition(
            Instant at, String from, String to, String reason, String message, Map<String, Object> args) {}

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
            Permissions permissions,
            List<io.crater.assets.AssetMounts.Mount> mounts) {}

    /**
     * A job ahead in the waiting line. Id, name and owner only when the viewer may see that account's jobs;
     * {@code sameAccount} says whether it waits in the viewer's job's account.
     */
    public record AheadJob(
            String id, String name, String owner, boolean sameAccount, String priority, Map<String, String> requests) {}

    /** Where a waiting job stands: 1-based places in its account's line and the cluster's, and the jobs ahead. */
    public record Position(
            int inAccount, int accountWaiting, int inCluster, int clusterWaiting, List<AheadJob> ahead) {}

    /**
     * When it should start: {@code startBy} (an upper bound under today's queue, with every running job taken to
     * run to its time limit) and the jobs whose end it waits for ({@code waitsFor} their ids; {@code jobs} the same
     * jobs with their names, id and name null for a job the viewer may not see); or {@code unknown} with the reason.
     */
    public record WaitEstimate(Instant startBy, List<String> waitsFor, Reason unknown, List<WaitsForJob> jobs) {
        public WaitEstimate {
            jobs = jobs == null ? List.of() : List.copyOf(jobs);
        }

        /** An estimate whose jobs are not named. */
        public WaitEstimate(Instant startBy, List<String> waitsFor, Reason unknown) {
            this(startBy, waitsFor, unknown, List.of());
        }
    }

    /** A job whose end a waiting job waits for: id and name, both null when the viewer may not see it. */
    public record WaitsForJob(String id, String name) {}

    /**
     * What would make it start: a stable code, a sentence, the change to make to the job ({@code resources.*}
     * fields), and the numbers.
     */
    public record Suggestion(String code, String message, Map<String, Object> change, Map<String, Long> numbers) {}

    /** Why a job waits, where it stands, when it should start, and what would make it start now. */
    public record Wait(
            String state,
            List<Reason> reasons,
            Position position,
            WaitEstimate estimate,
            List<Suggestion> suggestions) {}

    /**
     * Resubmit a job, optionally changed: {@code changes} maps fields ({@code resources.accelerators},
     * {@code resources.acceleratorModel}, {@code resources.cpu}, {@code resources.memory}, {@code timeLimit},
     * {@code priority}) to new values; {@code replace} also stops the original while it still waits.
     */
    public record Resubmit(Map<String, Object> changes, Boolean replace) {}

    /** The objects a job became, as YAML (Secret values withheld). */
    public record Manifests(String yaml) {}

    /** The answer to a dry run: what admission would decide now and the objects the job would become. */
    @Schema(name = "DryRunResult")
    public record DryRun(String decision, List<Reason> reasons, List<String> borrowing, String manifests) {}
}
