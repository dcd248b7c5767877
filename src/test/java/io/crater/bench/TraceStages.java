package io.crater.bench;

import io.crater.job.JobNames;
import io.crater.sim.Simulator;
import io.crater.volcano.PodGroup;
import io.crater.volcano.VolcanoJob;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * When each job of a trace reached each step between its admission and its end, as the cluster's objects show it
 * ({@code -Dtrace.stages=true}): a watch of its own on the Volcano Jobs, PodGroups and pods, the moment each change
 * arrives. With the rows' admitted, started and finished times it tells where the quota a job holds is held. The
 * watches parse every change once more, so the run with them is a little slower than without.
 */
final class TraceStages implements AutoCloseable {

    /** The steps, in the order a job goes through them. */
    enum Step {
        JOB_CREATED("Volcano Job created"),
        GROUP_INQUEUE("PodGroup Inqueue"),
        POD_CREATED("pod created"),
        POD_BOUND("pod bound"),
        POD_RUNNING("pod Running"),
        POD_ENDED("pod ended"),
        JOB_ENDED("Volcano Job ended");

        final String label;

        Step(String label) {
            this.label = label;
        }
    }

    private final Map<String, Map<Step, Instant>> seen = new ConcurrentHashMap<>();
    private final Map<String, String> jobOfVolcanoName = new ConcurrentHashMap<>();
    private final List<Watch> watches = new ArrayList<>();
    private final KubernetesClient client;

    /** Watches a namespace of the cluster at {@code masterUrl} with a client of its own. */
    TraceStages(String masterUrl, String namespace) {
        client = Simulator.clientFor(masterUrl);
        watches.add(client.resources(VolcanoJob.class).inNamespace(namespace).watch(watcher(this::volcanoJob)));
        watches.add(client.resources(PodGroup.class).inNamespace(namespace).watch(watcher(this::group)));
        watches.add(client.pods().inNamespace(namespace).watch(watcher(this::pod)));
    }

    private <T extends HasMetadata> Watcher<T> watcher(Function<T, Void> onChange) {
        return new Watcher<>() {
            @Override
            public void eventReceived(Action action, T object) {
                if (action != Action.DELETED) {
                    onChange.apply(object);
                }
            }

            @Override
            public void onClose(WatcherException cause) {}
        };
    }

    /** The Crater job an object belongs to, by its label; null for another's. */
    private static String jobOf(HasMetadata o) {
        return o.getMetadata().getLabels() == null
                ? null
                : o.getMetadata().getLabels().get(JobNames.JOB_ID);
    }

    private Void volcanoJob(VolcanoJob job) {
        String id = jobOf(job);
        if (id == null) {
            return null;
        }
        jobOfVolcanoName.put(job.getMetadata().getName(), id);
        mark(id, Step.JOB_CREATED);
        String phase = job.getStatus() == null || job.getStatus().state == null ? null : job.getStatus().state.phase;
        if ("Completed".equals(phase) || "Failed".equals(phase)) {
            mark(id, Step.JOB_ENDED);
        }
        return null;
    }

    private Void group(PodGroup group) {
        String id = null;
        for (OwnerReference o : group.getMetadata().getOwnerReferences()) {
            id = id == null ? jobOfVolcanoName.get(o.getName()) : id;
        }
        if (id != null && group.getStatus() != null && PodGroup.INQUEUE.equals(group.getStatus().phase)) {
            mark(id, Step.GROUP_INQUEUE);
        }
        return null;
    }

    private Void pod(Pod pod) {
        String id = jobOf(pod);
        if (id == null) {
            return null;
        }
        mark(id, Step.POD_CREATED);
        if (pod.getSpec().getNodeName() != null && !pod.getSpec().getNodeName().isEmpty()) {
            mark(id, Step.POD_BOUND);
        }
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        if ("Running".equals(phase)) {
            mark(id, Step.POD_RUNNING);
        } else if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
            mark(id, Step.POD_RUNNING);
            mark(id, Step.POD_ENDED);
        }
        return null;
    }

    private void mark(String id, Step step) {
        seen.computeIfAbsent(id, k -> new EnumMap<>(Step.class)).putIfAbsent(step, Instant.now());
    }

    /** When a job reached each step, as first seen; empty for a job never seen. */
    Map<Step, Instant> of(String publicId) {
        Map<Step, Instant> steps = seen.get(publicId);
        return steps == null ? Map.of() : Map.copyOf(steps);
    }

    @Override
    public void close() {
        watches.forEach(Watch::close);
        client.close();
    }
}
