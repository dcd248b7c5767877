package io.crater.policy;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * What draining a node does to each pod on it, as {@code kubectl drain} decides: pods that ended already are left
 * alone, a DaemonSet's pods stay (their controller ignores the cordon and would put them back), static (mirror) pods
 * cannot be evicted through the API and stay, every other pod is evicted. A Crater job with a pod there is stopped
 * with the reason {@code NodeDrained}.
 */
public final class NodeDrain {

    private NodeDrain() {}

    /**
     * A pod bound to the node.
     *
     * @param job the Crater job it belongs to, or null
     * @param daemonSet owned by a DaemonSet
     * @param mirror a static pod's mirror ({@code kubernetes.io/config.mirror} annotation)
     */
    public record Pod(String namespace, String name, String phase, String job, boolean daemonSet, boolean mirror) {}

    /** A pod left on the node, and why. */
    public record Kept(String namespace, String name, String why) {}

    /** The pods to evict (in name order), the Crater jobs to stop, and the pods kept. */
    public record Plan(List<Pod> evict, List<String> stopJobs, List<Kept> kept) {
        public Plan {
            evict = List.copyOf(evict);
            stopJobs = List.copyOf(stopJobs);
            kept = List.copyOf(kept);
        }
    }

    public static Plan plan(List<Pod> pods) {
        List<Pod> sorted = new ArrayList<>(pods);
        sorted.sort(java.util.Comparator.comparing(Pod::namespace).thenComparing(Pod::name));
        List<Pod> evict = new ArrayList<>();
        LinkedHashSet<String> jobs = new LinkedHashSet<>();
        List<Kept> kept = new ArrayList<>();
        for (Pod p : sorted) {
            if ("Succeeded".equals(p.phase()) || "Failed".equals(p.phase())) {
                kept.add(new Kept(p.namespace(), p.name(), "Finished"));
            } else if (p.mirror()) {
                kept.add(new Kept(p.namespace(), p.name(), "StaticPod"));
            } else if (p.daemonSet()) {
                kept.add(new Kept(p.namespace(), p.name(), "DaemonSet"));
            } else {
                evict.add(p);
                if (p.job() != null) {
                    jobs.add(p.job());
                }
            }
        }
        return new Plan(evict, List.copyOf(jobs), kept);
    }
}
