package io.crater.policy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The money side of one admission round: what is left of each account's budget and of each member's allotment, less
 * what the jobs admitted earlier in the round would cost up to their time limits, so one round cannot overspend
 * either. The account's policy applies to both: under {@code hard} and {@code stop} a job that does not fit waits,
 * under {@code soft} it is admitted all the same.
 */
final class RoundBudgets {

    private final AdmissionRound.Budgets budgets;
    /** What the jobs admitted so far in this round would cost, by account. */
    private final Map<Long, Long> byAccount = new HashMap<>();
    /** The same by member. */
    private final Map<String, Long> byMember = new HashMap<>();

    RoundBudgets(AdmissionRound.Budgets budgets) {
        this.budgets = budgets;
    }

    /**
     * Why a job of a budgeted account waits for money: {@code BudgetExhausted} when it does not fit what is left of
     * the account's budget, {@code AllotmentExhausted} when it does not fit what is left of its owner's allotment
     * (both when neither fits); empty when it may go on to quota and capacity.
     */
    List<Reason> holdsBack(AdmissionRound.Job job) {
        AdmissionRound.Budget budget = budgets.accounts().get(job.account());
        Long projected = budgets.projected().get(job.job());
        if (budget == null || projected == null) {
            return List.of();
        }
        List<Reason> out = new ArrayList<>(2);
        long left = budget.remaining() - byAccount.getOrDefault(job.account(), 0L);
        if (!BudgetCheck.check(budget.policy(), left, projected).admit()) {
            out.add(ReasonCode.BudgetExhausted.reason(
                    "the job would cost " + Money.format(projected) + " " + budget.currency()
                            + " up to its time limit; the account has " + Money.format(left) + " left until "
                            + budget.periodEnds(),
                    numbers(left, projected, budget),
                    args(budget)));
        }
        AdmissionRound.Allotment allotment = budgets.allotments().get(job.member());
        if (allotment != null) {
            long own = allotment.remaining() - byMember.getOrDefault(job.member(), 0L);
            if (!BudgetCheck.check(budget.policy(), own, projected).admit()) {
                Map<String, Long> numbers = new HashMap<>(numbers(own, projected, budget));
                numbers.put("allotmentMicros", allotment.amount());
                out.add(ReasonCode.AllotmentExhausted.reason(
                        "the job would cost " + Money.format(projected) + " " + budget.currency()
                                + " up to its time limit; its owner has " + Money.format(own) + " left of their"
                                + " allotment of " + Money.format(allotment.amount()) + " until "
                                + budget.periodEnds(),
                        Map.copyOf(numbers),
                        args(budget)));
            }
        }
        return out;
    }

    /** A job admitted: what it would cost now counts against its account's budget and its owner's allotment. */
    void admitted(AdmissionRound.Job job) {
        Long projected = budgets.projected().get(job.job());
        if (projected != null) {
            byAccount.merge(job.account(), projected, Long::sum);
            byMember.merge(job.member(), projected, Long::sum);
        }
    }

    private static Map<String, Long> numbers(long left, long projected, AdmissionRound.Budget budget) {
        return Map.of(
                "remainingMicros", left,
                "projectedMicros", projected,
                "periodEndsEpochSeconds", budget.periodEnds().getEpochSecond());
    }

    private static Map<String, String> args(AdmissionRound.Budget budget) {
        return Map.of(
                "currency", budget.currency(), "periodEnds", budget.periodEnds().toString());
    }
}
