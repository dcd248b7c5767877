package io.crater.identity;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Crater's RS256 token signing keys. Generated once and stored in the database insert-if-absent, so every
 * replica signs with the same active key and verifies every stored key by its {@code kid}.
 */
@ApplicationScoped
public class SigningKeys {

    /** The key tokens are signed with now. */
    public record Active(String kid, PrivateKey privateKey) {}

    private final Map<String, PublicKey> verification = new ConcurrentHashMap<>();
    private volatile Active active;

    void onStart(@Observes @Priority(10) StartupEvent event) throws Throwable {
        VertxContextSupport.subscribeAndAwait(() ->
                Panache.withTransaction(() -> Panache.getSession().flatMap(session -> {
                    KeyPair pair = generate();
                    String kid = UUID.randomUUID().toString();
                    return session.createNativeQuery(
                                    "INSERT INTO signing_keys (kid, algorithm, private_key, public_key, active) VALUES (?1, 'RS256', ?2, ?3, TRUE) ON CONFLICT DO NOTHING")
                            .setParameter(1, kid)
                            .setParameter(2, encode(pair.getPrivate().getEncoded()))
                            .setParameter(3, encode(pair.getPublic().getEncoded()))
                            .executeUpdate()
                            .flatMap(n -> session.createNativeQuery(
                                            "SELECT kid, private_key, public_key, active FROM signing_keys",
                                            Object[].class)
                                    .getResultList())
                            .invoke(this::load);
                })));
        if (active == null) {
            throw new IllegalStateException("no active signing key in the database");
        }
    }

    private void load(List<Object[]> rows) {
        for (Object[] row : rows) {
            String kid = (String) row[0];
            verification.put(kid, decodePublic((String) row[2]));
            if (Boolean.TRUE.equals(row[3])) {
                active = new Active(kid, decodePrivate((String) row[1]));
            }
        }
    }

    public Active active() {
        return active;
    }

    /** The public key with this id, or null when Crater never had it. */
    public PublicKey publicKey(String kid) {
        return kid == null ? null : verification.get(kid);
    }

    private static KeyPair generate() {
        try {
            KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA");
            gen.initialize(2048);
            return gen.generateKeyPair();
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String encode(byte[] der) {
        return Base64.getEncoder().encodeToString(der);
    }

    private static PublicKey decodePublic(String b64) {
        try {
            return KeyFactory.getInstance("RSA")
                    .generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(b64)));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException("a stored public key is unreadable", e);
        }
    }

    private static PrivateKey decodePrivate(String b64) {
        try {
            return KeyFactory.getInstance("RSA")
                    .generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(b64)));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException("the stored private key is unreadable", e);
        }
    }
}
