package io.crater.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Admission over random job mixes, members and quotas: never beyond max + grants, never beyond a member's
 * limit, never beyond a node, every waiting job has a reason with numbers, borrowing marked exactly when above
 * guaranteed + grants.
 */
class AdmissionProperties {

    static final String MODEL = "nvidia-a100-80gb";
    static final String GPU = "nvidia.com/gpu";
    static final Map<String, String> SELECTOR = Map.of("gpu", "a100");

    record Ask(int member, int pods, int gpusPerPod) {}

    @Provide
    Arbitrary<List<Ask>> asks() {
        return Arbitraries.integers()
                .between(0, 2)
                .flatMap(m -> Arbitraries.integers()
                        .between(1, 3)
                        .flatMap(p -> Arbitraries.integers().between(0, 8).map(g -> new Ask(m, p, g))))
                .list()
                .ofMinSize(1)
                .ofMaxSize(40);
    }

    @Property(tries = 300)
    void admissionKeepsEveryPromise(
            @ForAll("asks") List<Ask> asks,
            @ForAll @IntRange(min = 0, max = 24) int guaranteed,
            @ForAll @IntRange(min = 0, max = 24) int extra,
            @ForAll @IntRange(min = 1, max = 16) int memberCap) {
        Map<String, QuotaLimit> quota =
                Map.of(MODEL, new QuotaLimit(MODEL, guaranteed * 1000L, (guaranteed + extra) * 1000L));
        List<NodeCapacity> nodes = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            nodes.add(new NodeCapacity(
                    "n" + i, SELECTOR, new Resources(Map.of("cpu", 64_000L, GPU, 8000L)), Resources.NONE, true));
        }
        MemberLimits limits = new MemberLimits(Map.of(MODEL, memberCap * 1000L), null, null);
        long used = 0;
        Map<Integer, Long> byMember = new HashMap<>();
        for (Ask ask : asks) {
            Resources request = Resources.of(MODEL, (long) ask.pods() * ask.gpusPerPod() * 1000);
            List<PodDemand> pods = new ArrayList<>();
            for (int p = 0; p < ask.pods(); p++) {
                pods.add(new PodDemand(
                        "p" + p, new Resources(Map.of("cpu", 1000L, GPU, ask.gpusPerPod() * 1000L)), SELECTOR));
            }
            Map<String, QuotaLine> lines = QuotaMath.lines(quota, List.of(), Resources.of(MODEL, used), Instant.EPOCH);
            long mine = byMember.getOrDefault(ask.member(), 0L);
            Admission.Decision d = Admission.decide(
                    lines,
                    limits,
                    new QuotaMath.MemberUsage(Resources.of(MODEL, mine), 0, 0),
                    request,
                    false,
                    nodes,
                    pods);
            switch (d.kind()) {
                case ADMIT -> {
                    used += request.get(MODEL);
                    byMember.merge(ask.member(), request.get(MODEL), Long::sum);
                    assertThat(used).isLessThanOrEqualTo((guaranteed + extra) * 1000L);
                    assertThat(byMember.get(ask.member())).isLessThanOrEqualTo(memberCap * 1000L);
                    // A job borrows a resource it asks for when it takes the account above guaranteed.
                    assertThat(d.borrowing().contains(MODEL))
                            .isEqualTo(request.get(MODEL) > 0 && used > guaranteed * 1000L);
                    Map<String, Resources> add = new HashMap<>();
                    pods.forEach(p -> add.merge(d.placement().get(p.name()), p.request(), Resources::plus));
                    nodes = nodes.stream()
                            .map(n -> add.containsKey(n.name())
                                    ? n.withUsed(n.used().plus(add.get(n.name())))
                                    : n)
                            .toList();
                    assertThat(nodes).allMatch(n -> n.used().fitsIn(n.allocatable()));
                }
                case QUEUE, REJECT -> {
                    assertThat(d.reasons()).isNotEmpty();
                    assertThat(d.reasons())
                            .allMatch(
                                    r -> !r.numbers().isEmpty() && !r.message().isBlank());
                    assertThat(d.placement()).isEmpty();
                }
            }
        }
    }

    /**
     * A submission's screen rejects exactly the jobs a whole decision would reject, with the same reasons, whatever the
     * quota and its usage (which the screen does not read); what it lets through waits with no reason of its own.
     */
    @Property(tries = 300)
    void theScreenRejectsExactlyWhatADecisionRejects(
            @ForAll @IntRange(min = 1, max = 3) int podCount,
            @ForAll @IntRange(min = 0, max = 12) int gpusPerPod,
            @ForAll @IntRange(min = 0, max = 64) int cpuPerPod,
            @ForAll @IntRange(min = 0, max = 24) int max,
            @ForAll @IntRange(min = 0, max = 24) int used,
            @ForAll boolean oneNodeCordoned) {
        List<NodeCapacity> nodes = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            nodes.add(new NodeCapacity(
                    "n" + i,
                    SELECTOR,
                    new Resources(Map.of("cpu", 32_000L, GPU, 8000L)),
                    Resources.NONE,
                    !(oneNodeCordoned && i == 0)));
        }
        List<PodDemand> pods = new ArrayList<>();
        for (int p = 0; p < podCount; p++) {
            pods.add(new PodDemand(
                    "p" + p, new Resources(Map.of("cpu", cpuPerPod * 1000L, GPU, gpusPerPod * 1000L)), SELECTOR));
        }
        Resources request = Resources.of(MODEL, (long) podCount * gpusPerPod * 1000);
        Map<String, QuotaLine> lines = QuotaMath.lines(
                Map.of(MODEL, new QuotaLimit(MODEL, 0, max * 1000L)),
                List.of(),
                Resources.of(MODEL, used * 1000L),
                Instant.EPOCH);
        Admission.Decision whole = Admission.decide(
                lines, new MemberLimits(Map.of(), null, null), QuotaMath.MemberUsage.NONE, request, false, nodes, pods);
        Admission.Decision screened = Admission.screen(nodes, pods);
        assertThat(screened.kind() == Admission.Kind.REJECT).isEqualTo(whole.kind() == Admission.Kind.REJECT);
        assertThat(Admission.decideBackfill(nodes, pods).kind() == Admission.Kind.REJECT)
                .isEqualTo(whole.kind() == Admission.Kind.REJECT);
        if (whole.kind() == Admission.Kind.REJECT) {
            assertThat(screened.reasons()).isEqualTo(whole.reasons());
        } else {
            assertThat(screened.kind()).isEqualTo(Admission.Kind.QUEUE);
            assertThat(screened.reasons()).isEmpty();
            assertThat(screened.placement()).isEmpty();
        }
    }

    /**
     * The memo changes no decision: the same line decided with and without it, clearing it on every admission as
     * admission does, gives the same kinds, reasons and placements.
     */
    @Property(tries = 300)
    void theMemoChangesNoDecision(
            @ForAll("asks") List<Ask> asks,
            @ForAll @IntRange(min = 0, max = 24) int guaranteed,
            @ForAll @IntRange(min = 0, max = 24) int extra,
            @ForAll @IntRange(min = 1, max = 16) int memberCap) {
        Map<String, QuotaLimit> quota =
                Map.of(MODEL, new QuotaLimit(MODEL, guaranteed * 1000L, (guaranteed + extra) * 1000L));
        MemberLimits limits = new MemberLimits(Map.of(MODEL, memberCap * 1000L), null, null);
        List<List<Admission.Decision>> runs = new ArrayList<>();
        for (boolean withMemo : List.of(false, true)) {
            DecisionMemo memo = new DecisionMemo();
            List<NodeCapacity> nodes = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                nodes.add(new NodeCapacity(
                        "n" + i, SELECTOR, new Resources(Map.of("cpu", 64_000L, GPU, 8000L)), Resources.NONE, true));
            }
            long used = 0;
            Map<Integer, Long> byMember = new HashMap<>();
            List<Admission.Decision> decisions = new ArrayList<>();
            // Every ask twice in a row, then the whole line again: repeats are what the memo answers.
            List<Ask> line = new ArrayList<>();
            asks.forEach(a -> {
                line.add(a);
                line.add(a);
            });
            line.addAll(asks);
            for (Ask ask : line) {
                Resources request = Resources.of(MODEL, (long) ask.pods() * ask.gpusPerPod() * 1000);
                List<PodDemand> pods = new ArrayList<>();
                for (int p = 0; p < ask.pods(); p++) {
                    pods.add(new PodDemand(
                            "p" + p, new Resources(Map.of("cpu", 1000L, GPU, ask.gpusPerPod() * 1000L)), SELECTOR));
                }
                Map<String, QuotaLine> lines =
                        QuotaMath.lines(quota, List.of(), Resources.of(MODEL, used), Instant.EPOCH);
                var usage =
                        new QuotaMath.MemberUsage(Resources.of(MODEL, byMember.getOrDefault(ask.member(), 0L)), 0, 0);
                List<NodeCapacity> state = nodes;
                java.util.function.Supplier<Admission.Decision> decide =
                        () -> Admission.decide(lines, limits, usage, request, false, state, pods);
                Admission.Decision d = withMemo
                        ? memo.decide(new DecisionMemo.Key(1, "m" + ask.member(), request, false, false, pods), decide)
                        : decide.get();
                decisions.add(d);
                if (d.kind() == Admission.Kind.ADMIT) {
                    memo.clear();
                    used += request.get(MODEL);
                    byMember.merge(ask.member(), request.get(MODEL), Long::sum);
                    Map<String, Resources> add = new HashMap<>();
                    pods.forEach(p -> add.merge(d.placement().get(p.name()), p.request(), Resources::plus));
                    nodes = nodes.stream()
                            .map(n -> add.containsKey(n.name())
                                    ? n.withUsed(n.used().plus(add.get(n.name())))
                                    : n)
                            .toList();
                }
            }
            // The second of a pair follows a decision that did not admit: it is answered from the memo.
            long pairsAfterNoAdmission = 0;
            for (int i = 0; i < 2 * asks.size(); i += 2) {
                pairsAfterNoAdmission += decisions.get(i).kind() == Admission.Kind.ADMIT ? 0 : 1;
            }
            if (withMemo) {
                assertThat(memo.hits()).isGreaterThanOrEqualTo(pairsAfterNoAdmission);
            }
            runs.add(decisions);
        }
        assertThat(runs.get(1)).isEqualTo(runs.get(0));
    }
}
