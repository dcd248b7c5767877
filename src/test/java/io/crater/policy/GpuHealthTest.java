package io.crater.policy;

import static io.crater.policy.GpuHealth.Kind.ECC_DBE;
import static io.crater.policy.GpuHealth.Kind.JOB_FAILED;
import static io.crater.policy.GpuHealth.Kind.XID;
import static io.crater.policy.GpuHealth.State.HEALTHY;
import static io.crater.policy.GpuHealth.State.QUARANTINED;
import static io.crater.policy.GpuHealth.State.SUSPECT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** GPU health: which evidence makes a node suspect or quarantined, when it decays, what a clear forgets. */
class GpuHealthTest {

    static final Instant NOW = Instant.parse("2026-12-02T12:00:00Z");
    /** Window 1 h, 2 hardware XIDs quarantine, 3 failed jobs make suspect, 6 quarantine. */
    static final GpuHealth.Rules RULES = GpuHealth.Rules.defaults();

    /** A node's stored state, its last clear and its evidence, built fluently. */
    static final class Case {
        final String name;
        GpuHealth.State current = HEALTHY;
        Instant clearedAt;
        final List<GpuHealth.Evidence> evidence = new ArrayList<>();
        GpuHealth.State want;
        List<String> wantCodes = List.of();
        Long wantCauseValue;

        Case(String name) {
            this.name = name;
        }

        Case now(GpuHealth.State s) {
            current = s;
            return this;
        }

        Case cleared(Duration ago) {
            clearedAt = NOW.minus(ago);
            return this;
        }

        Case xid(int gpu, long code, Duration ago) {
            evidence.add(new GpuHealth.Evidence(XID, NOW.minus(ago), gpu, code, "j" + evidence.size()));
            return this;
        }

        Case ecc(int gpu, long errors, Duration ago) {
            evidence.add(new GpuHealth.Evidence(ECC_DBE, NOW.minus(ago), gpu, errors, null));
            return this;
        }

        Case failed(String job, Duration ago) {
            evidence.add(new GpuHealth.Evidence(JOB_FAILED, NOW.minus(ago), null, 0, job));
            return this;
        }

        Case failures(int n, Duration ago) {
            for (int i = 0; i < n; i++) {
                failed("f" + i, ago);
            }
            return this;
        }

        Case want(GpuHealth.State s, String... codes) {
            want = s;
            wantCodes = List.of(codes);
            return this;
        }

        Case cause(long value) {
            wantCauseValue = value;
            return this;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static Duration min(long m) {
        return Duration.ofMinutes(m);
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                        new Case("no evidence: healthy").want(HEALTHY),
                        new Case("XID 79 (fallen off the bus) quarantines at once")
                                .xid(3, 79, min(1))
                                .want(QUARANTINED, "GpuXidFatal")
                                .cause(79),
                        new Case("XID 48 (double-bit ECC) quarantines")
                                .xid(0, 48, min(5))
                                .want(QUARANTINED, "GpuXidFatal"),
                        new Case("XID 95 (uncontained ECC) quarantines")
                                .xid(1, 95, min(5))
                                .want(QUARANTINED, "GpuXidFatal"),
                        new Case("XID 64 (row remapping failed) quarantines")
                                .xid(2, 64, min(5))
                                .want(QUARANTINED, "GpuXidFatal"),
                        new Case("XID 74 (NVLink) quarantines")
                                .xid(2, 74, min(5))
                                .want(QUARANTINED, "GpuXidFatal"),
                        new Case("a single XID 13 (application) stays healthy")
                                .xid(0, 13, min(2))
                                .want(HEALTHY, "GpuXidApplication"),
                        new Case("a single XID 31 (application page fault) stays healthy")
                                .xid(4, 31, min(2))
                                .want(HEALTHY, "GpuXidApplication"),
                        new Case("XID 43 several times stays healthy: application errors say nothing of the card")
                                .xid(0, 43, min(30))
                                .xid(0, 43, min(20))
                                .xid(0, 43, min(10))
                                .want(HEALTHY, "GpuXidApplication", "GpuXidApplication", "GpuXidApplication"),
                        new Case("one XID 94 (contained ECC) makes suspect")
                                .xid(5, 94, min(10))
                                .want(SUSPECT, "GpuXidHardware")
                                .cause(94),
                        new Case("one XID 63 (row remapping recorded) makes suspect")
                                .xid(5, 63, min(10))
                                .want(SUSPECT, "GpuXidHardware"),
                        new Case("an XID the table does not know makes suspect, never ignored")
                                .xid(1, 150, min(10))
                                .want(SUSPECT, "GpuXidHardware"),
                        new Case("two hardware XIDs within the window quarantine")
                                .xid(5, 92, min(50))
                                .xid(5, 94, min(5))
                                .want(QUARANTINED, "GpuXidRepeated")
                                .cause(94),
                        new Case("two hardware XIDs on different cards of the node count together")
                                .xid(1, 63, min(40))
                                .xid(6, 94, min(5))
                                .want(QUARANTINED, "GpuXidRepeated"),
                        new Case("a hardware XID older than the window has decayed: healthy")
                                .xid(5, 94, min(61))
                                .want(HEALTHY),
                        new Case("suspect decays back to healthy once its evidence leaves the window")
                                .now(SUSPECT)
                                .xid(5, 94, min(90))
                                .want(HEALTHY),
                        new Case("two hardware XIDs, one outside the window: suspect only")
                                .xid(5, 94, min(70))
                                .xid(5, 94, min(5))
                                .want(SUSPECT, "GpuXidHardware"),
                        new Case("one uncorrectable ECC error quarantines")
                                .ecc(2, 1, min(3))
                                .want(QUARANTINED, "GpuEccUncorrectable")
                                .cause(1),
                        new Case("two failed jobs: healthy").failures(2, min(5)).want(HEALTHY),
                        new Case("three failed jobs on the node make it suspect")
                                .failures(3, min(5))
                                .want(SUSPECT, "JobsFailingOnNode"),
                        new Case("the same job failing twice counts once")
                                .failed("a", min(20))
                                .failed("a", min(10))
                                .failed("b", min(5))
                                .want(HEALTHY),
                        new Case("six failed jobs quarantine")
                                .failures(6, min(5))
                                .want(QUARANTINED, "JobsFailingOnNode"),
                        new Case("failed jobs older than the window have decayed")
                                .failures(6, min(61))
                                .want(HEALTHY),
                        new Case("a hardware XID with repeated job failures quarantines")
                                .xid(5, 94, min(10))
                                .failures(3, min(5))
                                .want(QUARANTINED, "GpuXidHardware", "JobsFailingOnNode")
                                .cause(94),
                        new Case("an application XID with three failures is suspect for the failures alone")
                                .xid(0, 13, min(10))
                                .failures(3, min(5))
                                .want(SUSPECT, "JobsFailingOnNode", "GpuXidApplication"),
                        new Case("quarantined stays quarantined without fresh evidence: only a clear ends it")
                                .now(QUARANTINED)
                                .xid(3, 79, Duration.ofHours(30))
                                .want(QUARANTINED, "GpuXidFatal"),
                        new Case("quarantined stays quarantined even with no evidence left")
                                .now(QUARANTINED)
                                .want(QUARANTINED),
                        new Case("after a clear, the evidence before it is forgotten")
                                .xid(3, 79, min(10))
                                .cleared(min(5))
                                .want(HEALTHY),
                        new Case("after a clear, a new fatal XID quarantines again")
                                .xid(3, 79, min(10))
                                .cleared(min(5))
                                .xid(3, 79, min(1))
                                .want(QUARANTINED, "GpuXidFatal"),
                        new Case("the fatal XID is the cause, ahead of a hardware one before it")
                                .xid(5, 94, min(20))
                                .xid(3, 79, min(2))
                                .want(QUARANTINED, "GpuXidFatal", "GpuXidHardware")
                                .cause(79),
                        new Case("evidence dated after now is not counted")
                                .xid(3, 79, min(-5))
                                .want(HEALTHY))
                .map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void decides(Case c) {
        GpuHealth.Decision d = GpuHealth.decide(c.current, c.clearedAt, c.evidence, RULES, NOW);
        assertThat(d.state()).as("state").isEqualTo(c.want);
        assertThat(d.reasons().stream().map(Reason::code).toList())
                .as("reasons")
                .containsExactlyElementsOf(c.wantCodes);
        if (c.wantCauseValue != null) {
            assertThat(d.cause()).isNotNull();
            assertThat(d.cause().value()).as("cause").isEqualTo(c.wantCauseValue);
        }
        if (c.want == HEALTHY && c.wantCodes.isEmpty()) {
            assertThat(d.cause()).isNull();
        }
    }

    @Test
    void reasonsCarryTheCardTheCodeAndTheJob() {
        GpuHealth.Decision d = GpuHealth.decide(
                HEALTHY, null, List.of(new GpuHealth.Evidence(XID, NOW.minusSeconds(30), 3, 79, "ab12cd")), RULES, NOW);
        Reason r = d.reasons().get(0);
        assertThat(r.numbers()).containsEntry("gpu", 3L).containsEntry("xid", 79L);
        assertThat(r.args()).containsEntry("job", "ab12cd");
        assertThat(r.message()).isEqualTo("GPU 3 reported XID 79, which needs the card reset or replaced");
        assertThat(GpuHealth.faultMessage("a100-4", d.cause())).isEqualTo("GPU 3 on node a100-4 reported XID 79");
        GpuHealth.Decision repeated = GpuHealth.decide(
                HEALTHY,
                null,
                List.of(
                        new GpuHealth.Evidence(XID, NOW.minusSeconds(600), 5, 92, null),
                        new GpuHealth.Evidence(XID, NOW.minusSeconds(60), 5, 94, null)),
                RULES,
                NOW);
        assertThat(repeated.reasons().get(0).numbers())
                .containsEntry("count", 2L)
                .containsEntry("threshold", 2L)
                .containsEntry("windowSeconds", 3600L)
                .containsEntry("xid", 94L);
    }

    @Test
    void theClassificationFollowsNvidiasCatalogue() {
        for (int code : List.of(8, 11, 13, 31, 43, 45)) {
            assertThat(GpuHealth.classify(code)).as("XID " + code).isEqualTo(GpuHealth.XidClass.APPLICATION);
        }
        for (int code : List.of(48, 61, 62, 64, 74, 79, 95, 119, 120, 140)) {
            assertThat(GpuHealth.classify(code)).as("XID " + code).isEqualTo(GpuHealth.XidClass.FATAL);
        }
        for (int code : List.of(63, 92, 94, 999)) {
            assertThat(GpuHealth.classify(code)).as("XID " + code).isEqualTo(GpuHealth.XidClass.HARDWARE);
        }
    }

    static Stream<Arguments> observations() {
        GpuHealth.Mark none = null;
        GpuHealth.Mark clean = new GpuHealth.Mark(0L, 0L);
        GpuHealth.Mark xid79 = new GpuHealth.Mark(79L, 0L);
        GpuHealth.Mark dbe2 = new GpuHealth.Mark(0L, 2L);
        return Stream.of(
                Arguments.of("a first clean reading: no evidence", none, 0L, 0L, List.of(), clean),
                Arguments.of("a first reading with a standing XID counts it", none, 79L, 0L, List.of("XID=79"), xid79),
                Arguments.of("a new XID on a clean card", clean, 79L, 0L, List.of("XID=79"), xid79),
                Arguments.of("the same XID on the next scrape is the same event", xid79, 79L, 0L, List.of(), xid79),
                Arguments.of(
                        "a different XID is a new event",
                        xid79,
                        13L,
                        0L,
                        List.of("XID=13"),
                        new GpuHealth.Mark(13L, 0L)),
                Arguments.of("an XID back to 0 (a reset) only moves the mark", xid79, 0L, 0L, List.of(), clean),
                Arguments.of("a rise of the ECC count is as many errors", clean, 0L, 2L, List.of("ECC_DBE=2"), dbe2),
                Arguments.of(
                        "a further rise counts the difference",
                        dbe2,
                        0L,
                        5L,
                        List.of("ECC_DBE=3"),
                        new GpuHealth.Mark(0L, 5L)),
                Arguments.of("a fall of the ECC count is a counter reset", dbe2, 0L, 0L, List.of(), clean),
                Arguments.of("a reading the exporter lacks keeps the mark", xid79, null, null, List.of(), xid79));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("observations")
    void observes(String name, GpuHealth.Mark before, Long xid, Long dbe, List<String> want, GpuHealth.Mark after) {
        GpuHealth.Observation o = GpuHealth.observe(before, xid, dbe, 3, NOW, "ab12cd");
        assertThat(o.evidence().stream().map(e -> e.kind() + "=" + e.value()).toList())
                .containsExactlyElementsOf(want);
        o.evidence().forEach(e -> assertThat(e.gpu()).isEqualTo(3));
        assertThat(o.mark()).isEqualTo(after);
    }

    @Test
    void rulesRefuseNonsense() {
        assertThatThrownBy(() -> new GpuHealth.Rules(Duration.ZERO, 2, 3, 6))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new GpuHealth.Rules(Duration.ofHours(1), 0, 3, 6))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new GpuHealth.Rules(Duration.ofHours(1), 2, 4, 3))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
