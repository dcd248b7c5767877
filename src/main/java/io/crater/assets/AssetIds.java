package io.crater.assets;

import java.security.SecureRandom;

/** Entries' public ids: {@code ds_…} for datasets, {@code md_…} for models; a name can never look like one. */
final class AssetIds {

    private static final String ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";
    private static final SecureRandom RANDOM = new SecureRandom();

    private AssetIds() {}

    static String next(String kind) {
        StringBuilder sb = new StringBuilder("model".equals(kind) ? "md_" : "ds_");
        for (int i = 0; i < 10; i++) {
            sb.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
        }
        return sb.toString();
    }
}
