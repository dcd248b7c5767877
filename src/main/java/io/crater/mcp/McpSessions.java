package io.crater.mcp;

import io.crater.platform.Sql;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * MCP sessions without session state: an id is {@code <user>.<protocol version>.<expiry>.<nonce>.<signature>}, an
 * HMAC-SHA256 over the rest with a key kept once in the database, so every replica verifies what any replica
 * issued. Only a session ended before its expiry leaves a row (its nonce), so that it is refused everywhere.
 */
@ApplicationScoped
class McpSessions {

    /** A verified session: whose it is, the protocol version it negotiated, and its nonce. */
    record Session(long userId, String protocolVersion, Instant expiresAt, String nonce) {}

    private static final SecureRandom RANDOM = new SecureRandom();

    @Inject
    McpConfig config;

    @Inject
    Clock clock;

    private volatile byte[] key;

    /** A new session id for this user and protocol version. */
    Uni<String> issue(long userId, String protocolVersion) {
        byte[] nonce = new byte[16];
        RANDOM.nextBytes(nonce);
        Instant expires = clock.instant().plus(config.sessionLifetime());
        return key().map(k ->
                sign(k, userId, protocolVersion, expires, HexFormat.of().formatHex(nonce)));
    }

    /** The session of this id, or null when it is forged, expired, ended or another user's. */
    Uni<Session> find(String id, long userId) {
        return key().flatMap(k -> {
            Session s = verify(k, id, clock.instant());
            if (s == null || s.userId() != userId) {
                return Uni.createFrom().nullItem();
            }
            return Panache.withSession(
                            () -> Sql.count("SELECT count(*) FROM mcp_ended_sessions WHERE nonce = ?1", s.nonce()))
                    .map(n -> n == 0 ? s : null);
        });
    }

    /** Ends a session everywhere; false when the id names no live session of this user. */
    Uni<Boolean> end(String id, long userId) {
        return find(id, userId)
                .flatMap(s -> s == null
                        ? Uni.createFrom().item(false)
                        : Panache.withTransaction(() -> Sql.update(
                                                "INSERT INTO mcp_ended_sessions (nonce, expires_at) VALUES (?1, ?2)"
                                                        + " ON CONFLICT DO NOTHING",
                                                s.nonce(),
                                                s.expiresAt())
                                        .flatMap(n -> Sql.update(
                                                "DELETE FROM mcp_ended_sessions WHERE expires_at < ?1",
                                                clock.instant())))
                                .replaceWith(true));
    }

    /** A signed id. */
    static String sign(byte[] key, long userId, String protocolVersion, Instant expires, String nonce) {
        String payload = userId + "." + protocolVersion + "." + expires.getEpochSecond() + "." + nonce;
        return payload + "." + mac(key, payload);
    }

    /** The session a well-formed, correctly signed, unexpired id names, or null. */
    static Session verify(byte[] key, String id, Instant now) {
        if (id == null || id.length() > 200) {
            return null;
        }
        String[] parts = id.split("\\.", -1);
        if (parts.length != 5) {
            return null;
        }
        String payload = String.join(".", parts[0], parts[1], parts[2], parts[3]);
        byte[] expected = mac(key, payload).getBytes(StandardCharsets.US_ASCII);
        if (!MessageDigest.isEqual(expected, parts[4].getBytes(StandardCharsets.US_ASCII))) {
            return null;
        }
        try {
            Instant expires = Instant.ofEpochSecond(Long.parseLong(parts[2]));
            return expires.isAfter(now) ? new Session(Long.parseLong(parts[0]), parts[1], expires, parts[3]) : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static String mac(byte[] key, String payload) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return Base64.getUrlEncoder()
                    .withoutPadding()
                    .encodeToString(mac.doFinal(payload.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The signing key, created insert-if-absent on first use and then kept in memory. */
    private Uni<byte[]> key() {
        byte[] k = key;
        if (k != null) {
            return Uni.createFrom().item(k);
        }
        byte[] fresh = new byte[32];
        RANDOM.nextBytes(fresh);
        return Panache.withTransaction(() -> Sql.update(
                                "INSERT INTO mcp_session_keys (id, secret) VALUES (1, ?1) ON CONFLICT DO NOTHING",
                                Base64.getEncoder().encodeToString(fresh))
                        .flatMap(n -> Sql.row("SELECT secret FROM mcp_session_keys WHERE id = 1")))
                .map(row -> {
                    byte[] stored = Base64.getDecoder().decode((String) row.orElseThrow()[0]);
                    key = stored;
                    return stored;
                });
    }
}
