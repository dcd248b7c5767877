package io.crater.job;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** A job's pods as the detail shows them: task and index, phase, node, accelerators, containers. */
final class JobPods {

    private static final Set<String> NOT_ACCELERATORS = Set.of("cpu", "memory", "ephemeral-storage", "hugepages");

    private JobPods() {}

    /** Views of the pods, ordered by name; {@code model} is the job's accelerator model (null for none). */
    static List<JobViews.JobPod> of(List<Pod> pods, String model) {
        return pods.stream()
                .sorted(Comparator.comparing(p -> p.getMetadata().getName()))
                .map(p -> view(p, model))
                .toList();
    }

    private static JobViews.JobPod view(Pod pod, String model) {
        String name = pod.getMetadata().getName();
        String id = pod.getMetadata().getLabels() == null
                ? ""
                : pod.getMetadata().getLabels().getOrDefault(JobNames.JOB_ID, "");
        String rest = name.startsWith(JobNames.volcanoName(id) + "-")
                ? name.substring(JobNames.volcanoName(id).length() + 1)
                : name;
        int dash = rest.lastIndexOf('-');
        String task = dash < 0 ? rest : rest.substring(0, dash);
        int index = 0;
        try {
            index = dash < 0 ? 0 : Integer.parseInt(rest.substring(dash + 1));
        } catch (NumberFormatException e) {
            task = rest;
        }
        int accelerators = 0;
        for (var c : pod.getSpec().getContainers()) {
            Map<String, Quantity> req =
                    c.getResources() == null ? null : c.getResources().getRequests();
            if (req == null) {
                continue;
            }
            for (var e : req.entrySet()) {
                if (!NOT_ACCELERATORS.contains(e.getKey()) && !e.getKey().startsWith("hugepages-")) {
                    accelerators += e.getValue().getNumericalAmount().intValue();
                }
            }
        }
        var status = pod.getStatus();
        List<JobViews.Container> containers = new ArrayList<>();
        if (status != null && status.getContainerStatuses() != null) {
            for (ContainerStatus cs : status.getContainerStatuses()) {
                containers.add(container(cs));
            }
        }
        return new JobViews.JobPod(
                name,
                task,
                index,
                status == null || status.getPhase() == null ? "Pending" : status.getPhase(),
                pod.getSpec().getNodeName(),
                accelerators > 0 ? model : null,
                accelerators,
                status == null || status.getStartTime() == null ? null : Instant.parse(status.getStartTime()),
                containers);
    }

    private static JobViews.Container container(ContainerStatus cs) {
        var state = cs.getState();
        int restarts = cs.getRestartCount() == null ? 0 : cs.getRestartCount();
        if (state != null && state.getTerminated() != null) {
            var t = state.getTerminated();
            return new JobViews.Container(
                    cs.getName(), "terminated", t.getReason(), t.getExitCode(), t.getMessage(), restarts);
        }
        if (state != null && state.getWaiting() != null) {
            var w = state.getWaiting();
            return new JobViews.Container(cs.getName(), "waiting", w.getReason(), null, w.getMessage(), restarts);
        }
        return new JobViews.Container(cs.getName(), "running", null, null, null, restarts);
    }
}
