package io.crater.policy;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * How a directory entry becomes a Crater user: which attributes give the username, display name, e-mail, UID and
 * GID, and for Active Directory the RID of {@code objectSid} (and {@code primaryGroupID}) when the entry has no
 * {@code uidNumber}/{@code gidNumber}.
 *
 * @param username attribute holding the sign-in name ({@code uid}, {@code sAMAccountName})
 * @param displayName attribute holding the person's name ({@code cn}, {@code displayName})
 * @param email attribute holding the e-mail address ({@code mail})
 * @param uidNumber attribute holding the POSIX user id
 * @param gidNumber attribute holding the POSIX primary group id
 * @param idsFromSid whether to fall back to the RID of {@code objectSid} / {@code primaryGroupID}
 * @param sidOffset added to a RID to make the id (keeps directory ids clear of local ones)
 */
public record DirectoryProfile(
        String username,
        String displayName,
        String email,
        String uidNumber,
        String gidNumber,
        boolean idsFromSid,
        long sidOffset) {

    /** The attribute AD keeps the binary security identifier in. */
    public static final String OBJECT_SID = "objectSid";
    /** The attribute AD keeps the RID of the user's primary group in. */
    public static final String PRIMARY_GROUP_ID = "primaryGroupID";

    private static final Pattern EMAIL = Pattern.compile("^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$");
    private static final Pattern USERNAME = Pattern.compile("^[a-z0-9._-]{2,64}$");

    /** An entry as read: string attributes (first value each) and the raw {@code objectSid}, if any. */
    public record Entry(String dn, Map<String, List<String>> attributes, byte[] objectSid) {

        Optional<String> first(String name) {
            if (name == null) {
                return Optional.empty();
            }
            for (Map.Entry<String, List<String>> e : attributes.entrySet()) {
                if (e.getKey().equalsIgnoreCase(name) && !e.getValue().isEmpty()) {
                    String v = e.getValue().get(0);
                    return v == null || v.isBlank() ? Optional.empty() : Optional.of(v.trim());
                }
            }
            return Optional.empty();
        }
    }

    /** The user an entry maps to; {@code uid}/{@code gid} null when the entry gives none. */
    public record Mapped(String dn, String username, String displayName, String email, Integer uid, Integer gid) {}

    /** The entry as a user, or why it cannot be one (a {@link ReasonCode}-style code and a message). */
    public record Outcome(Mapped user, String problem) {}

    /** Maps an entry; {@code typed} is what the person typed, used when the entry has no username attribute. */
    public Outcome map(Entry entry, String typed) {
        String name = entry.first(username).orElse(typed);
        name = name == null ? null : name.trim().toLowerCase(Locale.ROOT);
        if (name == null || !USERNAME.matcher(name).matches() || !name.matches(".*[a-z0-9].*")) {
            return new Outcome(null, "the directory's " + username + " '" + name + "' is not a valid Crater username");
        }
        String display = entry.first(displayName).orElse(name);
        if (display.length() > 200) {
            display = display.substring(0, 200);
        }
        String mail = entry.first(email)
                .filter(m -> EMAIL.matcher(m).matches() && m.length() <= 254)
                .orElse(null);
        Optional<Long> uid = number(entry.first(uidNumber));
        Optional<Long> gid = number(entry.first(gidNumber));
        if (uid.isEmpty() && idsFromSid && entry.objectSid() != null) {
            uid = rid(entry.objectSid()).map(r -> r + sidOffset);
        }
        if (gid.isEmpty() && idsFromSid) {
            gid = number(entry.first(PRIMARY_GROUP_ID)).map(r -> r + sidOffset);
        }
        String bad =
                uid.filter(DirectoryProfile::outOfRange).map(u -> "UID " + u).orElse(null);
        if (bad == null) {
            bad = gid.filter(DirectoryProfile::outOfRange).map(g -> "GID " + g).orElse(null);
        }
        if (bad != null) {
            return new Outcome(null, "the directory gives " + bad + ", outside 1..2147483647 (root is never used)");
        }
        return new Outcome(
                new Mapped(
                        entry.dn(),
                        name,
                        display,
                        mail,
                        uid.map(Long::intValue).orElse(null),
                        gid.map(Long::intValue).orElse(null)),
                null);
    }

    /** The relative identifier of a binary SID: its last sub-authority, little-endian. */
    public static Optional<Long> rid(byte[] sid) {
        if (sid == null || sid.length < 8) {
            return Optional.empty();
        }
        int count = sid[1] & 0xff;
        if (count == 0 || sid.length < 8 + 4 * count) {
            return Optional.empty();
        }
        int at = 8 + 4 * (count - 1);
        long rid = (sid[at] & 0xffL)
                | (sid[at + 1] & 0xffL) << 8
                | (sid[at + 2] & 0xffL) << 16
                | (sid[at + 3] & 0xffL) << 24;
        return Optional.of(rid);
    }

    private static Optional<Long> number(Optional<String> value) {
        try {
            return value.map(Long::parseLong);
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static boolean outOfRange(long id) {
        return id < 1 || id > Integer.MAX_VALUE;
    }
}
