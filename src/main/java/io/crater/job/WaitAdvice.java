package io.crater.job;

import io.crater.cluster.AcceleratorCatalogue;
import io.crater.cluster.AcceleratorModel;
import io.crater.job.JobViews.Suggestion;
import io.crater.platform.Json;
import io.crater.policy.Admission;
import io.crater.policy.Forecast;
import io.crater.policy.MemberLimits;
import io.crater.policy.Quantities;
import io.crater.policy.QuotaLine;
import io.crater.policy.QuotaMath;
import io.crater.policy.Reason;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What would make a waiting job start now, asked of admission's own rule on the same snapshot: fewer
 * accelerators per pod, another accelerator model that is free, or a quota grant of the shortfall (which an
 * account admin approves).
 */
@ApplicationScoped
public class WaitAdvice {

    @Inject
    AcceleratorCatalogue catalogue;

    @Inject
    JobsConfig config;

    List<Suggestion> suggest(JobRow job, JobSpecs.Checked checked, Forecast.Snapshot s, List<Reason> reasons) {
        List<Suggestion> out = new ArrayList<>();
        JobViews.SubmitJob spec = Json.read(job.specJson(), JobViews.SubmitJob.class);
        JobInputs.Accelerator model = checked.spec().accelerator();
        int count = checked.spec().acceleratorsPerPod();
        if (model != null && count > 1) {
            fewerAccelerators(job, spec, model, count, s, out);
        }
        if (model != null && count > 0) {
            otherModels(job, spec, model, count, s, out);
        }
        boolean quotaBound = reasons.stream()
                .anyMatch(
                        r -> r.code().equals("AccountQuotaExceeded") || r.code().equals("MemberLimitReached"));
        JobKind kind = checked.spec().kind();
        if (quotaBound
                && !checked.backfill()
                && (kind == JobKind.CUSTOM || kind == JobKind.PYTORCH)
                && Admission.decideBackfill(s.nodes(), checked.pods()).kind() == Admission.Kind.ADMIT) {
            out.add(new Suggestion(
                    "RunAsBackfill",
                    "the cluster has room now: as a backfill job (outside the quota, stopped first when a job within"
                            + " its quota needs the room) it would start now",
                    Map.of("backfill", true),
                    Map.of()));
        }
        grants(job, checked, s, out);
        return out;
    }

    /** The most accelerators per pod, fewer than asked for, with which the job would start now. */
    private void fewerAccelerators(
            JobRow job,
            JobViews.SubmitJob spec,
            JobInputs.Accelerator model,
            int count,
            Forecast.Snapshot s,
            List<Suggestion> out) {
        for (int k = count - 1; k >= 1; k--) {
            if (admits(job, variant(spec, model.model(), k), s)) {
                out.add(new Suggestion(
                        "FewerAccelerators",
                        "with " + k + " instead of " + count + " " + model.model() + " per pod it would start now",
                        Map.of("resources.accelerators", k),
                        Map.of("requested", (long) count, "startsNowWith", (long) k)));
                return;
            }
        }
    }

    /** Every other unrestricted model with which the job would start now. */
    private void otherModels(
            JobRow job,
            JobViews.SubmitJob spec,
            JobInputs.Accelerator model,
            int count,
            Forecast.Snapshot s,
            List<Suggestion> out) {
        for (AcceleratorModel other : catalogue.models()) {
            if (other.key().equals(model.model()) || other.restricted()) {
                continue;
            }
            if (admits(job, variant(spec, other.key(), count), s)) {
                out.add(new Suggestion(
                        "OtherModel",
                        count + " " + other.displayName() + " per pod are free now: with that model it would start now",
                        Map.of("resources.acceleratorModel", other.key()),
                        Map.of("accelerators", (long) count)));
            }
        }
    }

    /** A grant per resource the job's account lacks, of exactly the shortfall. */
    private static void grants(JobRow job, JobSpecs.Checked checked, Forecast.Snapshot s, List<Suggestion> out) {
        Map<String, QuotaLine> lines = s.accounts().getOrDefault(job.accountId(), Map.of());
        checked.quotaRequest().amounts().forEach((res, want) -> {
            QuotaLine l = lines.getOrDefault(res, new QuotaLine(res, 0, 0, 0, 0));
            long shortfall = l.used() + want - l.effectiveMax();
            if (shortfall > 0) {
                out.add(new Suggestion(
                        "RequestGrant",
                        "a grant of " + Quantities.format(shortfall) + " " + res
                                + " to the account would lift its quota enough (an account admin approves it)",
                        Map.of("resource", res, "amount", Quantities.format(shortfall)),
                        Map.of("shortfall", shortfall, "used", l.used(), "effectiveMax", l.effectiveMax())));
            }
        });
    }

    private static JobViews.SubmitJob variant(JobViews.SubmitJob spec, String model, int accelerators) {
        JobViews.PodResources r = spec.resources();
        JobViews.PodResources changed = new JobViews.PodResources(
                r == null ? null : r.cpu(),
                r == null ? null : r.memory(),
                model,
                accelerators,
                r == null ? null : r.sharedMemory());
        var tree = (com.fasterxml.jackson.databind.node.ObjectNode) Json.tree(spec);
        tree.set("resources", Json.tree(changed));
        return Json.convert(tree, JobViews.SubmitJob.class);
    }

    /** Whether admission would start the variant now, on the same snapshot. */
    private boolean admits(JobRow job, JobViews.SubmitJob variant, Forecast.Snapshot s) {
        JobSpecs.Checked c;
        try {
            c = JobSpecs.check(variant, catalogue.models(), config).forAccount(job.accountId());
        } catch (RuntimeException e) {
            return false;
        }
        String member = job.accountId() + "/" + job.userId();
        Admission.Decision d = Admission.decide(
                s.accounts().getOrDefault(job.accountId(), Map.of()),
                s.limits().getOrDefault(member, MemberLimits.NONE),
                s.usage().getOrDefault(member, QuotaMath.MemberUsage.NONE),
                c.quotaRequest(),
                job.interactive(),
                s.nodes(),
                c.pods());
        return d.kind() == Admission.Kind.ADMIT;
    }
}
