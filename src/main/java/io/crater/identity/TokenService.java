package io.crater.identity;

import io.smallrye.jwt.build.Jwt;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.security.Key;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import org.jose4j.jwa.AlgorithmConstraints;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.MalformedClaimException;
import org.jose4j.jwt.consumer.InvalidJwtException;
import org.jose4j.jwt.consumer.JwtConsumer;
import org.jose4j.jwt.consumer.JwtConsumerBuilder;
import org.jose4j.lang.UnresolvableKeyException;

/** Issues and verifies Crater's RS256 access tokens. */
@ApplicationScoped
public class TokenService {

    static final String ISSUER = "crater";
    static final String AUDIENCE = "crater-api";

    /** Who a verified token speaks for. */
    public record TokenUser(long id, String username, String displayName, String role) {}

    /** A signed token and its lifetime in seconds. */
    public record IssuedToken(String token, long expiresIn) {}

    @Inject
    SigningKeys keys;

    @Inject
    AuthConfig config;

    @Inject
    Clock clock;

    /** How far past its expiry a token is still taken (clocks of replicas and clients differ a little). */
    static final int SKEW_SECONDS = 30;

    private final VerifiedTokens verified = new VerifiedTokens(SKEW_SECONDS, 20_000);

    public IssuedToken issue(UserEntity user) {
        SigningKeys.Active key = keys.active();
        long lifetime = config.accessTokenLifetime().toSeconds();
        String token = Jwt.issuer(ISSUER)
                .audience(AUDIENCE)
                .subject(Long.toString(user.id))
                .upn(user.username)
                .claim("name", user.displayName)
                .groups(Set.of(user.role))
                .expiresIn(lifetime)
                .jws()
                .keyId(key.kid())
                .algorithm(io.smallrye.jwt.algorithm.SignatureAlgorithm.RS256)
                .sign(key.privateKey());
        return new IssuedToken(token, lifetime);
    }

    /** Verifies signature, issuer, audience and expiry; throws {@link InvalidTokenException} otherwise. */
    public TokenUser verify(String token) {
        long now = clock.instant().getEpochSecond();
        TokenUser known = verified.get(token, now, kid -> keys.publicKey(kid) != null);
        if (known != null) {
            return known;
        }
        JwtConsumer consumer = new JwtConsumerBuilder()
                .setRequireExpirationTime()
                .setRequireSubject()
                .setAllowedClockSkewInSeconds(SKEW_SECONDS)
                .setExpectedIssuer(ISSUER)
                .setExpectedAudience(AUDIENCE)
                .setJwsAlgorithmConstraints(AlgorithmConstraints.ConstraintType.PERMIT, "RS256")
                .setVerificationKeyResolver((jws, nested) -> {
                    Key key = keys.publicKey(jws.getKeyIdHeaderValue());
                    if (key == null) {
                        throw new UnresolvableKeyException("unknown key id");
                    }
                    return key;
                })
                .build();
        try {
            var jwt = consumer.process(token);
            JwtClaims claims = jwt.getJwtClaims();
            List<String> groups = claims.getStringListClaimValue("groups");
            TokenUser user = new TokenUser(
                    Long.parseLong(claims.getSubject()),
                    claims.getStringClaimValue("upn"),
                    claims.getStringClaimValue("name"),
                    groups.isEmpty() ? "user" : groups.get(0));
            verified.remember(
                    token,
                    user,
                    jwt.getJoseObjects().get(0).getKeyIdHeaderValue(),
                    claims.getExpirationTime().getValue(),
                    now);
            return user;
        } catch (InvalidJwtException | MalformedClaimException | NumberFormatException e) {
            throw new InvalidTokenException();
        }
    }

    /** The token is not one Crater issued, or it has expired. */
    public static final class InvalidTokenException extends RuntimeException {
        InvalidTokenException() {
            super("invalid or expired token", null, false, false);
        }
    }
}
