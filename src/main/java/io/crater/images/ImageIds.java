package io.crater.images;

import java.security.SecureRandom;

/** Images' public ids, {@code im_…}. */
final class ImageIds {

    private static final String ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";
    private static final SecureRandom RANDOM = new SecureRandom();

    private ImageIds() {}

    static String next() {
        StringBuilder sb = new StringBuilder("im_");
        for (int i = 0; i < 10; i++) {
            sb.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
        }
        return sb.toString();
    }
}
