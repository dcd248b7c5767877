package io.crater.identity;

import io.crater.platform.ApiException;
import io.crater.platform.AuditTrail;
import io.crater.platform.Problem;
import io.crater.platform.Sql;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.security.PublicKey;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.sshd.common.config.keys.AuthorizedKeyEntry;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.PublicKeyEntryResolver;
import org.apache.sshd.common.digest.BuiltinDigests;

/** Users' SSH public keys for the SSH gateway: validated, identified by their SHA-256 fingerprint. */
@ApplicationScoped
public class SshKeys {

    /** A registered key. */
    public record KeyView(
            long id, String name, String type, String fingerprint, Instant createdAt, Instant lastUsedAt) {}

    /** Register a key: one line in authorized_keys format. */
    public record AddKey(String name, String publicKey) {}

    /** A parsed key: its type, canonical text and fingerprint. */
    record Parsed(String type, String text, String fingerprint) {}

    @Inject
    AuditTrail audit;

    public Uni<List<KeyView>> list(Caller caller) {
        return Panache.withSession(() -> Sql.rows(
                        "SELECT " + KeyRows.COLUMNS + " FROM ssh_keys WHERE user_id = ?1 ORDER BY id", caller.userId()))
                .map(rows -> rows.stream().map(KeyRows::of).toList());
    }

    /** The columns of a key as its owner sees it, and how they read. */
    private static final class KeyRows {
        static final String COLUMNS = "id, name, key_type, fingerprint, created_at, last_used_at";

        static KeyView of(Object[] r) {
            return new KeyView(
                    Sql.longOf(r[0]),
                    (String) r[1],
                    (String) r[2],
                    (String) r[3],
                    Sql.instant(r[4]),
                    Sql.instant(r[5]));
        }
    }

    public Uni<KeyView> add(AddKey req, Caller caller) {
        Parsed key = parse(req == null ? null : req.publicKey());
        String name =
                req.name() == null || req.name().isBlank() ? "key" : req.name().trim();
        if (name.length() > 100) {
            return Uni.createFrom()
                    .failure(ApiException.badRequest(
                            "InvalidRequest",
                            "name too long",
                            List.of(new Problem.FieldError("name", "at most 100 characters"))));
        }
        return Panache.withTransaction(() -> Sql.count(
                                "SELECT count(*) FROM ssh_keys WHERE fingerprint = ?1", key.fingerprint())
                        .flatMap(n -> {
                            if (n > 0) {
                                throw new ApiException(
                                        409,
                                        "SshKeyExists",
                                        "Conflict",
                                        "this key is registered already",
                                        null,
                                        null,
                                        null);
                            }
                            return Sql.insertReturningId(
                                            "INSERT INTO ssh_keys (user_id, name, key_type, public_key, fingerprint) VALUES (?1, ?2, ?3, ?4, ?5) RETURNING id",
                                            caller.userId(),
                                            name,
                                            key.type(),
                                            key.text(),
                                            key.fingerprint())
                                    .call(id -> audit.record(
                                            caller.actor(null),
                                            "ssh-key.add",
                                            "ssh-key",
                                            key.fingerprint(),
                                            null,
                                            Map.of("name", name, "type", key.type())));
                        }))
                .flatMap(id -> list(caller)
                        .map(keys -> keys.stream()
                                .filter(k -> k.id() == id)
                                .findFirst()
                                .orElseThrow()));
    }

    public Uni<Void> remove(long id, Caller caller) {
        return Panache.withTransaction(() -> Sql.rows(
                        "SELECT fingerprint, name FROM ssh_keys WHERE id = ?1 AND user_id = ?2", id, caller.userId())
                .flatMap(rows -> {
                    if (rows.isEmpty()) {
                        throw ApiException.notFound("no such key");
                    }
                    return Sql.update("DELETE FROM ssh_keys WHERE id = ?1", id)
                            .flatMap(x -> audit.record(
                                    caller.actor(null),
                                    "ssh-key.remove",
                                    "ssh-key",
                                    (String) rows.get(0)[0],
                                    Map.of("name", rows.get(0)[1]),
                                    null));
                }));
    }

    static final String NOT_OPENSSH =
            "not an OpenSSH public key: expected a line like `ssh-ed25519 AAAA… comment` (the contents of ~/.ssh/id_ed25519.pub)";

    /** Parses one authorized_keys line; a 400 {@code InvalidSshKey} when it is not a usable public key. */
    static Parsed parse(String line) {
        if (line == null || line.isBlank() || line.contains("PRIVATE KEY")) {
            throw invalid("paste a public key line such as 'ssh-ed25519 AAAA... you@host' (never a private key)");
        }
        try {
            AuthorizedKeyEntry entry = AuthorizedKeyEntry.parseAuthorizedKeyEntry(line.trim());
            if (entry == null) {
                throw invalid(NOT_OPENSSH);
            }
            PublicKey key = entry.resolvePublicKey(null, PublicKeyEntryResolver.FAILING);
            String type = KeyUtils.getKeyType(key);
            if ("ssh-rsa".equals(type) && KeyUtils.getKeySize(key) < 2048) {
                throw invalid("RSA keys need at least 2048 bits");
            }
            return new Parsed(type, line.trim(), KeyUtils.getFingerPrint(BuiltinDigests.sha256, key));
        } catch (ApiException e) {
            throw e;
        } catch (Exception e) {
            // The parser's own words ("Premature EOF - expected=129, actual=2") help nobody who pasted a key.
            throw invalid(NOT_OPENSSH);
        }
    }

    private static ApiException invalid(String detail) {
        return ApiException.badRequest("InvalidSshKey", detail, List.of(new Problem.FieldError("publicKey", detail)));
    }

    /** The user a presented key belongs to, with their slug: someone not disabled whose username matches. */
    public record KeyOwner(TokenService.TokenUser user, String slug) {
        static KeyOwner of(Object[] r) {
            return new KeyOwner(
                    new TokenService.TokenUser(Sql.longOf(r[0]), (String) r[1], (String) r[2], (String) r[3]),
                    (String) r[4]);
        }
    }

    /** {@link KeyOwner} of the key with this fingerprint if it is {@code username}'s, in the caller's session. */
    public Uni<Optional<KeyOwner>> owner(String fingerprint, String username) {
        return Sql.row(
                        "SELECT u.id, u.username, u.display_name, u.role, u.slug FROM ssh_keys k JOIN users u ON u.id = k.user_id"
                                + " WHERE k.fingerprint = ?1 AND lower(u.username) = lower(?2) AND NOT u.disabled",
                        fingerprint,
                        username)
                .map(r -> r.map(KeyOwner::of));
    }

    /** Records that the key with this fingerprint was used to sign in, in the caller's transaction. */
    public Uni<Integer> used(String fingerprint) {
        return Sql.update("UPDATE ssh_keys SET last_used_at = now() WHERE fingerprint = ?1", fingerprint);
    }
}
