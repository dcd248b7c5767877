package io.crater.identity;

import java.util.Locale;
import java.util.regex.Pattern;

/** Username rules and the Kubernetes-safe slug derived from a username. */
public final class Usernames {

    private static final Pattern VALID = Pattern.compile("^[a-z0-9._-]{2,64}$");
    private static final Pattern HAS_ALNUM = Pattern.compile(".*[a-z0-9].*");

    private Usernames() {}

    public static String normalize(String username) {
        return username == null ? null : username.trim().toLowerCase(Locale.ROOT);
    }

    /** Null when valid, else why not. */
    public static String problem(String normalized) {
        if (normalized == null || normalized.isEmpty()) {
            return "required";
        }
        if (!VALID.matcher(normalized).matches()
                || !HAS_ALNUM.matcher(normalized).matches()) {
            return "2 to 64 characters: letters, digits, '.', '_' and '-', at least one letter or digit";
        }
        return null;
    }

    /** A DNS-1123 label of at most 40 characters, before any suffix that makes it unique. */
    public static String slugBase(String normalized) {
        String s = normalized.replaceAll("[._]", "-").replaceAll("-{2,}", "-").replaceAll("^-+|-+$", "");
        if (s.length() > 40) {
            s = s.substring(0, 40).replaceAll("-+$", "");
        }
        return s.isEmpty() ? "user" : s;
    }
}
