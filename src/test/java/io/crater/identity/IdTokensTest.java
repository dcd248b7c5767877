package io.crater.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The checks of an ID token, each one failing alone, with keys made here and an explicit time. */
class IdTokensTest {

    static final String ISSUER = "https://sso.example.org";
    static final String CLIENT = "crater";
    static final Instant NOW = Instant.parse("2026-12-02T08:00:00Z");
    static final IdTokens.Expected EXPECTED = new IdTokens.Expected(ISSUER, CLIENT, "n-1", Duration.ofSeconds(60));

    static RSAKey key;
    static RSAKey other;
    static JWKSet keys;

    @BeforeAll
    static void keys() throws Exception {
        key = new RSAKeyGenerator(2048).keyID("k1").generate();
        other = new RSAKeyGenerator(2048).keyID("k1").generate();
        keys = new JWKSet(key.toPublicJWK());
    }

    static JWTClaimsSet.Builder claims() {
        return new JWTClaimsSet.Builder()
                .issuer(ISSUER)
                .subject("u-1")
                .audience(CLIENT)
                .issueTime(Date.from(NOW.minusSeconds(10)))
                .expirationTime(Date.from(NOW.plusSeconds(300)))
                .claim("nonce", "n-1");
    }

    static String signed(RSAKey with, String kid, UnaryOperator<JWTClaimsSet.Builder> change) throws Exception {
        SignedJWT jwt = new SignedJWT(
                new JWSHeader.Builder(JWSAlgorithm.RS256)
                        .keyID(kid)
                        .type(JOSEObjectType.JWT)
                        .build(),
                change.apply(claims()).build());
        jwt.sign(new RSASSASigner(with));
        return jwt.serialize();
    }

    static String token(UnaryOperator<JWTClaimsSet.Builder> change) throws Exception {
        return signed(key, "k1", change);
    }

    static void refused(String token, String why) {
        assertThatThrownBy(() -> IdTokens.validate(token, keys, EXPECTED, NOW))
                .isInstanceOf(IdTokens.Refused.class)
                .hasMessageContaining(why);
    }

    @Test
    void aTokenThatSaysWhatItMustIsAccepted() throws Exception {
        assertThat(IdTokens.validate(token(c -> c), keys, EXPECTED, NOW).getSubject())
                .isEqualTo("u-1");
        assertThat(IdTokens.validate(
                                token(c -> c.audience(List.of(CLIENT, "api")).claim("azp", CLIENT)),
                                keys,
                                EXPECTED,
                                NOW)
                        .getSubject())
                .as("several audiences with Crater as the authorized party")
                .isEqualTo("u-1");
        assertThat(IdTokens.validate(
                        token(c -> c.expirationTime(Date.from(NOW.minusSeconds(30)))), keys, EXPECTED, NOW))
                .as("expired 30 s ago, within the 60 s skew")
                .isNotNull();
    }

    @Test
    void eachCheckRefusesOnItsOwn() throws Exception {
        refused(signed(other, "k1", c -> c), "signature does not verify");
        String good = token(c -> c);
        String[] parts = good.split("\\.");
        refused(parts[0] + "." + token(c -> c.subject("admin")).split("\\.")[1] + "." + parts[2], "signature");
        refused(token(c -> c.issuer("https://evil.example.org")), "issued by");
        refused(token(c -> c.audience("someone-else")), "not for this client");
        refused(token(c -> c.audience(List.of(CLIENT, "api"))), "authorized party");
        refused(token(c -> c.expirationTime(Date.from(NOW.minusSeconds(61)))), "expired");
        refused(token(c -> c.issueTime(Date.from(NOW.plusSeconds(120)))), "in the future");
        refused(token(c -> c.expirationTime(null)), "no expiry");
        refused(token(c -> c.claim("nonce", "n-2")), "nonce");
        refused(token(c -> c.claim("nonce", null)), "nonce");
        refused("not-a-jwt", "not a signed JWT");
        refused(new PlainJWT(claims().build()).serialize(), "not a signed JWT");
    }

    @Test
    void aMacOrAnUnknownKeyIsRefusedAndAnUnknownKeyIdSaysSo() throws Exception {
        SignedJWT mac = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims().build());
        mac.sign(new MACSigner("a-shared-secret-of-at-least-32-bytes!!"));
        refused(mac.serialize(), "HS256");
        RSAKey next = new RSAKeyGenerator(2048).keyID("k2").generate();
        String rotated = signed(next, "k2", c -> c);
        assertThatThrownBy(() -> IdTokens.validate(rotated, keys, EXPECTED, NOW))
                .isInstanceOfSatisfying(
                        IdTokens.Refused.class, e -> assertThat(e.unknownKey).isTrue());
        JWKSet after = new JWKSet(List.of(key.toPublicJWK(), next.toPublicJWK()));
        assertThat(IdTokens.validate(rotated, after, EXPECTED, NOW).getSubject())
                .as("once the provider's set has the new key")
                .isEqualTo("u-1");
    }
}
