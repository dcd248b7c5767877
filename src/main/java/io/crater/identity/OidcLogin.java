package io.crater.identity;

import com.nimbusds.jwt.JWTClaimsSet;
import io.crater.platform.ApiException;
import io.crater.platform.Sql;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The authorization code flow with PKCE (S256), state and nonce. {@link #start} keeps a row per sign-in (state,
 * nonce, verifier) and sends the browser to the provider; {@link #finish} takes the row back once, checks that the
 * state is the one this browser was given, exchanges the code, checks the ID token, and signs the user in with the
 * same session a password sign-in gets.
 */
@ApplicationScoped
class OidcLogin {

    private static final SecureRandom RANDOM = new SecureRandom();

    /** Where the browser goes, and the state its cookie must hold when it comes back. */
    record Started(String authorizationUrl, String state) {}

    /** A completed sign-in: the session and where the console goes next. */
    record Finished(AuthService.Session session, String returnTo) {}

    private record Pending(String nonce, String verifier, String redirectUri, String returnTo) {
        static final String COLUMNS = "nonce, code_verifier, redirect_uri, return_to";

        static Pending of(Object[] r) {
            return new Pending((String) r[0], (String) r[1], (String) r[2], (String) r[3]);
        }
    }

    @Inject
    OidcProviders providers;

    @Inject
    OidcAccounts accounts;

    @Inject
    OidcConfig config;

    @Inject
    AuthService auth;

    @Inject
    Clock clock;

    Uni<Started> start(String name, String redirectUri, String returnTo) {
        OidcConfig.Provider p = providers.provider(name);
        String state = random();
        String nonce = random();
        String verifier = random() + random();
        Instant now = clock.instant();
        return providers
                .metadata(name)
                .flatMap(m -> Panache.withTransaction(() -> Sql.update(
                                        "DELETE FROM oidc_logins WHERE expires_at < ?1", now)
                                .flatMap(x -> Sql.update(
                                        "INSERT INTO oidc_logins (state, provider, nonce, code_verifier, redirect_uri,"
                                                + " return_to, expires_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                                        state,
                                        name,
                                        nonce,
                                        verifier,
                                        redirectUri,
                                        returnTo,
                                        now.plus(config.loginTimeout()))))
                        .map(x -> {
                            Map<String, String> q = new LinkedHashMap<>();
                            q.put("response_type", "code");
                            q.put("client_id", p.clientId());
                            q.put("redirect_uri", redirectUri);
                            q.put("scope", p.scopes());
                            q.put("state", state);
                            q.put("nonce", nonce);
                            q.put("code_challenge", challenge(verifier));
                            q.put("code_challenge_method", "S256");
                            String sep = m.authorizationEndpoint().contains("?") ? "&" : "?";
                            return new Started(m.authorizationEndpoint() + sep + query(q), state);
                        }));
    }

    /**
     * Completes the sign-in the provider sent the browser back from. {@code cookieState} is what the browser's
     * state cookie holds: a state that another browser started, or one used already, is refused.
     */
    Uni<Finished> finish(
            String name, String code, String state, String cookieState, String error, String errorDescription) {
        providers.provider(name);
        if (state == null || state.isBlank() || cookieState == null || !constantTimeEquals(state, cookieState)) {
            return Uni.createFrom()
                    .failure(ApiException.badRequest(
                            "InvalidSignInState",
                            "this sign-in was not started in this browser, or it was finished already; start again",
                            null));
        }
        return take(state, name).flatMap(pending -> {
            if (error != null) {
                return Uni.createFrom()
                        .failure(ApiException.unauthorized(
                                "ProviderRefused",
                                "the provider refused the sign-in: " + error
                                        + (errorDescription == null ? "" : " (" + errorDescription + ")")));
            }
            if (code == null || code.isBlank()) {
                return Uni.createFrom()
                        .failure(ApiException.badRequest(
                                "InvalidRequest", "the provider sent no authorization code", null));
            }
            return providers
                    .metadata(name)
                    .flatMap(m -> providers
                            .exchange(name, m, code, pending.verifier(), pending.redirectUri())
                            .flatMap(tokens -> validated(name, m, tokens.getString("id_token"), pending.nonce())
                                    .flatMap(idClaims -> providers
                                            .userinfo(name, m, tokens.getString("access_token"))
                                            .map(info -> merged(idClaims, info))))
                            .flatMap(claims -> accounts.signIn(name, m.issuer(), claims))
                            .flatMap(user -> auth.sessionFor(user))
                            .map(session -> new Finished(session, pending.returnTo())));
        });
    }

    /** The pending sign-in of this state, deleted as it is read, so a state works once. */
    private Uni<Pending> take(String state, String name) {
        return Panache.withTransaction(() -> Sql.row(
                        "DELETE FROM oidc_logins WHERE state = ?1 AND provider = ?2 AND expires_at > ?3 RETURNING "
                                + Pending.COLUMNS,
                        state,
                        name,
                        clock.instant()))
                .map(row -> row.map(Pending::of)
                        .orElseThrow(() -> ApiException.badRequest(
                                "InvalidSignInState",
                                "this sign-in is unknown, expired or finished already; start again",
                                null)));
    }

    /** The ID token's claims once it checks out; an unknown key id reads the provider's keys again once. */
    Uni<Map<String, Object>> validated(String name, OidcProviders.Metadata m, String idToken, String nonce) {
        OidcConfig.Provider p = providers.provider(name);
        IdTokens.Expected expected = new IdTokens.Expected(p.issuer(), p.clientId(), nonce, p.clockSkew());
        return providers.keys(name, m, false).flatMap(keys -> {
            try {
                return Uni.createFrom().item(check(idToken, keys, expected));
            } catch (IdTokens.Refused e) {
                if (!e.unknownKey) {
                    return Uni.createFrom().failure(refused(e));
                }
                return providers.keys(name, m, true).map(again -> {
                    try {
                        return check(idToken, again, expected);
                    } catch (IdTokens.Refused e2) {
                        throw refused(e2);
                    }
                });
            }
        });
    }

    private Map<String, Object> check(String idToken, com.nimbusds.jose.jwk.JWKSet keys, IdTokens.Expected expected)
            throws IdTokens.Refused {
        JWTClaimsSet claims = IdTokens.validate(idToken, keys, expected, clock.instant());
        return new HashMap<>(claims.toJSONObject());
    }

    private static ApiException refused(IdTokens.Refused e) {
        return ApiException.unauthorized("InvalidIdToken", e.getMessage());
    }

    /** The ID token's claims with the userinfo answer's added; a userinfo answer about another subject is refused. */
    static Map<String, Object> merged(Map<String, Object> idClaims, JsonObject info) {
        Object sub = info.getValue("sub");
        if (sub != null && !sub.equals(idClaims.get("sub"))) {
            throw ApiException.unauthorized(
                    "InvalidIdToken", "the provider's userinfo answer is about another subject than the ID token");
        }
        Map<String, Object> out = new HashMap<>(idClaims);
        info.getMap().forEach((k, v) -> {
            if (!out.containsKey(k)) {
                out.put(k, v instanceof io.vertx.core.json.JsonArray a ? a.getList() : v);
            }
        });
        return out;
    }

    static String challenge(String verifier) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String random() {
        byte[] b = new byte[32];
        RANDOM.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    private static boolean constantTimeEquals(String a, String b) {
        return MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }

    private static String query(Map<String, String> q) {
        StringBuilder out = new StringBuilder();
        q.forEach((k, v) -> {
            if (!out.isEmpty()) {
                out.append('&');
            }
            out.append(k).append('=').append(URLEncoder.encode(v, StandardCharsets.UTF_8));
        });
        return out.toString();
    }
}
