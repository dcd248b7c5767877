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
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
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

    /** A changed Job that is neither being deleted nor finished; null otherwise. */
    private VolcanoJob live(String key) {
        VolcanoJob job = state.jobs.getStore().getByKey(key);
        return job == null || job.getMetadata().getDeletionTimestamp() != null || finished(phase(job)) ? null : job;
    }

    private PodGroup groupOf(VolcanoJob job) {
        return state.groups.getStore().getByKey(job.getMetadata().getNamespace() + "/" + groupName(job));
    }

    /** Gives every changed Job without a PodGroup one, the groups created side by side. */
    void reconcile(Set<String> changed) {
        SimWrites writes = new SimWrites();
        for (String key : changed) {
            VolcanoJob job = live(key);
            if (job != null && groupOf(job) == null) {
                writes.add(() -> createGroup(job));
            }
        }
        writes.flush();
    }

    private void createGroup(VolcanoJob job) {
        PodGroup group = new PodGroup();
        group.getMetadata().setName(groupName(job));
        group.getMetadata().setNamespace(job.getMetadata().getNamespace());
        group.getMetadata().setOwnerReferences(List.of(ownerOf(job)));
        group.getMetadata().setAnnotations(Map.of(SimState.GROUP_ANNOTATION, groupName(job)));
        group.getSpec().minMember = minAvailable(job);
        group.getSpec().queue = queueOf(job);
        group.getSpec().priorityClassName = job.getSpec().priorityClassName;
        group.getSpec().minResources = KubeQuantities.strings(minResources(job));
        group.getStatus().phase = PodGroup.PENDING;
        create(() -> client.resources(PodGroup.class)
                .inNamespace(job.getMetadata().getNamespace())
                .resource(group)
                .create());
    }

    /** A create that may find its object there already (a tick that repeats one before its event arrived). */
    private static void create(Runnable create) {
        try {
            create.run();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) {
                throw e;
            }
        }
    }

    /** Creates the missing pods of changed Jobs whose PodGroup was admitted to its Volcano Queue. */
    void createPods(Set<String> changed) {
        SimWrites writes = new SimWrites();
        for (String key : changed) {
            VolcanoJob job = live(key);
            PodGroup group = job == null ? null : groupOf(job);
            if (group == null || !state.ledger.isEnqueued(SimState.key(group)) || !missingPods(job)) {
                continue; // building the desired pods clones each template: only when one is missing
            }
            for (Pod pod : desiredPods(job)) {
                if (state.pods.getStore().getByKey(SimState.key(pod)) == null) {
                    writes.add(() -> create(() -> client.pods()
                            .inNamespace(pod.getMetadata().getNamespace())
                            .resource(pod)
                            .create()));
                }
            }
        }
        writes.flush();
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
                annotations.put(SimState.GROUP_ANNOTATION, groupName(job));
                annotations.put("volcano.sh/job-name", jobName);
                annotations.put("volcano.sh/task-spec", task.name);
                annotations.put("volcano.sh/task-index", Integer.toString(i));
                // Copied by fabric8's builders rather than through JSON: deep enough for what is set below, and the
                // informer's object stays untouched.
                PodSpec spec = new PodSpecBuilder(task.template.getSpec()).build();
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
     * Brings each changed Job's and PodGroup's status in line with its pods, the writes side by side. A finished Job's
     * status no longer changes: it only waits for its TTL, on a timer ({@link #expireDue}).
     */
    void updateStatus(Set<String> changed) {
        SimWrites writes = new SimWrites();
        for (String key : changed) {
            VolcanoJob job = state.jobs.getStore().getByKey(key);
            if (job == null || job.getMetadata().getDeletionTimestamp() != null) {
                continue;
            }
            if (finished(phase(job))) {
                PodGroup group = groupOf(job);
                if (group != null && group.getStatus() != null && !PodGroup.COMPLETED.equals(group.getStatus().phase)) {
                    syncGroup(writes, job, job.getStatus(), state.podsOf(job));
                }
                expireLater(job);
                continue;
            }
            List<Pod> pods = state.podsOf(job);
            VolcanoJobStatus next = statusOf(job, pods);
            if (!same(job.getStatus(), next)) {
                VolcanoJob copy = new VolcanoJob();
                copy.setMetadata(job.getMetadata());
                copy.setSpec(job.getSpec());
                copy.setStatus(next);
                writes.add(
                        () -> {
                            try {
                                client.resources(VolcanoJob.class)
                                        .inNamespace(job.getMetadata().getNamespace())
                                        .resource(copy)
                                        .updateStatus();
                                return true;
                            } catch (KubernetesClientException e) {
                                if (e.getCode() != 409 && e.getCode() != 404) {
                                    throw e;
                                }
                                return false;
                            }
                        },
                        () -> {
                            if (finished(next.state.phase)) {
                                events.record(
                                        job,
                                        "Normal",
                                        next.state.phase,
                                        "Job " + next.state.phase.toLowerCase() + ": " + next.state.message,
                                        COMPONENT);
                            }
                        });
            }
            syncGroup(writes, job, next, pods);
        }
        writes.flush();
        expireDue();
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

    /** Whether two statuses say the same (field by field: serialising both to compare them cost a tick its time). */
    static boolean same(VolcanoJobStatus a, VolcanoJobStatus b) {
        if (a == null || b == null) {
            return a == b;
        }
        return sameState(a.state, b.state)
                && Objects.equals(a.minAvailable, b.minAvailable)
                && Objects.equals(a.pending, b.pending)
                && Objects.equals(a.running, b.running)
                && Objects.equals(a.succeeded, b.succeeded)
                && Objects.equals(a.failed, b.failed)
                && Objects.equals(a.terminating, b.terminating)
                && Objects.equals(a.unknown, b.unknown)
                && Objects.equals(a.version, b.version)
                && Objects.equals(a.retryCount, b.retryCount)
                && sameTasks(a.taskStatusCount, b.taskStatusCount);
    }

    private static boolean sameState(VolcanoJobStatus.JobState a, VolcanoJobStatus.JobState b) {
        if (a == null || b == null) {
            return a == b;
        }
        return Objects.equals(a.phase, b.phase)
                && Objects.equals(a.reason, b.reason)
                && Objects.equals(a.message, b.message)
                && Objects.equals(a.lastTransitionTime, b.lastTransitionTime);
    }

    private static boolean sameTasks(
            Map<String, VolcanoJobStatus.TaskState> a, Map<String, VolcanoJobStatus.TaskState> b) {
        if (a == null || b == null) {
            return a == b;
        }
        if (!a.keySet().equals(b.keySet())) {
            return false;
        }
        for (Map.Entry<String, VolcanoJobStatus.TaskState> e : a.entrySet()) {
            VolcanoJobStatus.TaskState other = b.get(e.getKey());
            if ((e.getValue() == null) != (other == null)
                    || (other != null && !Objects.equals(e.getValue().phase, other.phase))) {
                return false;
            }
        }
        return true;
    }

    private void syncGroup(SimWrites writes, VolcanoJob job, VolcanoJobStatus status, List<Pod> pods) {
        PodGroup group = groupOf(job);
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
        writes.add(() -> SimScheduler.update(client, copy));
    }

    /** A finished Job's deletion at the end of its TTL, on the controller's clock. */
    private record Expiry(Instant at, String key, String uid) {}

    private final java.util.PriorityQueue<Expiry> expiries =
            new java.util.PriorityQueue<>(java.util.Comparator.comparing(Expiry::at));
    /** The uids of finished Jobs with an expiry in the queue. */
    private final Set<String> expiring = new java.util.HashSet<>();

    private void expireLater(VolcanoJob job) {
        Integer ttl = job.getSpec().ttlSecondsAfterFinished;
        String uid = job.getMetadata().getUid();
        if (ttl == null || job.getStatus().state.lastTransitionTime == null || !expiring.add(uid)) {
            return;
        }
        Instant finished = Instant.parse(job.getStatus().state.lastTransitionTime);
        expiries.add(new Expiry(finished.plusSeconds(ttl), SimState.key(job), uid));
    }

    /** Deletes the finished Jobs whose TTL has passed (the same Job, by uid, still there). */
    private void expireDue() {
        Instant now = clock.instant();
        SimWrites writes = new SimWrites();
        while (!expiries.isEmpty() && !now.isBefore(expiries.peek().at())) {
            Expiry due = expiries.poll();
            expiring.remove(due.uid());
            VolcanoJob job = state.jobs.getStore().getByKey(due.key());
            if (job != null && due.uid().equals(job.getMetadata().getUid()) && finished(phase(job))) {
                writes.add(() -> client.resources(VolcanoJob.class)
                        .inNamespace(job.getMetadata().getNamespace())
                        .withName(job.getMetadata().getName())
                        .delete());
            }
        }
        writes.flush();
    }

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
