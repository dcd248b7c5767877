package io.crater.policy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Whether a job may start now: its account's quota and the member's limits allow it and the cluster has room
 * for all its pods at once. What can never run (a pod larger than every node of its model, more than the whole
 * fleet) is rejected at once; everything else waits with reasons that carry the numbers.
 */
public final class Admission {

    private Admission() {}

    /** ADMIT: start it; QUEUE: wait, with reasons; REJECT: it can never run as asked. */
    public enum Kind {
        ADMIT,
        QUEUE,
        REJECT
    }

    /**
     * A decision and, when admitted, where the pods fit and which quota resources it borrows.
     *
     * @param placement pod name to node, when admitted
     */
    public record Decision(Kind kind, List<Reason> reasons, List<String> borrowing, Map<String, String> placement) {
        public Decision {
            reasons = List.copyOf(reasons);
            borrowing = List.copyOf(borrowing);
            placement = Map.copyOf(placement);
        }
    }

    /**
     * @param account the account's quota lines (usage of jobs already admitted included)
     * @param request the job's total request per quota resource (cpu, memory, model key)
     * @param nodes nodes with what bound pods and reservations already use
     * @param pods the job's pods with their effective requests per Kubernetes resource and node selectors
     */
    public static Decision decide(
            Map<String, QuotaLine> account,
            MemberLimits limits,
            QuotaMath.MemberUsage member,
            Resources request,
            boolean interactive,
            List<NodeCapacity> nodes,
            List<PodDemand> pods) {
        List<Reason> impossible = impossible(nodes, pods);
        if (!impossible.isEmpty()) {
            return new Decision(Kind.REJECT, impossible, List.of(), Map.of());
        }
        QuotaMath.Check quota = QuotaMath.check(account, limits, member, request, interactive);
        if (!quota.fits()) {
            return new Decision(Kind.QUEUE, quota.reasons(), List.of(), Map.of());
        }
        GangPlacement placement = Placement.placeGang(nodes, pods);
        if (!placement.placed()) {
            Reason why = placement.reasons().get(0);
            return new Decision(
                    Kind.QUEUE,
                    List.of(ReasonCode.InsufficientCapacity.reason(why.message(), why.numbers(), why.args())),
                    List.of(),
                    Map.of());
        }
        return new Decision(Kind.ADMIT, List.of(), quota.borrowing(), placement.assignments());
    }

    /**
     * Only whether the job can ever run: {@code REJECT} with the reasons it cannot, else {@code QUEUE} with none (its
     * quota and the free room are admission's to weigh). What a submission checks before it is written; {@link
     * #decide} and {@link #decideBackfill} reject exactly the same jobs.
     */
    public static Decision screen(List<NodeCapacity> nodes, List<PodDemand> pods) {
        List<Reason> impossible = impossible(nodes, pods);
        return new Decision(impossible.isEmpty() ? Kind.QUEUE : Kind.REJECT, impossible, List.of(), Map.of());
    }

    /**
     * A backfill job: outside its account's quota and the member's limits, it starts whenever its pods fit the
     * idle capacity (and is the first taken back when a job within its quota needs the room).
     */
    public static Decision decideBackfill(List<NodeCapacity> nodes, List<PodDemand> pods) {
        List<Reason> impossible = impossible(nodes, pods);
        if (!impossible.isEmpty()) {
            return new Decision(Kind.REJECT, impossible, List.of(), Map.of());
        }
        GangPlacement placement = Placement.placeGang(nodes, pods);
        if (!placement.placed()) {
            Reason why = placement.reasons().get(0);
            return new Decision(
                    Kind.QUEUE,
                    List.of(ReasonCode.InsufficientCapacity.reason(why.message(), why.numbers(), why.args())),
                    List.of(),
                    Map.of());
        }
        return new Decision(Kind.ADMIT, List.of(), List.of(), placement.assignments());
    }

    /** Reasons the job can never run on this fleet, however long it waits. */
    static List<Reason> impossible(List<NodeCapacity> nodes, List<PodDemand> pods) {
        List<Reason> out = new ArrayList<>();
        Resources total = Resources.NONE;
        for (PodDemand pod : pods) {
            total = total.plus(pod.request());
            boolean fitsSomewhere = nodes.stream()
                    .anyMatch(n -> eligible(n, pod) && pod.request().fitsIn(n.allocatable()));
            if (!fitsSomewhere && out.isEmpty()) {
                String res = primary(pod.request());
                long largest = nodes.stream()
                        .filter(n -> eligible(n, pod))
                        .mapToLong(n -> n.allocatable().get(res))
                        .max()
                        .orElse(0);
                out.add(ReasonCode.PodLargerThanAnyNode.reason(
                        "a pod asks for " + Quantities.format(pod.request().get(res)) + " " + res
                                + " but the largest matching node offers " + Quantities.format(largest),
                        Map.of("requested", pod.request().get(res), "largestNode", largest),
                        Map.of("resource", res)));
            }
        }
        if (out.isEmpty()) {
            for (Map.Entry<String, Long> e : total.amounts().entrySet()) {
                long fleet = 0;
                for (NodeCapacity n : nodes) {
                    if (pods.stream().anyMatch(p -> eligible(n, p))) {
                        fleet += n.allocatable().get(e.getKey());
                    }
                }
                if (e.getValue() > fleet) {
                    out.add(ReasonCode.LargerThanFleet.reason(
                            "the job asks for " + Quantities.format(e.getValue()) + " " + e.getKey()
                                    + " in all; the matching nodes offer " + Quantities.format(fleet),
                            Map.of("requested", e.getValue(), "fleet", fleet),
                            Map.of("resource", e.getKey())));
                    break;
                }
            }
        }
        return out;
    }

    /**
     * Whether the node is one of the pod's for good: its selector matches and the job's target nodes admit it. Taints
     * and cordons count only for now (a platform admin lifts them), so they never make a job impossible.
     */
    private static boolean eligible(NodeCapacity n, PodDemand pod) {
        return n.matches(pod.nodeSelector()) && pod.target().admits(n.name());
    }

    private static String primary(Resources request) {
        return request.amounts().keySet().stream()
                .filter(Placement::isAccelerator)
                .findFirst()
                .orElse("cpu");
    }
}
