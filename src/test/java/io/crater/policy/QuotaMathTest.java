package io.crater.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QuotaMathTest {

    static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
    static final String A100 = "nvidia-a100-80gb";

    static Map<String, QuotaLimit> quota(long guaranteed, long max) {
        return Map.of(A100, new QuotaLimit(A100, guaranteed * 1000, max * 1000));
    }

    static Resources gpus(long n) {
        return Resources.of(A100, n * 1000);
    }

    @Test
    void withinGuaranteedIsNotBorrowing() {
        var lines = QuotaMath.lines(quota(8, 16), List.of(), gpus(4), NOW);
        var check = QuotaMath.check(lines, MemberLimits.NONE, QuotaMath.MemberUsage.NONE, gpus(4), false);
        assertThat(check.fits()).isTrue();
        assertThat(check.borrowing()).isEmpty();
    }

    @Test
    void aboveGuaranteedUpToMaxBorrows() {
        var lines = QuotaMath.lines(quota(8, 16), List.of(), gpus(6), NOW);
        var check = QuotaMath.check(lines, MemberLimits.NONE, QuotaMath.MemberUsage.NONE, gpus(4), false);
        assertThat(check.fits()).isTrue();
        assertThat(check.borrowing()).containsExactly(A100);
        assertThat(lines.get(A100).borrowed()).isZero();
    }

    @Test
    void beyondMaxIsRefusedWithTheNumbers() {
        var lines = QuotaMath.lines(quota(8, 16), List.of(), gpus(14), NOW);
        var check = QuotaMath.check(lines, MemberLimits.NONE, QuotaMath.MemberUsage.NONE, gpus(4), false);
        assertThat(check.fits()).isFalse();
        Reason r = check.reasons().get(0);
        assertThat(r.code()).isEqualTo("AccountQuotaExceeded");
        assertThat(r.numbers())
                .containsEntry("requested", 4000L)
                .containsEntry("used", 14000L)
                .containsEntry("effectiveMax", 16000L);
        assertThat(r.message()).contains("18").contains("16");
    }

    @Test
    void anActiveGrantAddsToGuaranteedAndMaxOnlyInsideItsWindow() {
        Grant grant = new Grant(A100, 4000, NOW.minusSeconds(60), NOW.plusSeconds(3600));
        var during = QuotaMath.lines(quota(8, 16), List.of(grant), gpus(0), NOW).get(A100);
        assertThat(during.effectiveGuaranteed()).isEqualTo(12000);
        assertThat(during.effectiveMax()).isEqualTo(20000);
        var after = QuotaMath.lines(quota(8, 16), List.of(grant), gpus(0), NOW.plusSeconds(3600))
                .get(A100);
        assertThat(after.effectiveMax()).isEqualTo(16000);
        var before = QuotaMath.lines(quota(8, 16), List.of(grant), gpus(0), NOW.minusSeconds(120))
                .get(A100);
        assertThat(before.granted()).isZero();
    }

    @Test
    void lowerQuotaLeavesRunningUsageAsBorrowedNotAnError() {
        var lines = QuotaMath.lines(quota(2, 4), List.of(), gpus(8), NOW);
        assertThat(lines.get(A100).used()).isEqualTo(8000);
        assertThat(lines.get(A100).borrowed()).isEqualTo(6000);
        assertThat(lines.get(A100).headroom()).isZero();
        assertThat(QuotaMath.check(lines, MemberLimits.NONE, QuotaMath.MemberUsage.NONE, gpus(1), false)
                        .fits())
                .isFalse();
    }

    @Test
    void memberLimitsApplyWithOverridesOnTopOfTheDefault() {
        MemberLimits accountDefault = new MemberLimits(Map.of(A100, 4000L), 3, 1);
        MemberLimits override = new MemberLimits(Map.of(A100, 2000L), null, null);
        MemberLimits effective = MemberLimits.effective(accountDefault, override);
        assertThat(effective.resources()).containsEntry(A100, 2000L);
        assertThat(effective.maxRunningJobs()).isEqualTo(3);
        var lines = QuotaMath.lines(quota(8, 16), List.of(), gpus(0), NOW);
        var usage = new QuotaMath.MemberUsage(gpus(1), 1, 1);
        var check = QuotaMath.check(lines, effective, usage, gpus(2), true);
        assertThat(check.fits()).isFalse();
        assertThat(check.reasons())
                .extracting(Reason::code)
                .containsExactly("MemberLimitReached", "MemberLimitReached");
        assertThat(check.reasons().get(0).numbers())
                .containsEntry("limit", 2000L)
                .containsEntry("used", 1000L);
        assertThat(check.reasons().get(1).numbers()).containsEntry("sessions", 1L);
    }

    @Test
    void aResourceWithoutQuotaCannotBeUsed() {
        var lines = QuotaMath.lines(Map.of(), List.of(), Resources.NONE, NOW);
        var check = QuotaMath.check(lines, MemberLimits.NONE, QuotaMath.MemberUsage.NONE, gpus(1), false);
        assertThat(check.fits()).isFalse();
        assertThat(check.reasons().get(0).numbers()).containsEntry("effectiveMax", 0L);
    }
}
