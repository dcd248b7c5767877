package io.crater.interactive;

import io.crater.platform.Sql;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.vertx.VertxContextSupport;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;

/**
 * The gateway's host key, generated once and kept in the database, so every replica (and every restart) presents
 * the same key and users' {@code known_hosts} stay valid. ECDSA P-256: every OpenSSH client accepts it and the
 * JDK makes it without extra providers.
 */
final class HostKeys {

    static final String ALGORITHM = "ecdsa-sha2-nistp256";

    private HostKeys() {}

    /** The stored key, or a new one stored first (the first replica to insert wins; the others read it). */
    static KeyPair loadOrCreate() throws Throwable {
        KeyPair fresh = generate();
        Object[] row = VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> Sql.update(
                                "INSERT INTO ssh_host_keys (algorithm, private_key, public_key) VALUES (?1, ?2, ?3)"
                                        + " ON CONFLICT (algorithm) DO NOTHING",
                                ALGORITHM,
                                Base64.getEncoder()
                                        .encodeToString(fresh.getPrivate().getEncoded()),
                                Base64.getEncoder()
                                        .encodeToString(fresh.getPublic().getEncoded()))
                        .flatMap(n -> Sql.row(
                                "SELECT private_key, public_key FROM ssh_host_keys WHERE algorithm = ?1", ALGORITHM))))
                .orElseThrow();
        KeyFactory ec = KeyFactory.getInstance("EC");
        return new KeyPair(
                ec.generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode((String) row[1]))),
                ec.generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode((String) row[0]))));
    }

    private static KeyPair generate() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"));
        return g.generateKeyPair();
    }
}
