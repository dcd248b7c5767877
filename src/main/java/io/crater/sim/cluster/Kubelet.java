package io.crater.sim.cluster;

import io.crater.volcano.VolcanoJob;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The kubelet of every simulated node: a bound pod starts after a short delay with its node's lowest free
 * accelerators ({@link GpuCards}, given back when it ends), runs for the time its Volcano
 * Job's {@value #DURATION} annotation gives (until stopped when there is none), writes log lines while it runs
 * and ends Succeeded, or Failed with the exit code of {@value #EXIT_CODE} or when its
 * {@code activeDeadlineSeconds} passes.
 */
final class Kubelet {

    /** Annotation on a Volcano Job: how long its pods run, e.g. {@code 30s}, {@code 5m}, {@code 2h}. */
    static final String DURATION = "sim.crater.io/duration";
    /** Annotation on a Volcano Job: the exit code its containers end with (default 0). */
    static final String EXIT_CODE = "sim.crater.io/exit-code";
    /** Environment variable of a pod's container: how long it runs, same format as {@value #DURATION}. */
    static final String DURATION_ENV = "SIM_DURATION";
    /**
     * Environment variable of a pod's container: the exit code it ends with after its run time (137 ends as
     * {@code OOMKilled}).
     */
    static final String EXIT_CODE_ENV = "SIM_EXIT_CODE";

    private final KubernetesClient client;
    private final SimEvents events;
    private final SimState state;
    private final PodLogs logs;
    private final Clock clock;
    private final Duration startDelay;
    private final Duration logInterval;
    private final GpuCards cards;
    private final SimImageBuilds builds;
    private final Map<String, Instant> boundAt = new HashMap<>();
    private final Map<String, Instant> nextLine = new HashMap<>();
    private final Map<String, Integer> steps = new HashMap<>();
    /** The tick's pod status writes, sent together at its end. */
    private final SimWrites writes = new SimWrites();
    /** The hub clients of download pods: they end when their transfer does. */
    private java.util.function.Supplier<SimDownloads> downloads = () -> null;

    Kubelet(
            KubernetesClient client,
            SimEvents events,
            SimState state,
            PodLogs logs,
            Clock clock,
            Duration startDelay,
            Duration logInterval,
            GpuCards cards,
            SimImageBuilds builds) {
        this.client = client;
        this.events = events;
        this.state = state;
        this.logs = logs;
        this.clock = clock;
        this.startDelay = startDelay;
        this.logInterval = logInterval;
        this.cards = cards;
        this.builds = builds;
    }

    void playDownloads(java.util.function.Supplier<SimDownloads> downloads) {
        this.downloads = downloads;
    }

    /** The pods bound to a node that have not ended, as the informer holds them now. */
    List<Pod> onNodes() {
        List<Pod> out = new ArrayList<>();
        for (String key : List.copyOf(state.onNodes)) {
            Pod pod = state.pods.getStore().getByKey(key);
            if (pod == null
                    || pod.getSpec().getNodeName() == null
                    || pod.getMetadata().getDeletionTimestamp() != null
                    || SimState.terminal(pod)) {
                state.onNodes.remove(key);
            } else {
                out.add(pod);
            }
        }
        return out;
    }

    /** Forgets a deleted pod. */
    void forget(String key) {
        boundAt.remove(key);
        nextLine.remove(key);
        steps.remove(key);
        builds.forget(key);
    }

    /** Plays the pods on nodes: each starts, writes its next log line or ends when its time has come. */
    void run(List<Pod> onNodes) {
        Instant now = clock.instant();
        for (Pod pod : onNodes) {
            String key = SimState.key(pod);
            String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
            if (!"Running".equals(phase)) {
                Instant bound = boundAt.computeIfAbsent(key, k -> now);
                if (!now.isBefore(bound.plus(startDelay))) {
                    start(pod, now);
                }
                continue;
            }
            running(pod, key, now);
        }
        writes.flush();
    }

    /** A running pod's tick: it ends (fault, deadline, run time, its build) or writes its next log line. */
    private void running(Pod pod, String key, Instant now) {
        Instant started = Instant.parse(pod.getStatus().getStartTime());
        VolcanoJob job = ownerJob(pod);
        Duration runFor = job == null ? null : duration(job);
        if (runFor == null) {
            runFor = durationFromEnv(pod);
        }
        // An image build runs until its push has ended, and at least its run time.
        boolean build = SimImageBuilds.isBuild(pod);
        SimImageBuilds.Result built = build ? builds.result(key, pod) : null;
        if (build && runFor == null) {
            runFor = SimImageBuilds.DEFAULT_DURATION;
        }
        boolean download = SimDownloads.isDownload(pod) && downloads.get() != null;
        Ending ends =
                ending(started, build || download ? null : runFor, pod.getSpec().getActiveDeadlineSeconds(), now);
        String fault = faulted(key, pod.getSpec().getNodeName());
        if (fault != null) {
            finish(pod, now, 1, "Error", fault);
        } else if (ends != null && ends.deadline()) {
            finish(
                    pod,
                    ends.at(),
                    137,
                    "DeadlineExceeded",
                    "Pod was active on the node longer than the specified deadline");
        } else if (download) {
            download(pod, key, now);
        } else if (build && built != null && !now.isBefore(started.plus(runFor))) {
            finish(pod, now, built.exitCode(), built.exitCode() == 0 ? "Completed" : "Error", built.message());
        } else if (build) {
            return; // the build writes its own log lines
        } else if (ends != null) {
            int code = job == null ? 0 : exitCode(job, pod);
            finish(
                    pod,
                    ends.at(),
                    code,
                    code == 0 ? "Completed" : code == 137 ? "OOMKilled" : "Error",
                    code == 137 ? "the container exceeded its memory limit (simulated)" : null);
        } else if (!now.isBefore(nextLine.getOrDefault(key, Instant.MIN))) {
            int step = steps.merge(key, 1, Integer::sum);
            logs.append(
                    pod.getMetadata().getNamespace(),
                    pod.getMetadata().getName(),
                    now,
                    "step " + step + ": running on " + pod.getSpec().getNodeName() + " (simulated)");
            nextLine.put(key, now.plus(logInterval));
        }
    }

    /** When and how a container ends: on its own (its run time over) or killed at its deadline. */
    record Ending(Instant at, boolean deadline) {}

    /**
     * How a container started at {@code started} ends, as the kubelet sees it at {@code now}: at the end of its run
     * time ({@code runFor}, null when not known ahead) or at its {@code activeDeadlineSeconds}, whichever comes first
     * (the deadline on a tie); null while neither has come. However late the kubelet looks, a container whose run
     * time ended before its deadline exited on its own, then.
     */
    static Ending ending(Instant started, Duration runFor, Long deadlineSeconds, Instant now) {
        Instant own = runFor == null ? null : started.plus(runFor);
        Instant killed = deadlineSeconds == null ? null : started.plusSeconds(deadlineSeconds);
        if (killed != null && (own == null || !own.isBefore(killed))) {
            return now.isBefore(killed) ? null : new Ending(killed, true);
        }
        return own == null || now.isBefore(own) ? null : new Ending(own, false);
    }

    /** A download pod ends when its transfer does ({@link SimDownloads}). */
    private void download(Pod pod, String key, Instant now) {
        SimDownloads.Outcome o = downloads
                .get()
                .outcome(key, pod, state.nodes.getStore().getByKey(pod.getSpec().getNodeName()));
        if (o != null) {
            finish(pod, now, o.exitCode(), o.exitCode() == 0 ? "Completed" : "Error", o.message());
        }
    }

    /** What a card the pod holds reports, when one of them has an injected fault ({@link GpuFaults}); else null. */
    private String faulted(String podKey, String nodeName) {
        GpuCards.Held held = cards.heldBy(podKey);
        if (held == null) {
            return null;
        }
        Map<Integer, GpuFaults.Fault> faults =
                GpuFaults.of(state.nodes.getStore().getByKey(nodeName));
        for (int i : held.indexes()) {
            GpuFaults.Fault f = faults.get(i);
            if (f != null && f.any()) {
                return f.message(i);
            }
        }
        return null;
    }

    private void start(Pod pod, Instant now) {
        // The device plugin's part: the container starts with the node's lowest free cards.
        cards.allocate(pod, state.nodes.getStore().getByKey(pod.getSpec().getNodeName()));
        Pod copy = new PodBuilder(pod).build();
        String ts = ts(now);
        List<ContainerStatus> statuses = new ArrayList<>();
        pod.getSpec()
                .getContainers()
                .forEach(c -> statuses.add(new ContainerStatusBuilder()
                        .withName(c.getName())
                        .withImage(c.getImage())
                        .withImageID(c.getImage() + "@sha256:" + "0".repeat(64))
                        .withContainerID("containerd://"
                                + Integer.toHexString((pod.getMetadata().getUid() + c.getName()).hashCode()))
                        .withReady(true)
                        .withStarted(true)
                        .withRestartCount(0)
                        .withNewState()
                        .withNewRunning(ts)
                        .endState()
                        .build()));
        copy.getStatus().setPhase("Running");
        copy.getStatus().setStartTime(ts);
        copy.getStatus()
                .setHostIP("10.0.0." + (Math.abs(pod.getSpec().getNodeName().hashCode()) % 250 + 1));
        copy.getStatus()
                .setPodIP("10.244." + (Math.abs(pod.getMetadata().getName().hashCode()) % 250) + "."
                        + (Math.abs(pod.getMetadata().getUid().hashCode()) % 250 + 1));
        copy.getStatus().setContainerStatuses(statuses);
        copy.getStatus()
                .setConditions(List.of(
                        condition("PodScheduled", ts),
                        condition("Initialized", ts),
                        condition("ContainersReady", ts),
                        condition("Ready", ts)));
        writes.add(() -> write(copy), () -> {
            String ns = pod.getMetadata().getNamespace();
            String name = pod.getMetadata().getName();
            pod.getSpec()
                    .getContainers()
                    .forEach(c -> logs.append(
                            ns,
                            name,
                            now,
                            "container " + c.getName() + " started from image " + c.getImage() + " on node "
                                    + pod.getSpec().getNodeName()));
            pod.getSpec()
                    .getContainers()
                    .forEach(c ->
                            events.record(pod, "Normal", "Started", "Started container " + c.getName(), "kubelet"));
            nextLine.put(SimState.key(pod), now.plus(logInterval));
        });
    }

    private void finish(Pod pod, Instant now, int exitCode, String reason, String message) {
        Pod copy = new PodBuilder(pod).build();
        String ts = ts(now);
        copy.getStatus().setPhase(exitCode == 0 ? "Succeeded" : "Failed");
        if ("DeadlineExceeded".equals(reason)) {
            copy.getStatus().setReason(reason);
            copy.getStatus().setMessage(message);
        }
        List<ContainerStatus> statuses = new ArrayList<>();
        for (ContainerStatus cs : pod.getStatus().getContainerStatuses()) {
            statuses.add(new ContainerStatusBuilder(cs)
                    .withReady(false)
                    .withStarted(false)
                    .withNewState()
                    .withNewTerminated()
                    .withExitCode(exitCode)
                    .withReason(reason)
                    .withMessage(message)
                    .withStartedAt(pod.getStatus().getStartTime())
                    .withFinishedAt(ts)
                    .withContainerID(cs.getContainerID())
                    .endTerminated()
                    .endState()
                    .build());
        }
        copy.getStatus().setContainerStatuses(statuses);
        writes.add(() -> write(copy), () -> {
            state.ledger.release(SimState.key(pod));
            cards.release(SimState.key(pod));
            logs.append(
                    pod.getMetadata().getNamespace(),
                    pod.getMetadata().getName(),
                    now,
                    "process exited with code " + exitCode + (message == null ? "" : " (" + message + ")"));
            logs.end(pod.getMetadata().getNamespace(), pod.getMetadata().getName());
        });
    }

    private boolean write(Pod pod) {
        try {
            client.pods()
                    .inNamespace(pod.getMetadata().getNamespace())
                    .resource(pod)
                    .updateStatus();
            return true;
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404 || e.getCode() == 409) {
                return false;
            }
            throw e;
        }
    }

    private VolcanoJob ownerJob(Pod pod) {
        String job = pod.getMetadata().getLabels() == null
                ? null
                : pod.getMetadata().getLabels().get("volcano.sh/job-name");
        return job == null
                ? null
                : state.jobs.getStore().getByKey(pod.getMetadata().getNamespace() + "/" + job);
    }

    /** The run time a Job's annotation asks for; null when it runs until stopped or the value is unreadable. */
    static Duration duration(VolcanoJob job) {
        String v = job.getMetadata().getAnnotations() == null
                ? null
                : job.getMetadata().getAnnotations().get(DURATION);
        return v == null || v.isBlank() ? null : parse(v);
    }

    /** {@code 90}, {@code 30s}, {@code 5m}, {@code 2h}; null when unreadable. */
    static Duration parse(String v) {
        try {
            char unit = v.charAt(v.length() - 1);
            if (Character.isDigit(unit)) {
                return Duration.ofMillis(Math.round(Double.parseDouble(v) * 1000));
            }
            double n = Double.parseDouble(v.substring(0, v.length() - 1));
            return switch (unit) {
                case 's' -> Duration.ofMillis(Math.round(n * 1000));
                case 'm' -> Duration.ofMillis(Math.round(n * 60_000));
                case 'h' -> Duration.ofMillis(Math.round(n * 3_600_000));
                default -> null;
            };
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The run time a container's {@value #DURATION_ENV} variable asks for (how jobs submitted through Crater set it). */
    static Duration durationFromEnv(Pod pod) {
        return pod.getSpec().getContainers().stream()
                .flatMap(c -> c.getEnv() == null ? java.util.stream.Stream.empty() : c.getEnv().stream())
                .filter(e -> DURATION_ENV.equals(e.getName()) && e.getValue() != null)
                .map(e -> parse(e.getValue()))
                .filter(java.util.Objects::nonNull)
                .findFirst()
                .orElse(null);
    }

    private static int exitCode(VolcanoJob job, Pod pod) {
        String v = job.getMetadata().getAnnotations() == null
                ? null
                : job.getMetadata().getAnnotations().get(EXIT_CODE);
        if (v == null) {
            v = pod.getSpec().getContainers().stream()
                    .flatMap(c -> c.getEnv() == null ? java.util.stream.Stream.empty() : c.getEnv().stream())
                    .filter(e -> EXIT_CODE_ENV.equals(e.getName()) && e.getValue() != null)
                    .map(io.fabric8.kubernetes.api.model.EnvVar::getValue)
                    .findFirst()
                    .orElse(null);
        }
        try {
            return v == null ? 0 : Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static PodCondition condition(String type, String ts) {
        return new PodConditionBuilder()
                .withType(type)
                .withStatus("True")
                .withLastTransitionTime(ts)
                .build();
    }

    private static String ts(Instant t) {
        return DateTimeFormatter.ISO_INSTANT.format(t.truncatedTo(ChronoUnit.SECONDS));
    }
}
