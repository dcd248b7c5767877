package io.crater.downloads;

import java.security.SecureRandom;
import java.util.regex.Pattern;

/** Downloads' public ids: {@code dl_…}. */
final class DownloadIds {

    static final Pattern PATTERN = Pattern.compile("^dl_[a-z0-9]{6,16}$");
    private static final String ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";
    private static final SecureRandom RANDOM = new SecureRandom();

    private DownloadIds() {}

    static String next() {
        StringBuilder sb = new StringBuilder("dl_");
        for (int i = 0; i < 10; i++) {
            sb.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
        }
        return sb.toString();
    }
}
