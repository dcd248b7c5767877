package io.crater.identity;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.factories.DefaultJWSVerifierFactory;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKMatcher;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.security.Key;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Set;

/**
 * Checks an ID token as OpenID Connect Core 3.1.3.7 asks: signed (RSA or EC, never {@code none} or a MAC) by a key of
 * the provider's JWKS, {@code iss} the issuer, {@code aud} Crater's client id ({@code azp} too when there are several
 * audiences), {@code exp} not passed and {@code iat} not in the future beyond the clock skew, {@code nonce} the one
 * sent. Nothing here calls anything: the caller brings the keys and the time.
 */
final class IdTokens {

    /** The asymmetric algorithms accepted. */
    static final Set<JWSAlgorithm> ALGORITHMS = Set.of(
            JWSAlgorithm.RS256,
            JWSAlgorithm.RS384,
            JWSAlgorithm.RS512,
            JWSAlgorithm.PS256,
            JWSAlgorithm.PS384,
            JWSAlgorithm.PS512,
            JWSAlgorithm.ES256,
            JWSAlgorithm.ES384,
            JWSAlgorithm.ES512);

    /** Why a token was refused; {@link #unknownKey} when no key of the set matches (the set may have rotated). */
    static final class Refused extends Exception {
        final boolean unknownKey;

        Refused(String message, boolean unknownKey) {
            super(message);
            this.unknownKey = unknownKey;
        }

        Refused(String message) {
            this(message, false);
        }
    }

    /** What a token must say. */
    record Expected(String issuer, String clientId, String nonce, Duration skew) {}

    private IdTokens() {}

    /** The token's claims, once every check passed. */
    static JWTClaimsSet validate(String token, JWKSet keys, Expected expected, Instant now) throws Refused {
        SignedJWT jwt;
        JWTClaimsSet claims;
        try {
            jwt = SignedJWT.parse(token);
            claims = jwt.getJWTClaimsSet();
        } catch (ParseException e) {
            throw new Refused("the ID token is not a signed JWT");
        }
        verifySignature(jwt, keys);
        if (!expected.issuer().equals(claims.getIssuer())) {
            throw new Refused(
                    "the ID token was issued by '" + claims.getIssuer() + "', not by '" + expected.issuer() + "'");
        }
        List<String> audience = claims.getAudience();
        if (audience == null || !audience.contains(expected.clientId())) {
            throw new Refused("the ID token is meant for " + audience + ", not for this client");
        }
        Object azp = claims.getClaim("azp");
        if ((audience.size() > 1 || azp != null) && !expected.clientId().equals(azp)) {
            throw new Refused("the ID token's authorized party (azp) is '" + azp + "', not this client");
        }
        checkTimes(claims.getExpirationTime(), claims.getIssueTime(), expected.skew(), now);
        Object nonce = claims.getClaim("nonce");
        if (!expected.nonce().equals(nonce)) {
            throw new Refused("the ID token's nonce is not the one this sign-in sent");
        }
        return claims;
    }

    private static void checkTimes(Date exp, Date iat, Duration skew, Instant now) throws Refused {
        if (exp == null || iat == null) {
            throw new Refused("the ID token has no expiry (exp) or issue time (iat)");
        }
        if (!exp.toInstant().plus(skew).isAfter(now)) {
            throw new Refused("the ID token expired at " + exp.toInstant());
        }
        if (iat.toInstant().minus(skew).isAfter(now)) {
            throw new Refused("the ID token is issued in the future (" + iat.toInstant() + ")");
        }
    }

    private static void verifySignature(SignedJWT jwt, JWKSet keys) throws Refused {
        JWSHeader header = jwt.getHeader();
        if (!ALGORITHMS.contains(header.getAlgorithm())) {
            throw new Refused("the ID token is signed with " + header.getAlgorithm() + ", which is not accepted");
        }
        List<JWK> candidates = new JWKSelector(new JWKMatcher.Builder()
                        .keyID(header.getKeyID())
                        .keyType(com.nimbusds.jose.jwk.KeyType.forAlgorithm(header.getAlgorithm()))
                        .keyUses(KeyUse.SIGNATURE, null)
                        .build())
                .select(keys);
        if (candidates.isEmpty()) {
            throw new Refused("no key of the provider matches the ID token's key id '" + header.getKeyID() + "'", true);
        }
        for (JWK jwk : candidates) {
            try {
                Key key = jwk.getKeyType().equals(com.nimbusds.jose.jwk.KeyType.RSA)
                        ? jwk.toRSAKey().toPublicKey()
                        : jwk.toECKey().toPublicKey();
                JWSVerifier verifier = new DefaultJWSVerifierFactory().createJWSVerifier(header, key);
                if (jwt.verify(verifier)) {
                    return;
                }
            } catch (JOSEException e) {
                // a key that cannot verify this algorithm: try the next one
            }
        }
        throw new Refused("the ID token's signature does not verify with the provider's keys");
    }
}
