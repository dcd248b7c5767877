package io.crater.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Whole rounds over random fleets, accounts (guarantee, max, grants, usage) and waiting lines (gangs, two models,
 * priorities, ages, backfill): no round admits beyond an account's max + grants or beyond a node's allocatable,
 * every job that keeps waiting has a reason, and an admission is marked borrowing exactly when it takes its
 * account above guarantee + grants.
 */
class AdmissionRoundProperties {

    static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
    static final String[] MODELS = {"nvidia-a100-80gb", "nvidia-h100-80gb"};
    static final String GPU = "nvidia.com/gpu";
    static final String LABEL = "nvidia.com/gpu.product";

    record AccountSpec(int guaranteed, int extra, int granted, int used) {}

    record JobSpec(int account, int model, int pods, int gpusPerPod, int priority, int minutesAgo, boolean backfill) {}

    record NodeSpec(int model, int gpus, int used) {}

    @Provide
    Arbitrary<List<AccountSpec>> accounts() {
        return Combinators.combine(
                        Arbitraries.integers().between(0, 16),
                        Arbitraries.integers().between(0, 16),
                        Arbitraries.integers().between(0, 4),
                        Arbitraries.integers().between(0, 12))
                .as(AccountSpec::new)
                .list()
                .ofMinSize(1)
                .ofMaxSize(4);
    }

    @Provide
    Arbitrary<List<JobSpec>> jobs() {
        return Combinators.combine(
                        Arbitraries.integers().between(0, 3),
                        Arbitraries.integers().between(0, 1),
                        Arbitraries.integers().between(1, 3),
                        Arbitraries.integers().between(0, 8),
                        Arbitraries.integers().between(0, 2),
                        Arbitraries.integers().between(0, 90),
                        Arbitraries.of(false, false, false, true))
                .as(JobSpec::new)
                .list()
                .ofMinSize(1)
                .ofMaxSize(30);
    }

    @Provide
    Arbitrary<List<NodeSpec>> nodes() {
        return Combinators.combine(
                        Arbitraries.integers().between(0, 1),
                        Arbitraries.of(4, 8),
                        Arbitraries.integers().between(0, 8))
                .as((m, g, u) -> new NodeSpec(m, g, Math.min(g, u)))
                .list()
                .ofMinSize(1)
                .ofMaxSize(6);
    }

    @Property(tries = 400)
    void noRoundAdmitsBeyondQuotaOrCapacity(
            @ForAll("accounts") List<AccountSpec> accountSpecs,
            @ForAll("jobs") List<JobSpec> jobSpecs,
            @ForAll("nodes") List<NodeSpec> nodeSpecs) {
        List<NodeCapacity> nodes = new ArrayList<>();
        for (int i = 0; i < nodeSpecs.size(); i++) {
            NodeSpec n = nodeSpecs.get(i);
            nodes.add(new NodeCapacity(
                    "n" + i,
                    Map.of(LABEL, MODELS[n.model()]),
                    Resources.of(GPU, n.gpus() * 1000L),
                    Resources.of(GPU, n.used() * 1000L),
                    true));
        }
        Map<Long, Map<String, QuotaLine>> accounts = new HashMap<>();
        for (int a = 0; a < accountSpecs.size(); a++) {
            AccountSpec s = accountSpecs.get(a);
            Map<String, QuotaLine> lines = new HashMap<>();
            for (String m : MODELS) {
                lines.put(
                        m,
                        new QuotaLine(
                                m,
                                s.guaranteed() * 1000L,
                                (s.guaranteed() + s.extra()) * 1000L,
                                s.granted() * 1000L,
                                m.equals(MODELS[0]) ? s.used() * 1000L : 0));
            }
            accounts.put((long) a, lines);
        }
        List<AdmissionRound.Job> queued = new ArrayList<>();
        for (int i = 0; i < jobSpecs.size(); i++) {
            JobSpec j = jobSpecs.get(i);
            long account = j.account() % accountSpecs.size();
            String model = MODELS[j.model()];
            List<PodDemand> pods = new ArrayList<>();
            for (int p = 0; p < j.pods(); p++) {
                pods.add(new PodDemand("pod-" + p, Resources.of(GPU, j.gpusPerPod() * 1000L), Map.of(LABEL, model)));
            }
            queued.add(new AdmissionRound.Job(
                    "j" + i,
                    i + 1,
                    account,
                    account + "/1",
                    j.priority(),
                    NOW.minus(Duration.ofMinutes(j.minutesAgo())),
                    false,
                    j.backfill(),
                    Resources.of(model, (long) j.pods() * j.gpusPerPod() * 1000),
                    pods,
                    null));
        }
        AdmissionRound.Snapshot snapshot = new AdmissionRound.Snapshot(
                NOW, Duration.ofMinutes(30), nodes, List.of(), accounts, AdmissionRound.Limits.NONE, Map.of(), queued);

        AdmissionRound.Outcome out = AdmissionRound.run(snapshot);

        // Never beyond max + grants: what the round admitted, added to what was used, stays within (unless the
        // account was already above before the round, when nothing more of that resource may be admitted).
        Map<Long, Map<String, Long>> admitted = new HashMap<>();
        for (AdmissionRound.Decided d : out.admitted()) {
            if (!d.job().backfill()) {
                d.job()
                        .quota()
                        .amounts()
                        .forEach((res, amount) -> admitted.computeIfAbsent(
                                        d.job().account(), k -> new HashMap<>())
                                .merge(res, amount, Long::sum));
            }
        }
        admitted.forEach((account, byResource) -> byResource.forEach((res, amount) -> {
            QuotaLine before = accounts.get(account).get(res);
            if (amount > 0) {
                assertThat(before.used() + amount)
                        .as("account %d %s", account, res)
                        .isLessThanOrEqualTo(before.effectiveMax());
            }
        }));
        // Never beyond a node: the placements of the round's admissions fit what the nodes had free.
        Map<String, Long> placed = new HashMap<>();
        for (AdmissionRound.Decided d : out.admitted()) {
            for (PodDemand p : d.job().pods()) {
                placed.merge(d.placement().get(p.name()), p.request().get(GPU), Long::sum);
            }
        }
        for (NodeCapacity n : nodes) {
            assertThat(n.used().get(GPU) + placed.getOrDefault(n.name(), 0L))
                    .as("node %s", n.name())
                    .isLessThanOrEqualTo(n.allocatable().get(GPU));
        }
        // Every job is decided or waits with a reason.
        assertThat(out.decided().size() + out.waiting().size()).isEqualTo(queued.size());
        out.waiting().values().forEach(r -> assertThat(r).isNotEmpty());
        // Borrowing exactly when the account goes above guarantee + grants, in decision order.
        Map<Long, Map<String, Long>> used = new HashMap<>();
        accounts.forEach((a, lines) -> lines.forEach(
                (res, l) -> used.computeIfAbsent(a, k -> new HashMap<>()).put(res, l.used())));
        for (AdmissionRound.Decided d : out.admitted()) {
            if (d.job().backfill()) {
                assertThat(d.borrowing()).isEmpty();
                continue;
            }
            List<String> above = new ArrayList<>();
            for (Map.Entry<String, Long> e : d.job().quota().amounts().entrySet()) {
                long after = used.get(d.job().account()).merge(e.getKey(), e.getValue(), Long::sum);
                if (e.getValue() > 0
                        && after
                                > accounts.get(d.job().account())
                                        .get(e.getKey())
                                        .effectiveGuaranteed()) {
                    above.add(e.getKey());
                }
            }
            assertThat(d.borrowing()).as("borrowing of %s", d.job().job()).containsExactlyInAnyOrderElementsOf(above);
        }
    }
}
