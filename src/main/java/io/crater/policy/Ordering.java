package io.crater.policy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;

/**
 * The order in which waiting jobs are considered. Within an account: priority (high, normal, low), then
 * submission. Across accounts: the account whose usage is the smallest share of its guarantee goes next (for
 * the resources its next job asks for: the largest share among them, an accelerator model's share before CPU
 * and memory), its share growing by each job placed in the order, so accounts interleave fairly; an account
 * without a guarantee for what its job asks comes after those with one. Ties go to the earlier submission.
 */
public final class Ordering {

    private Ordering() {}

    /**
     * A waiting job.
     *
     * @param sequence submission order (smaller first)
     * @param priority 0 low, 1 normal, 2 high
     */
    public record Waiting(
            String job, long account, long sequence, int priority, Resources quota, Instant submittedAt) {}

    /** The jobs in the order admission considers them. */
    public static List<Waiting> order(List<Waiting> jobs, Map<Long, Map<String, QuotaLine>> accounts) {
        Map<Long, Deque<Waiting>> lines = new TreeMap<>();
        jobs.stream()
                .sorted(Comparator.comparingInt(Waiting::priority).reversed().thenComparingLong(Waiting::sequence))
                .forEach(j -> lines.computeIfAbsent(j.account(), a -> new ArrayDeque<>())
                        .add(j));
        // Each account's usage as the order grows, added to in place (a new map per placed job cost a round a
        // seventh of its time with thousands waiting).
        Map<Long, Map<String, Long>> used = new HashMap<>();
        accounts.forEach((a, l) -> {
            Map<String, Long> m = new HashMap<>();
            l.forEach((res, line) -> m.put(res, line.used()));
            used.put(a, m);
        });
        // The account whose head has the smallest share goes next (ties: the earlier submission). Picking from one
        // account changes only that account's share, so a heap of the heads gives the order in O(n log accounts).
        record Head(double share, Waiting job) {}
        PriorityQueue<Head> heads = new PriorityQueue<>(Comparator.comparingDouble(Head::share)
                .thenComparingLong(h -> h.job().sequence()));
        for (Deque<Waiting> line : lines.values()) {
            Waiting head = line.peekFirst();
            heads.add(new Head(
                    share(
                            head,
                            used.computeIfAbsent(head.account(), a -> new HashMap<>()),
                            accounts.get(head.account())),
                    head));
        }
        List<Waiting> out = new ArrayList<>(jobs.size());
        while (!heads.isEmpty()) {
            Waiting next = heads.poll().job();
            out.add(next);
            Deque<Waiting> line = lines.get(next.account());
            line.removeFirst();
            Map<String, Long> usage = used.get(next.account());
            next.quota().amounts().forEach((res, amount) -> usage.merge(res, amount, Long::sum));
            Waiting head = line.peekFirst();
            if (head != null) {
                heads.add(new Head(share(head, used.get(head.account()), accounts.get(head.account())), head));
            }
        }
        return out;
    }

    /** Usage ÷ guarantee of the account for what the job asks: its accelerators first, else CPU and memory. */
    static double share(Waiting job, Map<String, Long> used, Map<String, QuotaLine> lines) {
        // Loops rather than streams: this runs once per waiting job and round.
        double models = -1;
        double all = 0;
        for (Map.Entry<String, Long> e : job.quota().amounts().entrySet()) {
            if (e.getValue() <= 0) {
                continue;
            }
            QuotaLine line = lines == null ? null : lines.get(e.getKey());
            long guaranteed = line == null ? 0 : line.effectiveGuaranteed();
            double s = guaranteed <= 0 ? Double.MAX_VALUE / 2 : (double) used.getOrDefault(e.getKey(), 0L) / guaranteed;
            all = Math.max(all, s);
            if (isModel(e.getKey())) {
                models = Math.max(models, s);
            }
        }
        return models >= 0 ? models : all;
    }

    /** Quota resources other than cpu and memory are accelerator models. */
    public static boolean isModel(String resource) {
        return !resource.equals("cpu") && !resource.equals("memory");
    }

    /** Whether a waiting job has waited past the tolerance, and so holds capacity until it starts. */
    public static boolean aged(Waiting job, Instant now, Duration tolerance) {
        return job.submittedAt() != null
                && Duration.between(job.submittedAt(), now).compareTo(tolerance) > 0;
    }
}
