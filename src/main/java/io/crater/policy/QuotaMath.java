package io.crater.policy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Quota arithmetic over an immutable snapshot: where an account stands per resource, whether a request fits
 * its quota and a member's limits, and which resources it would borrow. Decisions carry reason codes with
 * the numbers behind them.
 */
public final class QuotaMath {

    private QuotaMath() {}

    /** What a member has running or admitted in an account: summed requests and counts. */
    public record MemberUsage(Resources resources, int activeJobs, int interactiveSessions) {
        public static final MemberUsage NONE = new MemberUsage(Resources.NONE, 0, 0);
    }

    /** The outcome of a quota check: fits or not, the reasons when not, and the resources it would borrow. */
    public record Check(boolean fits, List<Reason> reasons, List<String> borrowing) {
        public Check {
            reasons = List.copyOf(reasons);
            borrowing = List.copyOf(borrowing);
        }
    }

    /**
     * The account's lines: one per resource that has a quota, is granted or is used. A resource without a
     * quota row has guaranteed = max = 0 (nothing may be used of it without a grant).
     */
    public static Map<String, QuotaLine> lines(
            Map<String, QuotaLimit> limits, List<Grant> grants, Resources usage, Instant now) {
        TreeSet<String> names = new TreeSet<>(limits.keySet());
        names.addAll(usage.amounts().keySet());
        Map<String, Long> granted = new TreeMap<>();
        for (Grant g : grants) {
            if (g.activeAt(now)) {
                granted.merge(g.resource(), g.amount(), Long::sum);
                names.add(g.resource());
            }
        }
        Map<String, QuotaLine> out = new TreeMap<>();
        for (String name : names) {
            QuotaLimit limit = limits.getOrDefault(name, new QuotaLimit(name, 0, 0));
            out.put(
                    name,
                    new QuotaLine(
                            name, limit.guaranteed(), limit.max(), granted.getOrDefault(name, 0L), usage.get(name)));
        }
        return out;
    }

    /**
     * Whether {@code request} fits the account's effective max and the member's limits. A job fits when for
     * every resource usage + request stays within max + grants; it is borrowing for the resources where usage +
     * request exceeds guaranteed + grants.
     */
    public static Check check(
            Map<String, QuotaLine> account,
            MemberLimits limits,
            MemberUsage member,
            Resources request,
            boolean interactive) {
        List<Reason> reasons = new ArrayList<>();
        List<String> borrowing = new ArrayList<>();
        for (Map.Entry<String, Long> e : request.amounts().entrySet()) {
            String res = e.getKey();
            long want = e.getValue();
            QuotaLine line = account.getOrDefault(res, new QuotaLine(res, 0, 0, 0, 0));
            if (line.used() + want > line.effectiveMax()) {
                reasons.add(ReasonCode.AccountQuotaExceeded.reason(
                        "the account would use " + Quantities.format(line.used() + want) + " of " + res
                                + " but its max is " + Quantities.format(line.effectiveMax()),
                        Map.of(
                                "requested",
                                want,
                                "used",
                                line.used(),
                                "max",
                                line.max(),
                                "granted",
                                line.granted(),
                                "effectiveMax",
                                line.effectiveMax()),
                        Map.of("resource", res)));
            } else if (line.used() + want > line.effectiveGuaranteed()) {
                borrowing.add(res);
            }
            Long cap = limits.resources().get(res);
            long mine = member.resources().get(res);
            if (cap != null && mine + want > cap) {
                reasons.add(ReasonCode.MemberLimitReached.reason(
                        "you would use " + Quantities.format(mine + want) + " of " + res
                                + " in this account; your limit is " + Quantities.format(cap),
                        Map.of("requested", want, "used", mine, "limit", cap),
                        Map.of("resource", res)));
            }
        }
        if (limits.maxRunningJobs() != null && member.activeJobs() + 1 > limits.maxRunningJobs()) {
            reasons.add(ReasonCode.MemberLimitReached.reason(
                    "you have " + member.activeJobs() + " running or admitted jobs; your limit is "
                            + limits.maxRunningJobs(),
                    Map.of("jobs", (long) member.activeJobs(), "limit", (long) limits.maxRunningJobs())));
        }
        if (interactive
                && limits.maxInteractiveSessions() != null
                && member.interactiveSessions() + 1 > limits.maxInteractiveSessions()) {
            reasons.add(ReasonCode.MemberLimitReached.reason(
                    "you have " + member.interactiveSessions() + " interactive sessions; your limit is "
                            + limits.maxInteractiveSessions(),
                    Map.of("sessions", (long) member.interactiveSessions(), "limit", (long)
                            limits.maxInteractiveSessions())));
        }
        return new Check(reasons.isEmpty(), reasons, reasons.isEmpty() ? borrowing : List.of());
    }
}
