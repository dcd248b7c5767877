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
 * When a waiting job should start: admission's own rules run forward in simulated time. Running jobs release
 * what they hold when they reach their time limits; the jobs ahead are admitted in order as room appears
 * (each taking its quota, member usage and nodes); the answer is the first moment the job itself is admitted.
 * Because every holder is assumed to run to its limit, the time is an upper bound under today's queue
 * ({@code startBy}); jobs that end sooner only bring it forward, jobs that arrive later with a higher priority
 * may push it back. When the answer depends on a job that has no time limit, or the job cannot start even on
 * an idle cluster, the estimate is {@code unknown} with the reason and its count.
 */
public final class Forecast {

    private Forecast() {}

    /**
     * A job that holds resources now.
     *
     * @param member account and user, the key of member limits and usage
     * @param quota what it counts against its account's quota
     * @param perNode what its pods take of each node
     * @param endsBy when its time limit ends it; null when it has none
     */
    public record Holder(
            String job,
            long account,
            String member,
            Resources quota,
            boolean interactive,
            Map<String, Resources> perNode,
            Instant endsBy) {}

    /**
     * A waiting job.
     *
     * @param timeLimit how long it may run once started; null for none
     * @param priority 0 low, 1 normal, 2 high
     * @param submittedAt when it was submitted (a job that waited past the aging tolerance holds what it waits for);
     *     null when not known
     * @param backfill runs outside quota on idle capacity, after every other job
     */
    public record Candidate(
            String job,
            long account,
            String member,
            Resources quota,
            boolean interactive,
            List<PodDemand> pods,
            Duration timeLimit,
            int priority,
            Instant submittedAt,
            boolean backfill) {

        /** A normal-priority job of unknown age, within quota. */
        public Candidate(
                String job,
                long account,
                String member,
                Resources quota,
                boolean interactive,
                List<PodDemand> pods,
                Duration timeLimit) {
            this(job, account, member, quota, interactive, pods, timeLimit, 1, null, false);
        }
    }

    /** What admission knows now: nodes, quota lines per account, member limits and usage per member. */
    public record Snapshot(
            List<NodeCapacity> nodes,
            Map<Long, Map<String, QuotaLine>> accounts,
            Map<String, MemberLimits> limits,
            Map<String, QuotaMath.MemberUsage> usage) {}

    /** A release the job waits for: a holder and when it ends. */
    public record Release(String job, Instant at) {}

    /**
     * The estimate: {@code startBy} and the releases it waits for, or {@code unknown} with a reason (codes
     * {@code WaitsForJobsWithoutTimeLimit}, {@code CannotStartOnIdleCluster}, {@code BeyondHorizon}).
     */
    public record Estimate(Instant startBy, List<Release> waitsFor, Reason unknown) {

        public boolean known() {
            return unknown == null;
        }
    }

    /**
     * Runs the queue forward until {@code target} (the last candidate, or any named one) is admitted.
     *
     * @param queue the waiting jobs in admission order, the target among them
     * @param horizon how far ahead to look
     */
    public static Estimate estimate(
            Instant now,
            Snapshot snapshot,
            List<Holder> running,
            List<Candidate> queue,
            String target,
            Duration horizon) {
        return estimate(now, snapshot, running, queue, target, horizon, Integer.MAX_VALUE);
    }

    /**
     * The same with at most {@code maxDecisions} admission decisions played: beyond them the answer is
     * {@code unknown} with {@code TooManyJobsAhead} rather than a computation that grows with the square of a
     * long line. Jobs are not aged.
     */
    public static Estimate estimate(
            Instant now,
            Snapshot snapshot,
            List<Holder> running,
            List<Candidate> queue,
            String target,
            Duration horizon,
            int maxDecisions) {
        return estimate(now, snapshot, running, queue, target, horizon, maxDecisions, null);
    }

    /**
     * The same, each step an {@link AdmissionRound} at the simulated time: the order, the aging holds (with
     * {@code agingTolerance}; null for none) and the decisions are admission's own.
     */
    public static Estimate estimate(
            Instant now,
            Snapshot snapshot,
            List<Holder> running,
            List<Candidate> queue,
            String target,
            Duration horizon,
            int maxDecisions,
            Duration agingTolerance) {
        Sim sim = new Sim(snapshot, running);
        Map<String, Candidate> waiting = new LinkedHashMap<>();
        Map<String, AdmissionRound.Job> jobs = new HashMap<>();
        for (int i = 0; i < queue.size(); i++) {
            Candidate c = queue.get(i);
            waiting.put(c.job(), c);
            jobs.put(c.job(), job(c, i));
        }
        Duration tolerance = agingTolerance == null ? Duration.ofDays(100_000) : agingTolerance;
        List<Release> released = new ArrayList<>();
        Instant t = now;
        while (true) {
            if (sim.decisions + waiting.size() > maxDecisions) {
                return new Estimate(
                        null,
                        List.of(),
                        ReasonCode.TooManyJobsAhead.reason(
                                "too many jobs are ahead of it (" + (queue.size() - 1)
                                        + ") to play admission forward within " + maxDecisions + " decisions",
                                Map.of("jobsAhead", (long) queue.size() - 1, "decisions", (long) maxDecisions)));
            }
            for (AdmissionRound.Decided d : sim.round(
                    t, tolerance, waiting.keySet().stream().map(jobs::get).toList())) {
                Candidate c = waiting.remove(d.job().job());
                sim.admit(c, d.placement(), t);
                if (c.job().equals(target)) {
                    return new Estimate(t, List.copyOf(released), null);
                }
            }
            Instant next = sim.nextRelease();
            if (next == null) {
                return unknown(sim, List.copyOf(waiting.values()), target);
            }
            if (Duration.between(now, next).compareTo(horizon) > 0) {
                return new Estimate(
                        null,
                        List.of(),
                        ReasonCode.BeyondHorizon.reason(
                                "it would start more than " + horizon.toDays() + " days from now",
                                Map.of("horizonDays", horizon.toDays())));
            }
            t = next;
            released.addAll(sim.releaseUntil(t));
        }
    }

    /** The candidate as a round sees it; its place in the queue breaks ties. */
    private static AdmissionRound.Job job(Candidate c, int place) {
        return new AdmissionRound.Job(
                c.job(),
                place,
                c.account(),
                c.member(),
                c.priority(),
                c.submittedAt(),
                c.interactive(),
                c.backfill(),
                c.quota(),
                c.pods(),
                null);
    }

    private static Estimate unknown(Sim sim, List<Candidate> waiting, String target) {
        Candidate c =
                waiting.stream().filter(x -> x.job().equals(target)).findFirst().orElseThrow();
        // The holders without a time limit that stand in its way: its account's (quota), or on nodes it may use.
        long open = sim.holders.stream()
                .filter(h -> h.endsBy() == null)
                .filter(h -> h.account() == c.account() || sim.onNodesFor(h, c))
                .count();
        if (open > 0) {
            return new Estimate(
                    null,
                    List.of(),
                    ReasonCode.WaitsForJobsWithoutTimeLimit.reason(
                            open + " running job" + (open == 1 ? " has" : "s have")
                                    + " no time limit, and it cannot start before some of them end",
                            Map.of("jobs", open)));
        }
        Admission.Decision d = sim.decide(c);
        return new Estimate(
                null,
                List.of(),
                cannotStart(d.reasons().isEmpty() ? null : d.reasons().get(0)));
    }

    /**
     * Why a job would not start even with every running job ended: the first reason admission gives then, as the
     * {@code cause} argument with that reason's numbers and arguments (none when nothing is in the way but room).
     */
    static Reason cannotStart(Reason cause) {
        if (cause == null) {
            return ReasonCode.CannotStartOnIdleCluster.reason(
                    "even with every running job ended it would not start: no room", Map.of());
        }
        Map<String, String> args = new java.util.HashMap<>(cause.args());
        args.put("cause", cause.code());
        return ReasonCode.CannotStartOnIdleCluster.reason(
                "even with every running job ended it would not start: " + cause.message(), cause.numbers(), args);
    }

    /** The simulated state: nodes, quota lines, member usage, and who holds what until when. */
    private static final class Sim {
        final Map<String, NodeCapacity> nodes = new LinkedHashMap<>();
        final Map<Long, Map<String, QuotaLine>> accounts = new HashMap<>();
        final Map<String, MemberLimits> limits;
        final Map<String, QuotaMath.MemberUsage> usage = new HashMap<>();
        final List<Holder> holders = new ArrayList<>();

        Sim(Snapshot s, List<Holder> running) {
            s.nodes().forEach(n -> nodes.put(n.name(), n));
            s.accounts().forEach((k, v) -> accounts.put(k, new HashMap<>(v)));
            limits = s.limits();
            usage.putAll(s.usage());
            holders.addAll(running);
        }

        /** Whether the holder uses a node that one of the candidate's pods could go to. */
        boolean onNodesFor(Holder h, Candidate c) {
            return h.perNode().keySet().stream()
                    .map(nodes::get)
                    .filter(java.util.Objects::nonNull)
                    .anyMatch(n -> c.pods().stream().anyMatch(p -> p.allowedOn(n)));
        }

        int decisions;

        /** Candidates asking the same as one already decided against the same state get its decision. */
        final DecisionMemo memo = new DecisionMemo();

        Admission.Decision decide(Candidate c) {
            decisions++;
            return memo.decide(
                    new DecisionMemo.Key(c.account(), c.member(), c.quota(), c.interactive(), false, c.pods()),
                    () -> Admission.decide(
                            accounts.getOrDefault(c.account(), Map.of()),
                            limits.getOrDefault(c.member(), MemberLimits.NONE),
                            usage.getOrDefault(c.member(), QuotaMath.MemberUsage.NONE),
                            c.quota(),
                            c.interactive(),
                            List.copyOf(nodes.values()),
                            c.pods()));
        }

        /** One admission round at time {@code t} over the waiting jobs; the admissions, in order. */
        List<AdmissionRound.Decided> round(Instant t, Duration tolerance, List<AdmissionRound.Job> waiting) {
            decisions += waiting.size();
            Map<String, MemberLimits> overrides = limits;
            AdmissionRound.Outcome o = AdmissionRound.run(new AdmissionRound.Snapshot(
                    t,
                    tolerance,
                    List.copyOf(nodes.values()),
                    List.of(),
                    accounts,
                    new AdmissionRound.Limits(Map.of(), overrides),
                    usage,
                    waiting));
            return o.admitted();
        }

        /** An admitted candidate becomes a holder until its time limit. */
        void admit(Candidate c, Map<String, String> placement, Instant t) {
            Map<String, Resources> perNode = new HashMap<>();
            for (PodDemand p : c.pods()) {
                perNode.merge(placement.get(p.name()), p.request(), Resources::plus);
            }
            Holder h = new Holder(
                    c.job(),
                    c.account(),
                    c.member(),
                    c.backfill() ? Resources.NONE : c.quota(),
                    c.interactive(),
                    perNode,
                    c.timeLimit() == null ? null : t.plus(c.timeLimit()));
            take(h, 1);
            holders.add(h);
        }

        Instant nextRelease() {
            return holders.stream()
                    .map(Holder::endsBy)
                    .filter(java.util.Objects::nonNull)
                    .min(Comparator.naturalOrder())
                    .orElse(null);
        }

        List<Release> releaseUntil(Instant t) {
            List<Release> out = new ArrayList<>();
            for (Holder h : List.copyOf(holders)) {
                if (h.endsBy() != null && !h.endsBy().isAfter(t)) {
                    take(h, -1);
                    holders.remove(h);
                    out.add(new Release(h.job(), h.endsBy()));
                }
            }
            return out;
        }

        /** Adds (sign 1) or gives back (sign -1) what a holder takes. */
        private void take(Holder h, int sign) {
            memo.clear();
            Map<String, QuotaLine> lines = accounts.computeIfAbsent(h.account(), k -> new HashMap<>());
            h.quota().amounts().forEach((res, amount) -> {
                QuotaLine l = lines.getOrDefault(res, new QuotaLine(res, 0, 0, 0, 0));
                lines.put(
                        res,
                        new QuotaLine(
                                res, l.guaranteed(), l.max(), l.granted(), Math.max(0, l.used() + sign * amount)));
            });
            QuotaMath.MemberUsage u = usage.getOrDefault(h.member(), QuotaMath.MemberUsage.NONE);
            usage.put(
                    h.member(),
                    new QuotaMath.MemberUsage(
                            sign > 0
                                    ? u.resources().plus(h.quota())
                                    : u.resources().minus(h.quota()),
                            Math.max(0, u.activeJobs() + sign),
                            Math.max(0, u.interactiveSessions() + (h.interactive() ? sign : 0))));
            h.perNode().forEach((node, r) -> {
                NodeCapacity n = nodes.get(node);
                if (n != null) {
                    nodes.put(
                            node,
                            n.withUsed(sign > 0 ? n.used().plus(r) : n.used().minus(r)));
                }
            });
        }
    }
}
