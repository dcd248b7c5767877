package io.crater.images;

import java.security.SecureRandom;

/** Image builds' public ids, {@code ib_…}. */
final class ImageBuildIds {

    private static final String ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";
    private static final SecureRandom RANDOM = new SecureRandom();

    private ImageBuildIds() {}

    static String next() {
        StringBuilder sb = new StringBuilder("ib_");
        for (int i = 0; i < 10; i++) {
            sb.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
        }
        return sb.toString();
    }
}
