package io.crater.policy;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * How an OpenID provider's claims become a Crater user: which claims give the username, display name, e-mail and
 * groups. The same rules as for a directory entry ({@link DirectoryProfile}): a username is 2 to 64 of
 * {@code a-z 0-9 . _ -}, an e-mail that is not an address is dropped, a display name is cut at 200 characters.
 *
 * @param username claim holding the sign-in name ({@code preferred_username})
 * @param displayName claim holding the person's name ({@code name})
 * @param email claim holding the e-mail address ({@code email})
 * @param groups claim holding the groups, a list of names or one name ({@code groups})
 */
public record OidcProfile(String username, String displayName, String email, String groups) {

    private static final Pattern EMAIL = Pattern.compile("^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$");
    private static final Pattern USERNAME = Pattern.compile("^[a-z0-9._-]{2,64}$");

    /**
     * The user the claims map to.
     *
     * @param emailVerified whether the provider says it checked the address ({@code email_verified: true})
     */
    public record Mapped(
            String subject,
            String username,
            String displayName,
            String email,
            boolean emailVerified,
            List<String> groups) {}

    /** The claims as a user, or why they cannot be one. */
    public record Outcome(Mapped user, String problem) {}

    /** Maps the claims of a validated ID token (merged with the userinfo answer, if any). */
    public Outcome map(Map<String, ?> claims) {
        String subject = text(claims.get("sub"));
        if (subject == null || subject.length() > 255) {
            return new Outcome(null, "the provider's answer has no usable subject (sub)");
        }
        String name = text(claims.get(username));
        name = name == null ? null : name.toLowerCase(Locale.ROOT);
        if (name == null || !USERNAME.matcher(name).matches() || !name.matches(".*[a-z0-9].*")) {
            return new Outcome(
                    null,
                    "the provider's " + username + " claim '" + name + "' is not a valid Crater username"
                            + " (2 to 64 of a-z 0-9 . _ -)");
        }
        String display = text(claims.get(displayName));
        display = display == null ? name : display.length() > 200 ? display.substring(0, 200) : display;
        String mail = text(claims.get(email));
        if (mail != null && (!EMAIL.matcher(mail).matches() || mail.length() > 254)) {
            mail = null;
        }
        boolean verified = mail != null && Boolean.TRUE.equals(claims.get("email_verified"));
        return new Outcome(new Mapped(subject, name, display, mail, verified, groupsOf(claims.get(groups))), null);
    }

    private static List<String> groupsOf(Object value) {
        List<String> out = new ArrayList<>();
        if (value instanceof Collection<?> c) {
            for (Object o : c) {
                String g = text(o);
                if (g != null) {
                    out.add(g);
                }
            }
        } else {
            String g = text(value);
            if (g != null) {
                out.add(g);
            }
        }
        return List.copyOf(out);
    }

    private static String text(Object value) {
        if (!(value instanceof String s) || s.isBlank()) {
            return null;
        }
        return s.trim();
    }
}
