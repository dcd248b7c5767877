package io.crater.policy;

import static io.crater.policy.DeviceGrant.Answer.ACCESS_DENIED;
import static io.crater.policy.DeviceGrant.Answer.AUTHORIZATION_PENDING;
import static io.crater.policy.DeviceGrant.Answer.EXPIRED_TOKEN;
import static io.crater.policy.DeviceGrant.Answer.INVALID_GRANT;
import static io.crater.policy.DeviceGrant.Answer.ISSUE;
import static io.crater.policy.DeviceGrant.Answer.SLOW_DOWN;
import static io.crater.policy.DeviceGrant.State.APPROVED;
import static io.crater.policy.DeviceGrant.State.DENIED;
import static io.crater.policy.DeviceGrant.State.ISSUED;
import static io.crater.policy.DeviceGrant.State.PENDING;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.HashSet;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class DeviceGrantTest {

    static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    static final Instant EXPIRES = T0.plusSeconds(600);

    static Stream<Arguments> polls() {
        return Stream.of(
                Arguments.of(
                        "first poll of a pending request",
                        PENDING,
                        null,
                        5,
                        T0.plusSeconds(1),
                        AUTHORIZATION_PENDING,
                        5),
                Arguments.of(
                        "pending, polled after the interval",
                        PENDING,
                        T0,
                        5,
                        T0.plusSeconds(5),
                        AUTHORIZATION_PENDING,
                        5),
                Arguments.of("pending, polled 1 s too soon", PENDING, T0, 5, T0.plusSeconds(4), SLOW_DOWN, 10),
                Arguments.of(
                        "pending, too soon again after a slow_down", PENDING, T0, 10, T0.plusSeconds(9), SLOW_DOWN, 15),
                Arguments.of(
                        "pending, at the grown interval",
                        PENDING,
                        T0,
                        10,
                        T0.plusSeconds(10),
                        AUTHORIZATION_PENDING,
                        10),
                Arguments.of("approved gets its token however soon", APPROVED, T0, 5, T0.plusMillis(10), ISSUE, 5),
                Arguments.of("denied", DENIED, T0, 5, T0.plusSeconds(6), ACCESS_DENIED, 5),
                Arguments.of(
                        "denied, polled too soon, is still denied", DENIED, T0, 5, T0.plusSeconds(1), ACCESS_DENIED, 5),
                Arguments.of("pending at its expiry", PENDING, T0, 5, EXPIRES, EXPIRED_TOKEN, 5),
                Arguments.of(
                        "approved but collected too late", APPROVED, T0, 5, EXPIRES.plusSeconds(1), EXPIRED_TOKEN, 5),
                Arguments.of("a spent code", ISSUED, T0, 5, T0.plusSeconds(30), INVALID_GRANT, 5),
                Arguments.of("a spent code after expiry", ISSUED, T0, 5, EXPIRES.plusSeconds(30), INVALID_GRANT, 5));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("polls")
    void aPollIsAnswered(
            String name,
            DeviceGrant.State state,
            Instant lastPolled,
            int interval,
            Instant now,
            DeviceGrant.Answer want,
            int wantInterval) {
        DeviceGrant.Decision d = DeviceGrant.poll(new DeviceGrant.Request(state, EXPIRES, lastPolled, interval), now);
        assertThat(d.answer()).isEqualTo(want);
        assertThat(d.intervalSeconds()).isEqualTo(wantInterval);
    }

    @Test
    void answersCarryTheirRfcErrorCodes() {
        assertThat(Stream.of(DeviceGrant.Answer.values()).map(DeviceGrant.Answer::error))
                .containsExactly(
                        "authorization_pending", "slow_down", "access_denied", "expired_token", "invalid_grant", null);
    }

    static Stream<Arguments> typed() {
        return Stream.of(
                Arguments.of("BCDF-GHJK", Optional.of("BCDFGHJK")),
                Arguments.of("bcdf-ghjk", Optional.of("BCDFGHJK")),
                Arguments.of("bcdfghjk", Optional.of("BCDFGHJK")),
                Arguments.of(" Bcdf ghjk\n", Optional.of("BCDFGHJK")),
                Arguments.of("BCDF\u2013GHJK", Optional.of("BCDFGHJK")),
                Arguments.of("BCDF-GHJ", Optional.empty()),
                Arguments.of("BCDF-GHJKL", Optional.empty()),
                Arguments.of("BCDF-GHJA", Optional.empty()),
                Arguments.of("BCDF-GHJ1", Optional.empty()),
                Arguments.of("BCDF_GHJK", Optional.empty()),
                Arguments.of("", Optional.empty()),
                Arguments.of(null, Optional.empty()),
                Arguments.of("B-".repeat(40), Optional.empty()));
    }

    @ParameterizedTest(name = "\"{0}\" reads as {1}")
    @MethodSource("typed")
    void typedCodesAreNormalised(String typed, Optional<String> want) {
        assertThat(DeviceGrant.normalise(typed)).isEqualTo(want);
    }

    @Test
    void newCodesUseTheAlphabetAndReadBackThroughTheirDisplay() {
        Random random = new Random(42);
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            String code = DeviceGrant.newUserCode(random);
            assertThat(code).hasSize(8).matches("[BCDFGHJKLMNPQRSTVWXZ]{8}");
            String shown = DeviceGrant.display(code);
            assertThat(shown).matches("[A-Z]{4}-[A-Z]{4}");
            assertThat(DeviceGrant.normalise(shown)).contains(code);
            assertThat(DeviceGrant.normalise(shown.toLowerCase())).contains(code);
            seen.add(code);
        }
        assertThat(seen).as("1000 draws of 20^8 codes").hasSizeGreaterThan(995);
        assertThat(DeviceGrant.ALPHABET.chars().distinct().count()).isEqualTo(20);
        assertThat(DeviceGrant.ALPHABET).doesNotContainPattern("[AEIOUY01]");
    }

    @Test
    void onlyAPendingUnexpiredRequestIsOpen() {
        assertThat(DeviceGrant.open(PENDING, EXPIRES, EXPIRES.minusMillis(1))).isTrue();
        assertThat(DeviceGrant.open(PENDING, EXPIRES, EXPIRES)).isFalse();
        assertThat(DeviceGrant.open(APPROVED, EXPIRES, T0)).isFalse();
        assertThat(DeviceGrant.open(DENIED, EXPIRES, T0)).isFalse();
        assertThat(DeviceGrant.open(ISSUED, EXPIRES, T0)).isFalse();
    }
}
