package io.crater.job;

import io.crater.cluster.ClusterCache;
import io.crater.policy.NodeCapacity;
import io.crater.policy.PodDemand;
import io.crater.policy.Reason;
import io.crater.policy.ReasonCode;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Why an admitted job is not running yet, translated from the cluster: its objects not created yet, the
 * account's Volcano Queue full, the gang not placed (and whether free capacity is only fragmented), images
 * being pulled or failing, volumes failing to mount, its node not ready. Each a stable code with numbers.
 */
@ApplicationScoped
public class ClusterReasons {

    private static final Pattern GANG = Pattern.compile("^([0-9]+)/([0-9]+) tasks in gang unschedulable");
    private static final Set<String> PULL_FAILED =
            Set.of("ErrImagePull", "ImagePullBackOff", "InvalidImageName", "ErrImageNeverPull");

    @Inject
    ClusterCache cache;

    @Inject
    JobKubeEvents events;

    List<Reason> of(JobRow job, JobSpecs.Checked checked) {
        List<Pod> pods = cache.podsOfJob(job.publicId());
        List<JobViews.JobEvent> evs = events.live(job.publicId());
        List<Reason> out = new ArrayList<>();
        if (pods.isEmpty()) {
            JobViews.JobEvent group = latestGroupWarning(evs);
            if (group != null && group.message().contains("queue resource quota insufficient")) {
                out.add(ReasonCode.VolcanoQueueFull.reason(
                        "the account's Volcano Queue has no room: " + group.message(), Map.of()));
            } else {
                out.add(ReasonCode.CreatingObjects.reason(
                        "admitted; its Volcano Job and pods are being created", Map.of()));
            }
            return out;
        }
        long unbound =
                pods.stream().filter(p -> p.getSpec().getNodeName() == null).count();
        if (unbound > 0) {
            out.add(gang(pods.size(), unbound, latestGroupWarning(evs), checked));
        }
        for (Pod p : pods) {
            out.addAll(containers(p, evs));
            String node = p.getSpec().getNodeName();
            if (node != null && !ready(node)) {
                out.add(ReasonCode.NodeNotReady.reason(
                        "pod " + p.getMetadata().getName() + " is on node " + node + ", which is not ready",
                        Map.of(),
                        Map.of("pod", p.getMetadata().getName(), "node", node)));
            }
        }
        evs.stream()
                .filter(e -> e.reason().equals("FailedMount") || e.reason().equals("FailedAttachVolume"))
                .reduce((a, b) -> b)
                .ifPresent(e -> out.add(ReasonCode.VolumeMountFailed.reason(
                        e.object() + ": " + e.message(),
                        Map.of(),
                        Map.of("object", e.object(), "detail", e.message()))));
        return out;
    }

    private Reason gang(int total, long unbound, JobViews.JobEvent warning, JobSpecs.Checked checked) {
        long placed = total - unbound;
        if (checked != null) {
            Reason f = fragmentation(checked.pods());
            if (f != null) {
                return f;
            }
        }
        String detail = warning == null ? "" : ": " + warning.message();
        if (warning != null) {
            Matcher m = GANG.matcher(warning.message());
            if (m.find()) {
                placed = Long.parseLong(m.group(2)) - Long.parseLong(m.group(1));
            }
        }
        return ReasonCode.GangWaiting.reason(
                placed + " of " + total + " pods placed; all must start together" + detail,
                Map.of("placed", placed, "total", (long) total));
    }

    /**
     * Enough of the job's accelerator is free across the nodes its pods may use, but no set of nodes holds each
     * pod whole: the free capacity is fragmented.
     */
    Reason fragmentation(List<PodDemand> pods) {
        if (pods.isEmpty()) {
            return null;
        }
        PodDemand pod = pods.get(0);
        String res = pod.request().amounts().keySet().stream()
                .filter(io.crater.policy.Placement::isAccelerator)
                .findFirst()
                .orElse(null);
        if (res == null) {
            return null;
        }
        long need = pod.request().get(res);
        long totalNeed = need * pods.size();
        long totalFree = 0;
        long largest = 0;
        for (NodeCapacity n : cache.capacities()) {
            if (n.schedulable() && pod.allowedOn(n)) {
                long free = Math.max(0, n.free().get(res));
                totalFree += free;
                largest = Math.max(largest, free);
            }
        }
        if (totalFree >= totalNeed && largest < need) {
            return ReasonCode.Fragmentation.reason(
                    "enough " + res + " is free in all (" + totalFree / 1000
                            + ") but the largest free block on one node is " + largest / 1000 + " and each pod needs "
                            + need / 1000,
                    Map.of("largestFreeBlock", largest, "needs", need, "totalFree", totalFree),
                    Map.of("resource", res));
        }
        return null;
    }

    private static List<Reason> containers(Pod p, List<JobViews.JobEvent> evs) {
        List<Reason> out = new ArrayList<>();
        List<ContainerStatus> statuses = p.getStatus() == null || p.getStatus().getContainerStatuses() == null
                ? List.of()
                : p.getStatus().getContainerStatuses();
        for (ContainerStatus cs : statuses) {
            var waiting = cs.getState() == null ? null : cs.getState().getWaiting();
            if (waiting == null || waiting.getReason() == null) {
                continue;
            }
            if (PULL_FAILED.contains(waiting.getReason())) {
                String detail = waiting.getMessage() == null ? waiting.getReason() : waiting.getMessage();
                out.add(ReasonCode.ImagePullFailed.reason(
                        "image " + cs.getImage() + " cannot be pulled: " + detail,
                        Map.of(),
                        Map.of("image", String.valueOf(cs.getImage()), "detail", detail)));
            } else if (waiting.getReason().equals("ContainerCreating")) {
                String name = p.getMetadata().getName();
                evs.stream()
                        .filter(e -> e.reason().equals("Pulling") && e.object().endsWith("/" + name))
                        .max(Comparator.comparing(JobViews.JobEvent::at))
                        .ifPresent(e -> out.add(ReasonCode.ImagePulling.reason(
                                "pulling image " + cs.getImage() + " since " + e.at(),
                                Map.of("sinceEpochSeconds", e.at().getEpochSecond()),
                                Map.of("image", String.valueOf(cs.getImage())))));
            }
        }
        return out;
    }

    private static JobViews.JobEvent latestGroupWarning(List<JobViews.JobEvent> evs) {
        return evs.stream()
                .filter(e -> e.type().equals("Warning") && e.object().startsWith("PodGroup/"))
                .max(Comparator.comparing(JobViews.JobEvent::at).thenComparing(e -> e.at().equals(Instant.EPOCH)))
                .orElse(null);
    }

    private boolean ready(String nodeName) {
        for (Node n : cache.nodes()) {
            if (n.getMetadata().getName().equals(nodeName)) {
                return n.getStatus() != null
                        && n.getStatus().getConditions() != null
                        && n.getStatus().getConditions().stream()
                                .anyMatch(c -> c.getType().equals("Ready")
                                        && c.getStatus().equals("True"));
            }
        }
        return false;
    }
}
