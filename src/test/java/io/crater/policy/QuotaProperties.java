package io.crater.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** Whatever jobs arrive and end and however the quota changes, admission keeps the quota's promises. */
class QuotaProperties {

    static final String GPU = "nvidia-a100-80gb";
    static final Instant T0 = Instant.parse("2026-11-29T00:00:00Z");

    record Step(int kind, int gpus, int minutes) {}

    record Admitted(long gpus, boolean borrowing) {}

    @Provide
    Arbitrary<List<Step>> steps() {
        Arbitrary<Step> step = Arbitraries.integers()
                .between(0, 9)
                .flatMap(kind -> Arbitraries.integers()
                        .between(1, 8)
                        .flatMap(g -> Arbitraries.integers().between(0, 120).map(m -> new Step(kind, g, m))));
        return step.list().ofMinSize(1).ofMaxSize(80);
    }

    @Property(tries = 300)
    void admittedJobsKeepWithinTheQuota(
            @ForAll("steps") List<Step> steps,
            @ForAll @IntRange(min = 0, max = 16) int guaranteed,
            @ForAll @IntRange(min = 0, max = 16) int extra) {
        Map<String, QuotaLimit> quota =
                Map.of(GPU, new QuotaLimit(GPU, guaranteed * 1000L, (guaranteed + extra) * 1000L));
        List<Grant> grants = new ArrayList<>();
        List<Admitted> running = new ArrayList<>();
        Instant now = T0;
        for (Step s : steps) {
            now = now.plusSeconds(s.minutes() * 60L);
            if (s.kind() == 0 && !running.isEmpty()) {
                running.remove(0);
            } else if (s.kind() == 1) {
                grants.add(new Grant(GPU, s.gpus() * 1000L, now, now.plusSeconds(1800)));
            } else if (s.kind() == 2) {
                // Lowering max (a new quota) never makes a running job illegal: it only becomes borrowing.
                long max = Math.max(0, quota.get(GPU).max() - s.gpus() * 1000L);
                quota = Map.of(GPU, new QuotaLimit(GPU, Math.min(quota.get(GPU).guaranteed(), max), max));
                Resources used = Resources.of(
                        GPU, running.stream().mapToLong(Admitted::gpus).sum());
                QuotaLine line = QuotaMath.lines(quota, grants, used, now).get(GPU);
                assertThat(line.used()).isEqualTo(used.get(GPU));
                assertThat(line.borrowed()).isEqualTo(Math.max(0, line.used() - line.effectiveGuaranteed()));
            } else {
                Resources used = Resources.of(
                        GPU, running.stream().mapToLong(Admitted::gpus).sum());
                Map<String, QuotaLine> lines = QuotaMath.lines(quota, grants, used, now);
                Resources request = Resources.of(GPU, s.gpus() * 1000L);
                QuotaMath.Check check =
                        QuotaMath.check(lines, MemberLimits.NONE, QuotaMath.MemberUsage.NONE, request, false);
                QuotaLine line = lines.getOrDefault(GPU, new QuotaLine(GPU, 0, 0, 0, 0));
                if (check.fits()) {
                    long total = used.get(GPU) + request.get(GPU);
                    assertThat(total).as("total within max + active grants").isLessThanOrEqualTo(line.effectiveMax());
                    boolean borrowing = check.borrowing().contains(GPU);
                    assertThat(borrowing).isEqualTo(total > line.effectiveGuaranteed());
                    running.add(new Admitted(request.get(GPU), borrowing));
                    // A job admitted without borrowing fits in guaranteed + grants at the time it is admitted.
                    if (!borrowing) {
                        assertThat(total).isLessThanOrEqualTo(line.effectiveGuaranteed());
                    }
                } else {
                    assertThat(used.get(GPU) + request.get(GPU)).isGreaterThan(line.effectiveMax());
                    assertThat(check.reasons())
                            .isNotEmpty()
                            .allMatch(r -> r.code().equals("AccountQuotaExceeded"));
                }
            }
        }
    }

    @Property(tries = 300)
    void aGrantCountsOnlyInsideItsWindow(
            @ForAll @IntRange(min = 1, max = 64) int amount, @ForAll @IntRange(min = -7200, max = 7200) int offset) {
        Instant start = T0;
        Instant end = T0.plusSeconds(3600);
        Instant at = T0.plusSeconds(offset);
        QuotaLine line = QuotaMath.lines(
                        Map.of(), List.of(new Grant(GPU, amount * 1000L, start, end)), Resources.NONE, at)
                .getOrDefault(GPU, new QuotaLine(GPU, 0, 0, 0, 0));
        boolean inside = !at.isBefore(start) && at.isBefore(end);
        assertThat(line.granted()).isEqualTo(inside ? amount * 1000L : 0);
        assertThat(line.effectiveMax()).isEqualTo(line.granted());
    }
}
