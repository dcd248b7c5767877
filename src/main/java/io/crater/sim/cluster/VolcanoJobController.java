package io.crater.sim.cluster;

import io.crater.kube.KubeQuantities;
import io.crater.kube.PodRequests;
import io.crater.volcano.PodGroup;
import io.crater.volcano.VolcanoJob;
import io.crater.volcano.VolcanoJobStatus;
import io.crater.volcano.VolcanoTask;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Volcano's job controller as far as Crater needs it: a PodGroup per Job, the Job's pods once the PodGroup is
 * Inqueue (named {@code <job>-<task>-<index>}), and the Job's and PodGroup's status from its pods' phases.
 */
final class VolcanoJobController {

    private static final Set<String> FINISHED = Set.of("Completed", "Failed", "Terminated", "Aborted");

    static boolean finished(String phase) {
        return phase != null && FINISHED.contains(phase);
    }

    private static final String COMPONENT = "vc-controller-manager";

    private final KubernetesClient client;
    private final SimState state;
    private final SimEvents events;
    private final Clock clock;

    VolcanoJobController(KubernetesClient client, SimState state, SimEvents events, Clock clock) {
        this.client = client;
        this.state = state;
        this.events = events;
        this.clock = clock;
    }

    static String groupName(VolcanoJob job) {
        return job.getMetadata().getName() + "-" + job.getMetadata().getUid();
    }

    static String phase(VolcanoJob job) {
        return job.getStatus() == null || job.getStatus().state == null ? null : job.getStatus().state.phase;
    }

    /** Gives every new Job a Pending state and a PodGroup. */
    void reconcile() {
        for (VolcanoJob job : state.jobs.getStore().list()) {
            if (job.getMetadata().getDeletionTimestamp() != null || finished(phase(job))) {
                continue;
            }
            String key = job.getMetadata().getNamespace() + "/" + groupName(job);
            if (state.groups.getStore().getByKey(key) == null) {
                createGroup(job);
            }
        }
    }

    private void createGroup(VolcanoJob job) {
        PodGroup group = new PodGroup();
        group.getMetadata().setName(groupName(job));
        group.getMetadata().setNamespace(job.getMetadata().getNamespace());
        group.getMetadata().setOwnerReferences(List.of(ownerOf(job)));
        group.getMetadata().setAnnotations(Map.of("scheduling.k8s.io/group-name", groupName(job)));
        group.getSpec().minMember = minAvailable(job);
        group.getSpec().queue = queueOf(job);
        group.getSpec().priorityClassName = job.getSpec().priorityClassName;
        group.getSpec().minResources = KubeQuantities.strings(minResources(job));
        group.getStatus().phase = PodGroup.PENDING;
        try {
            client.resources(PodGroup.class)
                    .inNamespace(job.getMetadata().getNamespace())
                    .resource(group)
                    .create();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) {
                throw e;
            }
        }
    }

    /** Creates the pods of Jobs whose PodGroup was admitted to its Volcano Queue. */
    void createPods() {
        for (VolcanoJob job : state.jobs.getStore().list()) {
            if (job.getMetadata().getDeletionTimestamp() != null || finished(phase(job))) {
                continue;
            }
            PodGroup group = state.groups.getStore().getByKey(job.getMetadata().getNamespace() + "/" + groupName(job));
            if (group == null || !state.ledger.isEnqueued(SimState.key(group))) {
                continue;
            }
            if (!missingPods(job)) {
                continue; // building the desired pods clones each template: only when one is missing
            }
            for (Pod pod : desiredPods(job)) {
                if (state.pods.getStore().getByKey(SimState.key(pod)) == null) {
                    try {
                        client.pods()
                                .inNamespace(pod.getMetadata().getNamespace())
                                .resource(pod)
                                .create();
                    } catch (KubernetesClientException e) {
                        if (e.getCode() != 409) {
                            throw e;
                        }
                    }
                }
            }
        }
    }

    private boolean missingPods(VolcanoJob job) {
        String prefix =
                job.getMetadata().getNamespace() + "/" + job.getMetadata().getName() + "-";
        for (VolcanoTask task : job.getSpec().tasks) {
            int replicas = task.replicas == null ? 1 : task.replicas;
            for (int i = 0; i < replicas; i++) {
                if (state.pods.getStore().getByKey(prefix + task.name + "-" + i) == null) {
                    return true;
                }
            }
        }
        return false;
    }

    List<Pod> desiredPods(VolcanoJob job) {
        List<Pod> pods = new ArrayList<>();
        String jobName = job.getMetadata().getName();
        for (VolcanoTask task : job.getSpec().tasks) {
            int replicas = task.replicas == null ? 1 : task.replicas;
            for (int i = 0; i < replicas; i++) {
                String name = jobName + "-" + task.name + "-" + i;
                ObjectMeta templateMeta =
                        task.template.getMetadata() == null ? new ObjectMeta() : task.template.getMetadata();
                Map<String, String> labels =
                        new LinkedHashMap<>(Objects.requireNonNullElse(templateMeta.getLabels(), Map.of()));
                labels.put("volcano.sh/job-name", jobName);
                labels.put("volcano.sh/job-namespace", job.getMetadata().getNamespace());
                labels.put("volcano.sh/queue-name", queueOf(job));
                labels.put("volcano.sh/task-spec", task.name);
                Map<String, String> annotations =
                        new LinkedHashMap<>(Objects.requireNonNullElse(templateMeta.getAnnotations(), Map.of()));
                annotations.put("scheduling.k8s.io/group-name", groupName(job));
                annotations.put("volcano.sh/job-name", jobName);
                annotations.put("volcano.sh/task-spec", task.name);
                annotations.put("volcano.sh/task-index", Integer.toString(i));
                PodSpec spec = Serialization.clone(task.template.getSpec());
                if (spec.getSchedulerName() == null) {
                    spec.setSchedulerName("volcano");
                }
                spec.setHostname(name);
                spec.setSubdomain(jobName);
                pods.add(new PodBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace(job.getMetadata().getNamespace())
                        .withLabels(labels)
                        .withAnnotations(annotations)
                        .withOwnerReferences(ownerOf(job))
                        .endMetadata()
                        .withSpec(spec)
                        .withNewStatus()
                        .withPhase("Pending")
                        .endStatus()
                        .build());
            }
        }
        return pods;
    }

    /**
     * Brings every Job's and PodGroup's status in line with its pods. A finished Job's status no longer changes: it
     * only waits for its TTL (thousands of them do under a trace, so they cost a phase check per tick).
     */
    void updateStatus() {
        List<VolcanoJob> all = state.jobs.getStore().list();
        if (finishedAt.size() > 2 * all.size() + 1024) {
            // Jobs deleted before their TTL leave entries behind; drop those.
            Set<String> live = new java.util.HashSet<>();
            all.forEach(j -> live.add(j.getMetadata().getUid()));
            finishedAt.keySet().retainAll(live);
        }
        for (VolcanoJob job : all) {
            if (job.getMetadata().getDeletionTimestamp() != null) {
                continue;
            }
            if (finished(phase(job))) {
                PodGroup group =
                        state.groups.getStore().getByKey(job.getMetadata().getNamespace() + "/" + groupName(job));
                if (group != null && group.getStatus() != null && !PodGroup.COMPLETED.equals(group.getStatus().phase)) {
                    syncGroup(job, job.getStatus(), state.podsOf(job));
                }
                expire(job);
                continue;
            }
            List<Pod> pods = state.podsOf(job);
            VolcanoJobStatus next = statusOf(job, pods);
            if (changed(job.getStatus(), next)) {
                job.setStatus(next);
                try {
                    client.resources(VolcanoJob.class)
                            .inNamespace(job.getMetadata().getNamespace())
                            .resource(job)
                            .updateStatus();
                } catch (KubernetesClientException e) {
                    if (e.getCode() != 409 && e.getCode() != 404) {
                        throw e;
                    }
                }
                if (finished(next.state.phase)) {
                    events.record(
                            job,
                            "Normal",
                            next.state.phase,
                            "Job " + next.state.phase.toLowerCase() + ": " + next.state.message,
                            COMPONENT);
                }
            }
            syncGroup(job, next, pods);
            expire(job);
        }
    }

    private VolcanoJobStatus statusOf(VolcanoJob job, List<Pod> pods) {
        if (finished(phase(job))) {
            return job.getStatus();
        }
        int expected = job.getSpec().tasks.stream()
                .mapToInt(t -> t.replicas == null ? 1 : t.replicas)
                .sum();
        VolcanoJobStatus s = counted(job, pods);
        s.state = state(s, expected, pods.isEmpty());
        boolean samePhase = job.getStatus() != null
                && job.getStatus().state != null
                && s.state.phase.equals(job.getStatus().state.phase);
        s.state.lastTransitionTime = samePhase ? job.getStatus().state.lastTransitionTime : now();
        return s;
    }

    /** The job's status counts: its pods by phase, in all and per task. */
    private VolcanoJobStatus counted(VolcanoJob job, List<Pod> pods) {
        Map<String, Integer> counts = new HashMap<>();
        Map<String, VolcanoJobStatus.TaskState> perTask = new LinkedHashMap<>();
        for (Pod pod : pods) {
            String p = pod.getStatus() == null || pod.getStatus().getPhase() == null
                    ? "Pending"
                    : pod.getStatus().getPhase();
            counts.merge(p, 1, Integer::sum);
            String task = pod.getMetadata().getAnnotations().getOrDefault("volcano.sh/task-spec", "");
            perTask.computeIfAbsent(task, t -> {
                        VolcanoJobStatus.TaskState ts = new VolcanoJobStatus.TaskState();
                        ts.phase = new LinkedHashMap<>();
                        return ts;
                    })
                    .phase
                    .merge(p, 1, Integer::sum);
        }
        VolcanoJobStatus s = new VolcanoJobStatus();
        s.minAvailable = minAvailable(job);
        s.pending = counts.getOrDefault("Pending", 0);
        s.running = counts.getOrDefault("Running", 0);
        s.succeeded = counts.getOrDefault("Succeeded", 0);
        s.failed = counts.getOrDefault("Failed", 0);
        s.terminating = 0;
        s.unknown = 0;
        s.taskStatusCount = perTask.isEmpty() ? null : perTask;
        s.version = job.getStatus() == null || job.getStatus().version == null ? 1 : job.getStatus().version;
        s.retryCount = 0;
        return s;
    }

    /** The phase an unfinished job's counts put it in, with Volcano's reason and a message with the numbers. */
    private static VolcanoJobStatus.JobState state(VolcanoJobStatus s, int expected, boolean noPods) {
        VolcanoJobStatus.JobState state = new VolcanoJobStatus.JobState();
        if (s.failed > 0) {
            state.phase = "Failed";
            state.reason = "PodFailed";
            state.message = s.failed + " pod(s) failed";
        } else if (s.succeeded == expected && expected > 0) {
            state.phase = "Completed";
            state.reason = "TaskCompleted";
            state.message = "all " + expected + " pod(s) succeeded";
        } else if (s.running > 0 && s.running + s.succeeded >= s.minAvailable) {
            state.phase = "Running";
            state.reason = "PodRunning";
            state.message = s.running + " of " + expected + " pod(s) running";
        } else {
            state.phase = "Pending";
            state.reason = noPods ? "PodGroupPending" : "PodPending";
            state.message =
                    noPods ? "waiting for the PodGroup to be admitted to its queue" : s.pending + " pod(s) pending";
        }
        return state;
    }

    private static boolean changed(VolcanoJobStatus a, VolcanoJobStatus b) {
        return a == null || !Serialization.asJson(a).equals(Serialization.asJson(b));
    }

    private void syncGroup(VolcanoJob job, VolcanoJobStatus status, List<Pod> pods) {
        PodGroup group = state.groups.getStore().getByKey(job.getMetadata().getNamespace() + "/" + groupName(job));
        if (group == null) {
            return;
        }
        String phase = group.getStatus() == null ? PodGroup.PENDING : group.getStatus().phase;
        String next = phase;
        if (finished(status.state.phase)) {
            next = PodGroup.COMPLETED;
            state.ledger.dequeue(SimState.key(group));
        } else if (PodGroup.INQUEUE.equals(phase) && status.running >= group.getSpec().minMember) {
            next = PodGroup.RUNNING;
        }
        int running = status.running;
        int succeeded = status.succeeded;
        int failed = status.failed;
        PodGroup.Status s = group.getStatus();
        if (next.equals(phase)
                && s != null
                && Objects.equals(s.running, running)
                && Objects.equals(s.succeeded, succeeded)
                && Objects.equals(s.failed, failed)) {
            return;
        }
        PodGroup copy = Serialization.clone(group);
        copy.getStatus().phase = next;
        copy.getStatus().running = running;
        copy.getStatus().succeeded = succeeded;
        copy.getStatus().failed = failed;
        SimScheduler.update(client, copy);
    }

    private void expire(VolcanoJob job) {
        Integer ttl = job.getSpec().ttlSecondsAfterFinished;
        if (ttl == null || !finished(phase(job)) || job.getStatus().state.lastTransitionTime == null) {
            return;
        }
        String uid = job.getMetadata().getUid();
        Instant finished =
                finishedAt.computeIfAbsent(uid, u -> Instant.parse(job.getStatus().state.lastTransitionTime));
        if (!clock.instant().isBefore(finished.plusSeconds(ttl))) {
            client.resources(VolcanoJob.class)
                    .inNamespace(job.getMetadata().getNamespace())
                    .withName(job.getMetadata().getName())
                    .delete();
            finishedAt.remove(uid);
        }
    }

    /** When each finished Job finished, parsed once: the TTL check runs for every finished Job on every tick. */
    private final Map<String, Instant> finishedAt = new HashMap<>();

    static int minAvailable(VolcanoJob job) {
        if (job.getSpec().minAvailable != null) {
            return job.getSpec().minAvailable;
        }
        return job.getSpec().tasks.stream()
                .mapToInt(t -> t.replicas == null ? 1 : t.replicas)
                .sum();
    }

    static String queueOf(VolcanoJob job) {
        return job.getSpec().queue == null || job.getSpec().queue.isBlank() ? "default" : job.getSpec().queue;
    }

    /** The summed requests of the first minAvailable pods, in task order, as Volcano computes minResources. */
    private Map<String, Long> minResources(VolcanoJob job) {
        int remaining = minAvailable(job);
        Map<String, Long> sum = Map.of();
        for (VolcanoTask task : job.getSpec().tasks) {
            int replicas = task.replicas == null ? 1 : task.replicas;
            int take = Math.min(replicas, remaining);
            sum = KubeQuantities.plus(sum, KubeQuantities.times(PodRequests.of(task.template.getSpec()), take));
            remaining -= take;
        }
        return sum;
    }

    private String now() {
        return DateTimeFormatter.ISO_INSTANT.format(clock.instant().truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
    }

    static OwnerReference ownerOf(VolcanoJob job) {
        return new OwnerReferenceBuilder()
                .withApiVersion(job.getApiVersion())
                .withKind(job.getKind())
                .withName(job.getMetadata().getName())
                .withUid(job.getMetadata().getUid())
                .withController(true)
                .withBlockOwnerDeletion(true)
                .build();
    }
}
