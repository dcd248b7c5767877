package io.crater.identity;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The memory of verified access tokens never answers for a token that a full verification would refuse. */
class VerifiedTokensTest {

    static final TokenService.TokenUser ANA = new TokenService.TokenUser(7, "ana", "Ana", "user");

    @Test
    void aKnownTokenIsAnsweredUntilItExpiresPastTheSkew() {
        VerifiedTokens v = new VerifiedTokens(30, 10);
        v.remember("t", ANA, "k1", 1_000, 900);
        assertThat(v.get("t", 950, kid -> true)).isEqualTo(ANA);
        assertThat(v.get("t", 1_030, kid -> true)).as("within the skew").isEqualTo(ANA);
        assertThat(v.get("t", 1_031, kid -> true)).as("past it").isNull();
        assertThat(v.size()).as("an expired token is forgotten").isZero();
        assertThat(v.get("other", 950, kid -> true)).isNull();
    }

    @Test
    void aTokenOfARetiredKeyIsNotAnswered() {
        VerifiedTokens v = new VerifiedTokens(30, 10);
        v.remember("t", ANA, "k1", 1_000, 900);
        assertThat(v.get("t", 950, kid -> !kid.equals("k1"))).isNull();
        assertThat(v.get("t", 950, kid -> true))
                .as("forgotten: verified again next time")
                .isNull();
    }

    @Test
    void atCapacityTheExpiredGoFirstThenAll() {
        VerifiedTokens v = new VerifiedTokens(0, 3);
        v.remember("old", ANA, "k", 100, 50);
        v.remember("a", ANA, "k", 1_000, 50);
        v.remember("b", ANA, "k", 1_000, 50);
        v.remember("c", ANA, "k", 1_000, 200);
        assertThat(v.size()).as("the expired one made room").isEqualTo(3);
        assertThat(v.get("a", 200, kid -> true)).isEqualTo(ANA);
        v.remember("d", ANA, "k", 1_000, 200);
        assertThat(v.size())
                .as("none expired: all forgotten, then the new one kept")
                .isEqualTo(1);
        assertThat(v.get("d", 200, kid -> true)).isEqualTo(ANA);
    }
}
