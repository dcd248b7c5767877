package io.crater.sim.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * How the simulated kubelet ends a container: at the end of its run time or at its deadline, whichever comes first,
 * however late it looks at the pod.
 */
class KubeletEndingTest {

    static final Instant START = Instant.parse("2026-12-07T10:00:00Z");

    static Stream<Arguments> cases() {
        return Stream.of(
                // run time (ms, null: not known ahead), deadline (s, null: none), looked at (ms after the start),
                // expected end (ms after the start, null: still running), killed at the deadline
                Arguments.of("runs on before its run time", 200L, 60L, 100L, null, false),
                Arguments.of("ends at its run time", 200L, 60L, 200L, 200L, false),
                Arguments.of("looked at late: still its own end", 200L, 60L, 90_000L, 200L, false),
                Arguments.of("looked at late without a deadline", 200L, null, 90_000L, 200L, false),
                Arguments.of("runs longer than its deadline: killed", 120_000L, 60L, 60_000L, 60_000L, true),
                Arguments.of("killed, looked at late", 120_000L, 60L, 90_000L, 60_000L, true),
                Arguments.of("before its deadline", 120_000L, 60L, 59_999L, null, false),
                Arguments.of("a tie goes to the deadline", 60_000L, 60L, 60_000L, 60_000L, true),
                Arguments.of("no run time known: only the deadline", null, 60L, 61_000L, 60_000L, true),
                Arguments.of("no run time, no deadline: runs on", null, null, 1_000_000L, null, false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void endsAtItsRunTimeOrItsDeadlineWhicheverComesFirst(
            String name, Long runMs, Long deadlineS, long nowMs, Long endMs, boolean killed) {
        Kubelet.Ending e = Kubelet.ending(
                START, runMs == null ? null : Duration.ofMillis(runMs), deadlineS, START.plusMillis(nowMs));
        if (endMs == null) {
            assertThat(e).isNull();
        } else {
            assertThat(e).isEqualTo(new Kubelet.Ending(START.plusMillis(endMs), killed));
        }
    }
}
