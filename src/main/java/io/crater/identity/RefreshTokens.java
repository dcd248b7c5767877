package io.crater.identity;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.UUID;

/**
 * Rotating refresh tokens: opaque random strings stored only as SHA-256 hashes. Using one replaces it; using a
 * replaced one again means it was stolen, and its whole family is revoked.
 */
@ApplicationScoped
class RefreshTokens {

    private static final SecureRandom RANDOM = new SecureRandom();

    /** What a presented refresh token turned out to be. */
    record Lookup(long userId, UUID family, boolean usable, boolean reused) {}

    Uni<String> issue(long userId, UUID family, Instant expiresAt) {
        byte[] raw = new byte[32];
        RANDOM.nextBytes(raw);
        String token = Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
        return Panache.getSession()
                .flatMap(s -> s.createNativeQuery(
                                "INSERT INTO refresh_tokens (user_id, family, token_hash, expires_at) VALUES (?1, ?2, ?3, ?4)")
                        .setParameter(1, userId)
                        .setParameter(2, family)
                        .setParameter(3, hash(token))
                        .setParameter(4, OffsetDateTime.ofInstant(expiresAt, ZoneOffset.UTC))
                        .executeUpdate())
                .replaceWith(token);
    }

    /** Marks the token used (row-locked, so two concurrent uses cannot both succeed) and says what it was. */
    Uni<Lookup> use(String token, Instant now) {
        String sql =
                "SELECT user_id, family, expires_at, used_at, revoked_at FROM refresh_tokens WHERE token_hash = ?1 FOR UPDATE";
        return Panache.getSession()
                .flatMap(s -> s.createNativeQuery(sql, Object[].class)
                        .setParameter(1, hash(token))
                        .getResultList()
                        .flatMap(rows -> {
                            if (rows.isEmpty()) {
                                return Uni.createFrom().nullItem();
                            }
                            Object[] row = rows.get(0);
                            long userId = ((Number) row[0]).longValue();
                            UUID family = (UUID) row[1];
                            Instant expires = toInstant(row[2]);
                            boolean used = row[3] != null;
                            boolean revoked = row[4] != null;
                            if (used || revoked) {
                                return Uni.createFrom().item(new Lookup(userId, family, false, used && !revoked));
                            }
                            if (!now.isBefore(expires)) {
                                return Uni.createFrom().item(new Lookup(userId, family, false, false));
                            }
                            return s.createNativeQuery("UPDATE refresh_tokens SET used_at = ?2 WHERE token_hash = ?1")
                                    .setParameter(1, hash(token))
                                    .setParameter(2, OffsetDateTime.ofInstant(now, ZoneOffset.UTC))
                                    .executeUpdate()
                                    .replaceWith(new Lookup(userId, family, true, false));
                        }));
    }

    Uni<Integer> revokeFamily(UUID family, Instant now) {
        return Panache.getSession()
                .flatMap(s -> s.createNativeQuery(
                                "UPDATE refresh_tokens SET revoked_at = ?2 WHERE family = ?1 AND revoked_at IS NULL")
                        .setParameter(1, family)
                        .setParameter(2, OffsetDateTime.ofInstant(now, ZoneOffset.UTC))
                        .executeUpdate());
    }

    /** Revokes the family of a presented token (sign-out); unknown tokens change nothing. */
    Uni<Integer> revokeByToken(String token, Instant now) {
        return Panache.getSession()
                .flatMap(s -> s.createNativeQuery(
                                "UPDATE refresh_tokens SET revoked_at = ?2 WHERE revoked_at IS NULL AND family IN (SELECT family FROM refresh_tokens WHERE token_hash = ?1)")
                        .setParameter(1, hash(token))
                        .setParameter(2, OffsetDateTime.ofInstant(now, ZoneOffset.UTC))
                        .executeUpdate());
    }

    static String hash(String token) {
        return io.crater.platform.Hashes.sha256Hex(token);
    }

    private static Instant toInstant(Object o) {
        if (o instanceof OffsetDateTime odt) {
            return odt.toInstant();
        }
        if (o instanceof Instant i) {
            return i;
        }
        return ((java.time.LocalDateTime) o).toInstant(ZoneOffset.UTC);
    }
}
