package io.crater.credential;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals credential values with AES-256-GCM. A sealed value reads {@code v1:<key id>:<base64(nonce ‖ ciphertext ‖
 * tag)>}; the key id (the first 8 bytes of the key's SHA-256) tells a wrong key from a damaged value. The owner's
 * id and the credential's name are the associated data, so a sealed value copied to another row does not open.
 */
final class CredentialCipher {

    static final int KEY_BYTES = 32;
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final String PREFIX = "v1:";
    private static final SecureRandom RANDOM = new SecureRandom();

    /** A sealed value that does not open: damaged, sealed under another key, or moved to another owner or name. */
    static final class Unreadable extends RuntimeException {
        Unreadable(String message) {
            super(message, null, false, false);
        }
    }

    private final SecretKeySpec key;
    private final String keyId;

    CredentialCipher(byte[] keyBytes) {
        if (keyBytes == null || keyBytes.length != KEY_BYTES) {
            throw new IllegalArgumentException("the credentials key must be " + KEY_BYTES + " bytes");
        }
        this.key = new SecretKeySpec(keyBytes.clone(), "AES");
        this.keyId = keyId(keyBytes);
    }

    /** A new random key. */
    static byte[] newKey() {
        byte[] k = new byte[KEY_BYTES];
        RANDOM.nextBytes(k);
        return k;
    }

    String keyId() {
        return keyId;
    }

    String seal(long userId, String name, String value) {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            c.updateAAD(associated(userId, name));
            byte[] sealed = c.doFinal(value.getBytes(StandardCharsets.UTF_8));
            byte[] out = ByteBuffer.allocate(nonce.length + sealed.length)
                    .put(nonce)
                    .put(sealed)
                    .array();
            return PREFIX + keyId + ":" + Base64.getEncoder().encodeToString(out);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available", e);
        }
    }

    String open(long userId, String name, String sealed) {
        String[] parts = sealed == null ? new String[0] : sealed.split(":", 3);
        if (parts.length != 3 || !(parts[0] + ":").equals(PREFIX)) {
            throw new Unreadable("credential '" + name + "' is not a sealed value");
        }
        if (!parts[1].equals(keyId)) {
            throw new Unreadable(
                    "credential '" + name + "' was sealed with key " + parts[1] + ", this server holds key " + keyId);
        }
        try {
            byte[] all = Base64.getDecoder().decode(parts[2]);
            if (all.length < NONCE_BYTES + TAG_BITS / 8) {
                throw new Unreadable("credential '" + name + "' is damaged");
            }
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, all, 0, NONCE_BYTES));
            c.updateAAD(associated(userId, name));
            byte[] plain = c.doFinal(all, NONCE_BYTES, all.length - NONCE_BYTES);
            return new String(plain, StandardCharsets.UTF_8);
        } catch (AEADBadTagException | IllegalArgumentException e) {
            throw new Unreadable("credential '" + name + "' is damaged or does not belong here");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available", e);
        }
    }

    private static byte[] associated(long userId, String name) {
        return ("crater-credential\0" + userId + "\0" + name).getBytes(StandardCharsets.UTF_8);
    }

    private static String keyId(byte[] keyBytes) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(keyBytes);
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
