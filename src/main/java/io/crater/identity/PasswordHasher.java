package io.crater.identity;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import org.bouncycastle.crypto.generators.Argon2BytesGenerator;
import org.bouncycastle.crypto.params.Argon2Parameters;

/**
 * Argon2id password hashes in the PHC string format ({@code $argon2id$v=19$m=19456,t=2,p=1$salt$hash}),
 * with OWASP's recommended minimum cost. Hashing is CPU-bound: callers run it off the event loop.
 */
public final class PasswordHasher {

    private static final int MEMORY_KIB = 19_456;
    private static final int ITERATIONS = 2;
    private static final int PARALLELISM = 1;
    private static final int HASH_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder B64 = Base64.getEncoder().withoutPadding();
    private static final Base64.Decoder B64D = Base64.getDecoder();

    /** A hash of a password nobody has, verified against when the user does not exist so timing tells nothing. */
    static final String UNKNOWN_USER_HASH = hash("no such user: " + RANDOM.nextLong());

    private PasswordHasher() {}

    public static String hash(String password) {
        byte[] salt = new byte[16];
        RANDOM.nextBytes(salt);
        byte[] out = derive(password, salt, MEMORY_KIB, ITERATIONS, PARALLELISM, HASH_BYTES);
        return "$argon2id$v=19$m=" + MEMORY_KIB + ",t=" + ITERATIONS + ",p=" + PARALLELISM + "$"
                + B64.encodeToString(salt) + "$" + B64.encodeToString(out);
    }

    public static boolean verify(String password, String phc) {
        if (password == null || phc == null) {
            return false;
        }
        String[] parts = phc.split("\\$");
        if (parts.length != 6 || !parts[1].equals("argon2id")) {
            return false;
        }
        int m = 0;
        int t = 0;
        int p = 0;
        for (String kv : parts[3].split(",")) {
            String[] pair = kv.split("=");
            switch (pair[0]) {
                case "m" -> m = Integer.parseInt(pair[1]);
                case "t" -> t = Integer.parseInt(pair[1]);
                case "p" -> p = Integer.parseInt(pair[1]);
                default -> {
                    return false;
                }
            }
        }
        byte[] salt = B64D.decode(parts[4]);
        byte[] expected = B64D.decode(parts[5]);
        byte[] actual = derive(password, salt, m, t, p, expected.length);
        return MessageDigest.isEqual(expected, actual);
    }

    private static byte[] derive(
            String password, byte[] salt, int memory, int iterations, int parallelism, int length) {
        Argon2Parameters params = new Argon2Parameters.Builder(Argon2Parameters.ARGON2_id)
                .withVersion(Argon2Parameters.ARGON2_VERSION_13)
                .withMemoryAsKB(memory)
                .withIterations(iterations)
                .withParallelism(parallelism)
                .withSalt(salt)
                .build();
        Argon2BytesGenerator gen = new Argon2BytesGenerator();
        gen.init(params);
        byte[] out = new byte[length];
        gen.generateBytes(password.getBytes(StandardCharsets.UTF_8), out);
        return out;
    }
}
