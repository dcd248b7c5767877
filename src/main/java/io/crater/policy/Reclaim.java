package io.crater.policy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Taking lent capacity back. Backfill jobs run outside quota on idle capacity and go first, newest first, for
 * any job that fits its quota but not the cluster. A guarantee is lent while idle; when an account within its
 * guarantee has such a job, Crater also stops borrowing jobs of other accounts: those of the account furthest
 * above its guarantee first, newest first, and never a job that was not borrowing, never one younger than the
 * minimum run time. Victims are chosen only if stopping them lets the claimant's pods all be placed; otherwise
 * nobody is stopped.
 */
public final class Reclaim {

    private Reclaim() {}

    /**
     * A running job that may be taken back.
     *
     * @param borrowing admitted above its account's guarantee
     * @param perNode what its pods take of each node
     * @param backfill runs outside quota on idle capacity: taken back first, for any job that needs the room
     */
    public record Running(
            String job,
            long account,
            Resources quota,
            Map<String, Resources> perNode,
            boolean borrowing,
            Instant startedAt,
            boolean backfill) {}

    /** The waiting job that claims its guarantee. */
    public record Claim(String job, long account, Resources quota, List<PodDemand> pods) {}

    /** The jobs to stop (in order) and the placement the claimant would then get; empty when none helps. */
    public record Plan(List<Running> victims, Map<String, String> placement) {

        public boolean found() {
            return !victims.isEmpty();
        }
    }

    /** Whether the claimant stays within its guarantee (plus grants) for everything it asks. */
    public static boolean withinGuarantee(Claim claim, Map<String, QuotaLine> lines) {
        for (Map.Entry<String, Long> e : claim.quota().amounts().entrySet()) {
            QuotaLine l = lines == null ? null : lines.get(e.getKey());
            if (l == null || l.used() + e.getValue() > l.effectiveGuaranteed()) {
                return false;
            }
        }
        return true;
    }

    /**
     * The victims that make room for the claim, or an empty plan.
     *
     * @param nodes the nodes as admission sees them now (bound pods and reservations counted)
     * @param accounts quota lines per account, usage included
     */
    public static Plan plan(
            List<NodeCapacity> nodes,
            Map<Long, Map<String, QuotaLine>> accounts,
            List<Running> running,
            Claim claim,
            Instant now,
            Duration minRunTime) {
        if (Placement.placeGang(nodes, claim.pods()).placed()) {
            return new Plan(List.of(), Map.of()); // no one needs to make room
        }
        boolean entitled = withinGuarantee(claim, accounts.get(claim.account()));
        List<Running> backfill = new ArrayList<>();
        List<Running> candidates = new ArrayList<>();
        Map<String, NodeCapacity> byName = new LinkedHashMap<>();
        nodes.forEach(n -> byName.put(n.name(), n));
        for (Running r : running) {
            if (!helps(r, claim, byName)) {
                continue;
            }
            if (r.backfill()) {
                backfill.add(r);
                continue;
            }
            if (!entitled
                    || !r.borrowing()
                    || r.account() == claim.account()
                    || (r.startedAt() != null
                            && Duration.between(r.startedAt(), now).compareTo(minRunTime) < 0)
                    || !aboveGuarantee(accounts.get(r.account()), r.quota())) {
                continue;
            }
            candidates.add(r);
        }
        Map<Long, Double> excess = new HashMap<>();
        candidates.forEach(r -> excess.computeIfAbsent(r.account(), a -> excess(accounts.get(a), r.quota())));
        candidates.sort(Comparator.comparing((Running r) -> -excess.get(r.account()))
                .thenComparing(Running::startedAt, Comparator.nullsFirst(Comparator.reverseOrder()))
                .thenComparing(Running::job));
        backfill.sort(Comparator.comparing(Running::startedAt, Comparator.nullsFirst(Comparator.reverseOrder()))
                .thenComparing(Running::job));
        List<Running> order = new ArrayList<>(backfill);
        order.addAll(candidates);
        List<Running> victims = new ArrayList<>();
        Map<String, NodeCapacity> current = new LinkedHashMap<>(byName);
        for (Running r : order) {
            victims.add(r);
            r.perNode().forEach((node, res) -> {
                NodeCapacity n = current.get(node);
                if (n != null) {
                    current.put(node, n.withUsed(n.used().minus(res)));
                }
            });
            GangPlacement placement = Placement.placeGang(List.copyOf(current.values()), claim.pods());
            if (placement.placed()) {
                return new Plan(List.copyOf(victims), placement.assignments());
            }
        }
        return new Plan(List.of(), Map.of());
    }

    /** Whether its account uses more than its guarantee of what the job holds. */
    private static boolean aboveGuarantee(Map<String, QuotaLine> lines, Resources quota) {
        if (lines == null) {
            return false;
        }
        return quota.amounts().keySet().stream().anyMatch(res -> {
            QuotaLine l = lines.get(res);
            return l != null && l.used() > l.effectiveGuaranteed();
        });
    }

    /** How far above its guarantee the account is, as a share of it (an account without one: infinitely far). */
    private static double excess(Map<String, QuotaLine> lines, Resources quota) {
        double worst = 0;
        for (String res : quota.amounts().keySet()) {
            QuotaLine l = lines == null ? null : lines.get(res);
            if (l == null) {
                continue;
            }
            double g = l.effectiveGuaranteed();
            worst = Math.max(worst, g <= 0 ? Double.MAX_VALUE : (l.used() - g) / g);
        }
        return worst;
    }

    /** Whether the job holds anything on a node one of the claimant's pods could use. */
    private static boolean helps(Running r, Claim claim, Map<String, NodeCapacity> nodes) {
        return r.perNode().keySet().stream()
                .map(nodes::get)
                .filter(java.util.Objects::nonNull)
                .anyMatch(n -> claim.pods().stream().anyMatch(p -> p.allowedOn(n)));
    }
}
