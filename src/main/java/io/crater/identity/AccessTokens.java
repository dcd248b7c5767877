package io.crater.identity;

import io.crater.platform.ApiException;
import io.crater.platform.AuditTrail;
import io.crater.platform.Problem;
import io.crater.platform.Sql;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Personal access tokens for scripts and the CLI: {@code crt_} + 43 random characters, shown once, stored as a
 * SHA-256 hash, named, optionally expiring, revocable, with the time they were last used.
 */
@ApplicationScoped
public class AccessTokens {

    static final String PREFIX = "crt_";
    private static final SecureRandom RANDOM = new SecureRandom();

    /** A token as listed (never the secret). */
    public record TokenView(
            long id, String name, String prefix, Instant expiresAt, Instant lastUsedAt, Instant createdAt) {}

    /** A token just created: the secret appears here and nowhere else. */
    @org.eclipse.microprofile.openapi.annotations.media.Schema(name = "CreatedAccessToken")
    public record NewToken(long id, String name, String prefix, Instant expiresAt, Instant createdAt, String token) {}

    /** Create a token. */
    public record CreateToken(String name, Instant expiresAt) {}

    @Inject
    AuditTrail audit;

    @Inject
    Clock clock;

    public Uni<List<TokenView>> list(Caller caller) {
        return Panache.withSession(() -> Sql.rows(
                        "SELECT " + TokenRows.COLUMNS + " FROM personal_access_tokens"
                                + " WHERE user_id = ?1 AND revoked_at IS NULL ORDER BY id",
                        caller.userId()))
                .map(rows -> rows.stream().map(TokenRows::of).toList());
    }

    /** The columns of a token as its owner sees it, and how they read. */
    private static final class TokenRows {
        static final String COLUMNS = "id, name, prefix, expires_at, last_used_at, created_at";

        static TokenView of(Object[] r) {
            return new TokenView(
                    Sql.longOf(r[0]),
                    (String) r[1],
                    (String) r[2],
                    Sql.instant(r[3]),
                    Sql.instant(r[4]),
                    Sql.instant(r[5]));
        }
    }

    /** A valid token found by its hash, with its user. */
    record Found(long tokenId, long userId, String username, String displayName, String role) {
        static Found of(Object[] r) {
            return new Found(Sql.longOf(r[0]), Sql.longOf(r[1]), (String) r[2], (String) r[3], (String) r[4]);
        }
    }

    public Uni<NewToken> create(CreateToken req, Caller caller) {
        if (req == null
                || req.name() == null
                || req.name().isBlank()
                || req.name().length() > 100) {
            return Uni.createFrom()
                    .failure(ApiException.badRequest(
                            "InvalidRequest",
                            "a token needs a name",
                            List.of(new Problem.FieldError("name", "1 to 100 characters"))));
        }
        if (req.expiresAt() != null && !req.expiresAt().isAfter(clock.instant())) {
            return Uni.createFrom()
                    .failure(ApiException.badRequest(
                            "InvalidRequest",
                            "the expiry must be in the future",
                            List.of(new Problem.FieldError("expiresAt", "must be in the future"))));
        }
        return Panache.withTransaction(
                () -> insert(caller.userId(), req.name().trim(), req.expiresAt(), caller.actor(null)));
    }

    /**
     * Makes a token for a user in the caller's transaction and records its creation as {@code actor}'s: the token a
     * password sign-in of the client asks for and the one a device sign-in hands out are the same kind.
     */
    Uni<NewToken> insert(long userId, String name, Instant expiresAt, io.crater.platform.Actor actor) {
        byte[] raw = new byte[32];
        RANDOM.nextBytes(raw);
        String token = PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
        String prefix = token.substring(0, 12);
        Instant now = clock.instant();
        String sql = expiresAt == null
                ? "INSERT INTO personal_access_tokens (user_id, name, prefix, token_hash, created_at) VALUES (?1, ?2, ?3, ?4, ?5) RETURNING id"
                : "INSERT INTO personal_access_tokens (user_id, name, prefix, token_hash, created_at, expires_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6) RETURNING id";
        Object[] params = expiresAt == null
                ? new Object[] {userId, name, prefix, RefreshTokens.hash(token), now}
                : new Object[] {userId, name, prefix, RefreshTokens.hash(token), now, expiresAt};
        return Sql.insertReturningId(sql, params)
                .call(id -> audit.record(actor, "token.create", "token", prefix, null, Map.of("name", name)))
                .map(id -> new NewToken(id, name, prefix, expiresAt, now, token));
    }

    public Uni<Void> revoke(long id, Caller caller) {
        return Panache.withTransaction(() -> Sql.rows(
                        "SELECT prefix, name FROM personal_access_tokens WHERE id = ?1 AND user_id = ?2 AND revoked_at IS NULL",
                        id,
                        caller.userId())
                .flatMap(rows -> {
                    if (rows.isEmpty()) {
                        throw ApiException.notFound("no such token");
                    }
                    return Sql.update(
                                    "UPDATE personal_access_tokens SET revoked_at = ?2 WHERE id = ?1",
                                    id,
                                    clock.instant())
                            .flatMap(x -> audit.record(
                                    caller.actor(null),
                                    "token.revoke",
                                    "token",
                                    (String) rows.get(0)[0],
                                    Map.of("name", rows.get(0)[1]),
                                    null));
                }));
    }

    /** The user a presented token belongs to, if it is live; records its use (at most once a minute). */
    Uni<TokenService.TokenUser> authenticate(String token) {
        Instant now = clock.instant();
        return Panache.withTransaction(() -> Sql.rows(
                        "SELECT t.id, u.id, u.username, u.display_name, u.role FROM personal_access_tokens t"
                                + " JOIN users u ON u.id = t.user_id WHERE t.token_hash = ?1 AND t.revoked_at IS NULL AND NOT u.disabled"
                                + " AND (t.expires_at IS NULL OR t.expires_at > ?2)",
                        RefreshTokens.hash(token),
                        now)
                .flatMap(rows -> {
                    if (rows.isEmpty()) {
                        return Uni.createFrom().nullItem();
                    }
                    Found f = Found.of(rows.get(0));
                    return Sql.update(
                                    "UPDATE personal_access_tokens SET last_used_at = ?2 WHERE id = ?1"
                                            + " AND (last_used_at IS NULL OR last_used_at < ?3)",
                                    f.tokenId(),
                                    now,
                                    now.minusSeconds(60))
                            .replaceWith(
                                    new TokenService.TokenUser(f.userId(), f.username(), f.displayName(), f.role()));
                }));
    }

    /** Who a session of the user speaks for, if the user is not disabled (empty otherwise), in the caller's session. */
    public Uni<Optional<TokenService.TokenUser>> activeUser(long userId) {
        return Sql.row("SELECT id, username, display_name, role FROM users WHERE id = ?1 AND NOT disabled", userId)
                .map(r -> r.map(ActiveRows::of));
    }

    /** How a user as a session speaks for them reads. */
    private static final class ActiveRows {
        static TokenService.TokenUser of(Object[] r) {
            return new TokenService.TokenUser(Sql.longOf(r[0]), (String) r[1], (String) r[2], (String) r[3]);
        }
    }
}
