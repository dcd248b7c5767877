package io.crater.policy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * One admission round: every waiting job decided in order against one snapshot of quotas, member limits and
 * usage, and the nodes with their reservations. Jobs are taken in {@link #order fair order}; each admission
 * updates the state the later ones are decided against. A job that has waited past the aging tolerance holds
 * what it waits for: smaller jobs for the same nodes (or of the same account, for its quota) no longer pass it.
 * Jobs that fit their quota but find no room become claims, of which {@link #reclaim} serves the first it can.
 *
 * <p>The admission service builds the snapshot and writes the outcome; the wait explanation orders its line with
 * the same {@link #order}. Nothing here reads a clock: {@code now} is part of the snapshot.
 */
public final class AdmissionRound {

    private AdmissionRound() {}

    /**
     * A waiting job.
     *
     * @param sequence submission order (the job's row id): smaller first among equals
     * @param member the account and user ({@code account/user}), key of member limits and usage
     * @param priority 0 low, 1 normal, 2 high
     * @param quota what it counts against its account's quota; null when its stored spec no longer passes the
     *     checks (it is then rejected)
     * @param pods its pods with their effective requests and node selectors; null with {@code quota}
     * @param key what its decision depends on besides the round's state (jobs with equal keys are decided once
     *     per state); computed when null
     */
    public record Job(
            String job,
            long sequence,
            long account,
            String member,
            int priority,
            Instant submittedAt,
            boolean interactive,
            boolean backfill,
            Resources quota,
            List<PodDemand> pods,
            DecisionMemo.Key key) {

        public Job {
            if (key == null && quota != null) {
                key = new DecisionMemo.Key(account, member, quota, interactive, backfill, pods);
            }
        }

        /** Whether its stored spec passes the checks. */
        public boolean valid() {
            return quota != null;
        }

        Map<String, String> selector() {
            return pods == null || pods.isEmpty() ? Map.of() : pods.get(0).nodeSelector();
        }
    }

    /** An admitted job whose pods are not bound yet: its room is taken before the round decides. */
    public record Reservation(String job, List<PodDemand> pods) {}

    /**
     * What a round decides from.
     *
     * @param nodes the nodes with what bound pods use
     * @param reservations admitted jobs not bound yet, placed first
     * @param accounts every account's quota lines, usage of the jobs holding quota included
     * @param limits the member limits in force
     * @param usage every member's usage
     * @param queued the waiting jobs, in any order
     */
    public record Snapshot(
            Instant now,
            Duration agingTolerance,
            List<NodeCapacity> nodes,
            List<Reservation> reservations,
            Map<Long, Map<String, QuotaLine>> accounts,
            Limits limits,
            Map<String, QuotaMath.MemberUsage> usage,
            List<Job> queued,
            Budgets budgets) {

        /** A snapshot without budgets: no account's spending holds a job back. */
        public Snapshot(
                Instant now,
                Duration agingTolerance,
                List<NodeCapacity> nodes,
                List<Reservation> reservations,
                Map<Long, Map<String, QuotaLine>> accounts,
                Limits limits,
                Map<String, QuotaMath.MemberUsage> usage,
                List<Job> queued) {
            this(now, agingTolerance, nodes, reservations, accounts, limits, usage, queued, Budgets.NONE);
        }
    }

    /**
     * An account's budget as a round sees it: what is left in micro-units, its policy and when its period ends.
     */
    public record Budget(long remaining, BudgetCheck.Policy policy, Instant periodEnds, String currency) {}

    /**
     * A member's allotment inside their account's budget as a round sees it: the amount per period and what is left
     * of it (the amount less what the member's jobs were charged this period; negative when overspent). The account's
     * budget gives the policy, the period's end and the currency.
     */
    public record Allotment(long amount, long remaining) {}

    /**
     * The budgets in force, by account (accounts without one spend freely), what each queued job of a budgeted
     * account would cost if it ran its whole time limit, by job id, and the allotments of members of budgeted
     * accounts, by member ({@code account/user}; members without one spend within the account's budget only).
     */
    public record Budgets(Map<Long, Budget> accounts, Map<String, Long> projected, Map<String, Allotment> allotments) {
        public static final Budgets NONE = new Budgets(Map.of(), Map.of(), Map.of());

        /** Budgets without allotments. */
        public Budgets(Map<Long, Budget> accounts, Map<String, Long> projected) {
            this(accounts, projected, Map.of());
        }
    }

    /** Every account's default member limits and the members' overrides ({@code account/user} keys). */
    public record Limits(Map<Long, MemberLimits> defaults, Map<String, MemberLimits> overrides) {

        public static final Limits NONE = new Limits(Map.of(), Map.of());

        /** The limits in force for a member: the override's fields over the account's default. */
        public MemberLimits effective(long account, String member) {
            return MemberLimits.effective(
                    defaults.getOrDefault(account, MemberLimits.NONE),
                    overrides.getOrDefault(member, MemberLimits.NONE));
        }
    }

    /**
     * A decision that changes a job: admitted (with its placement and the quota resources it borrows) or rejected
     * (with its reasons).
     */
    public record Decided(
            Job job,
            Admission.Kind kind,
            List<Reason> reasons,
            Map<String, String> placement,
            List<String> borrowing) {}

    /**
     * What a round decided.
     *
     * @param decided admissions and rejections, in decision order
     * @param waiting the reasons of every job that keeps waiting, by sequence, in decision order
     * @param claims jobs that fit their quota but found no room, in order (one per set of equal keys)
     * @param nodes the nodes once the reservations and the admitted jobs took their room
     * @param accounts the quota lines once the admitted jobs' usage is added
     */
    public record Outcome(
            List<Decided> decided,
            Map<Long, List<Reason>> waiting,
            List<Job> claims,
            List<NodeCapacity> nodes,
            Map<Long, Map<String, QuotaLine>> accounts) {

        /** The admitted jobs, in order. */
        public List<Decided> admitted() {
            return decided.stream()
                    .filter(d -> d.kind() == Admission.Kind.ADMIT)
                    .toList();
        }

        /** The rejected jobs, in order. */
        public List<Decided> rejected() {
            return decided.stream()
                    .filter(d -> d.kind() == Admission.Kind.REJECT)
                    .toList();
        }
    }

    /** Decides every queued job of the snapshot in order. */
    public static Outcome run(Snapshot snapshot) {
        State state = new State(snapshot);
        for (Job job : order(snapshot.queued(), snapshot.accounts())) {
            state.decide(job);
        }
        return new Outcome(
                List.copyOf(state.decided), state.waiting, List.copyOf(state.claims), state.nodes, state.accounts);
    }

    /**
     * The jobs in the order a round considers them: {@link Ordering} over the accounts' quota lines, backfill
     * jobs after every other (they take only what nobody in the line can use).
     */
    public static List<Job> order(List<Job> jobs, Map<Long, Map<String, QuotaLine>> accounts) {
        Map<String, Job> byId = new HashMap<>();
        List<Ordering.Waiting> waiting = new ArrayList<>(jobs.size());
        for (Job j : jobs) {
            byId.put(j.job(), j);
            waiting.add(new Ordering.Waiting(
                    j.job(),
                    j.account(),
                    j.sequence(),
                    j.priority(),
                    j.valid() ? j.quota() : Resources.NONE,
                    j.submittedAt()));
        }
        List<Job> out = new ArrayList<>(jobs.size());
        for (Ordering.Waiting w : Ordering.order(waiting, accounts)) {
            out.add(byId.get(w.job()));
        }
        out.sort(Comparator.comparing(Job::backfill)); // stable: the fair order holds within each part
        return out;
    }

    /** The nodes once each reservation whose gang fits has taken its room. */
    public static List<NodeCapacity> reserve(List<NodeCapacity> nodes, List<Reservation> reservations) {
        List<NodeCapacity> current = nodes;
        for (Reservation r : reservations) {
            GangPlacement p = Placement.placeGang(current, r.pods());
            if (p.placed()) {
                current = take(current, p.assignments(), r.pods());
            }
        }
        return current;
    }

    /** The resources a job holds its account's quota for: its accelerators when it has any, else all it asks. */
    public static Set<String> scarce(Resources request) {
        Set<String> all = new TreeSet<>(request.amounts().keySet());
        Set<String> models = new TreeSet<>(all);
        models.removeIf(r -> !Ordering.isModel(r));
        return models.isEmpty() ? all : models;
    }

    /** A reclaim chosen for a claim: the claimant and the victims that make room for it. */
    public record Reclaiming(Job claimant, Reclaim.Plan plan) {}

    /**
     * Whether any claim is within its account's guarantee (only then may borrowing jobs be taken back; backfill
     * jobs are taken back for any claim).
     */
    public static boolean entitled(Outcome outcome) {
        return outcome.claims().stream()
                .anyMatch(c ->
                        Reclaim.withinGuarantee(claim(c), outcome.accounts().get(c.account())));
    }

    /**
     * The first claim of the round that taking back running jobs can serve, and its victims; null when none.
     *
     * @param running the jobs that may be taken back (backfill, or borrowing; not asked to stop yet)
     * @param releasing what jobs asked to stop still hold per node: it is freed soon, so it counts as free
     * @param minRunTime a borrowing job younger than this is never taken back
     */
    public static Reclaiming reclaim(
            Outcome outcome,
            List<Reclaim.Running> running,
            Map<String, Resources> releasing,
            Instant now,
            Duration minRunTime) {
        if (outcome.claims().isEmpty() || running.isEmpty()) {
            return null;
        }
        List<NodeCapacity> nodes = outcome.nodes().stream()
                .map(n -> releasing.containsKey(n.name()) ? n.withUsed(n.used().minus(releasing.get(n.name()))) : n)
                .toList();
        // A plan depends on the claim's account, quota and pods only: one that failed fails for its twins too.
        Set<List<Object>> tried = new HashSet<>();
        for (Job c : outcome.claims()) {
            if (!tried.add(List.of(c.account(), c.quota(), c.pods()))) {
                continue;
            }
            Reclaim.Plan plan = Reclaim.plan(nodes, outcome.accounts(), running, claim(c), now, minRunTime);
            if (plan.found()) {
                return new Reclaiming(c, plan);
            }
        }
        return null;
    }

    private static Reclaim.Claim claim(Job c) {
        return new Reclaim.Claim(c.job(), c.account(), c.quota(), c.pods());
    }

    static List<NodeCapacity> take(List<NodeCapacity> nodes, Map<String, String> placement, List<PodDemand> pods) {
        Map<String, Resources> add = new HashMap<>();
        pods.forEach(p -> add.merge(placement.get(p.name()), p.request(), Resources::plus));
        return nodes.stream()
                .map(n -> add.containsKey(n.name()) ? n.withUsed(n.used().plus(add.get(n.name()))) : n)
                .toList();
    }

    /** What a round holds while it decides: room left, quota lines and member usage, and the holds. */
    private static final class State {
        final Snapshot snapshot;
        List<NodeCapacity> nodes;
        final Map<Long, Map<String, QuotaLine>> accounts;
        final Map<String, QuotaMath.MemberUsage> members;
        final List<Decided> decided = new ArrayList<>();
        final Map<Long, List<Reason>> waiting = new LinkedHashMap<>();
        final List<Job> claims = new ArrayList<>();
        final Set<DecisionMemo.Key> claimed = new HashSet<>();
        /** Node selectors whose room is held for a job that waited past the aging tolerance. */
        final Map<Map<String, String>, Job> held = new HashMap<>();
        /** Accounts whose quota is held for such a job, with the resources it holds. */
        final Map<Long, Map.Entry<Job, Set<String>>> heldQuota = new HashMap<>();
        /** What the jobs admitted so far in this round would cost, against budgets and allotments. */
        final RoundBudgets money;
        /** Jobs asking the same as one already decided against the same state get its decision. */
        final DecisionMemo memo = new DecisionMemo();

        State(Snapshot snapshot) {
            this.snapshot = snapshot;
            this.nodes = reserve(snapshot.nodes(), snapshot.reservations());
            this.accounts = new HashMap<>(snapshot.accounts());
            this.members = new HashMap<>(snapshot.usage());
            this.money = new RoundBudgets(snapshot.budgets());
        }

        void decide(Job job) {
            if (!job.valid()) {
                decided.add(new Decided(
                        job,
                        Admission.Kind.REJECT,
                        List.of(ReasonCode.InvalidSpec.reason("the stored spec no longer passes the checks", Map.of())),
                        Map.of(),
                        List.of()));
                return;
            }
            List<Reason> overBudget = money.holdsBack(job);
            if (!overBudget.isEmpty()) {
                waiting.put(job.sequence(), overBudget);
                return;
            }
            Job holder = holder(job);
            if (holder != null) {
                waiting.put(job.sequence(), List.of(heldFor(holder)));
                return;
            }
            Map<String, QuotaLine> lines = accounts.getOrDefault(job.account(), Map.of());
            QuotaMath.MemberUsage usage = members.getOrDefault(job.member(), QuotaMath.MemberUsage.NONE);
            Admission.Decision d = memo.decide(
                    job.key(),
                    () -> job.backfill()
                            ? Admission.decideBackfill(nodes, job.pods())
                            : Admission.decide(
                                    lines,
                                    snapshot.limits().effective(job.account(), job.member()),
                                    usage,
                                    job.quota(),
                                    job.interactive(),
                                    nodes,
                                    job.pods()));
            if (d.kind() == Admission.Kind.QUEUE) {
                hold(job, d.reasons());
            }
            switch (d.kind()) {
                case REJECT -> decided.add(new Decided(job, d.kind(), d.reasons(), Map.of(), List.of()));
                case QUEUE -> waiting.put(job.sequence(), d.reasons());
                case ADMIT -> admit(job, d, lines, usage);
            }
        }

        /** The aged job whose hold this job may not pass, if any. */
        private Job holder(Job job) {
            Job holder = held.get(job.selector());
            Map.Entry<Job, Set<String>> quotaHolder = heldQuota.get(job.account());
            if (holder == null
                    && quotaHolder != null
                    && job.quota().amounts().keySet().stream().anyMatch(quotaHolder.getValue()::contains)) {
                holder = quotaHolder.getKey();
            }
            return holder;
        }

        private Reason heldFor(Job holder) {
            long waited = Duration.between(holder.submittedAt(), snapshot.now()).toSeconds();
            Duration tolerance = snapshot.agingTolerance();
            return ReasonCode.CapacityHeldForOlderJob.reason(
                    "the capacity it needs is held for a job that has waited " + waited / 60 + " min, longer than the "
                            + tolerance.toMinutes()
                            + " min after which a waiting job is no longer passed by smaller ones",
                    Map.of("waitedSeconds", waited, "toleranceSeconds", tolerance.toSeconds()));
        }

        /** A job that waits: it may start holding what it waits for, and it may claim room from others. */
        private void hold(Job job, List<Reason> reasons) {
            boolean aged = job.submittedAt() != null
                    && Duration.between(job.submittedAt(), snapshot.now()).compareTo(snapshot.agingTolerance()) > 0;
            if (aged && reasons.stream().anyMatch(r -> r.code().equals("InsufficientCapacity"))) {
                // Waited too long: smaller jobs for the same nodes no longer pass it; room accrues for it.
                held.putIfAbsent(job.selector(), job);
            }
            if (aged
                    && !job.backfill()
                    && reasons.stream().anyMatch(r -> r.code().equals("AccountQuotaExceeded"))
                    // Only a job the account's quota can ever hold: one asking more than the max never holds it.
                    && reasons.stream()
                            .filter(r -> r.code().equals("AccountQuotaExceeded"))
                            .allMatch(r -> r.numbers().getOrDefault("requested", 0L)
                                    <= r.numbers().getOrDefault("effectiveMax", 0L))) {
                // The same within the account: its later jobs no longer take the quota this one waits for.
                heldQuota.putIfAbsent(job.account(), Map.entry(job, scarce(job.quota())));
            }
            if (!job.backfill() && reasons.stream().allMatch(r -> r.code().equals("InsufficientCapacity"))) {
                // Fits its quota, not the cluster: backfill jobs (and, within its guarantee, borrowers) make room.
                // Twins (same account, member and ask) get the same plan: the first one, in order, stands for them.
                if (claimed.add(job.key())) {
                    claims.add(job);
                }
            }
        }

        private void admit(Job job, Admission.Decision d, Map<String, QuotaLine> lines, QuotaMath.MemberUsage usage) {
            memo.clear(); // the nodes, the account's lines and the member's usage change
            nodes = take(nodes, d.placement(), job.pods());
            money.admitted(job);
            if (!job.backfill()) {
                // Backfill jobs use idle capacity only: they count against no quota or limit.
                Map<String, QuotaLine> after = new HashMap<>(lines);
                job.quota().amounts().forEach((res, amount) -> {
                    QuotaLine l = after.getOrDefault(res, new QuotaLine(res, 0, 0, 0, 0));
                    after.put(res, new QuotaLine(res, l.guaranteed(), l.max(), l.granted(), l.used() + amount));
                });
                accounts.put(job.account(), after);
                members.put(
                        job.member(),
                        new QuotaMath.MemberUsage(
                                usage.resources().plus(job.quota()),
                                usage.activeJobs() + 1,
                                usage.interactiveSessions() + (job.interactive() ? 1 : 0)));
            }
            decided.add(new Decided(job, Admission.Kind.ADMIT, List.of(), d.placement(), d.borrowing()));
        }
    }
}
