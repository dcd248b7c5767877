package io.crater.policy;

import java.util.Map;

/**
 * Who may do what in which file space, in one place. A user reads and writes their own space; an account's space
 * follows the membership ({@code rw} or {@code ro}); {@code public} is readable by every signed-in user and
 * writable only by platform admins. Anything else is {@link Level#NONE}, which the API answers as 404 so that
 * another account's space is not revealed to exist.
 */
public final class FileAccess {

    private FileAccess() {}

    /** What a caller may do in a space. */
    public enum Level {
        NONE,
        READ,
        WRITE;

        public boolean reads() {
            return this != NONE;
        }

        public boolean writes() {
            return this == WRITE;
        }
    }

    /** The kinds of space, each a folder under the spaces root. */
    public enum Kind {
        USER,
        ACCOUNT,
        PUBLIC
    }

    /**
     * A space as the API names it: {@code user} (the caller's own), {@code account:<slug>}, {@code public}.
     *
     * @param slug the account's slug, or the user's for a user space; null for public
     */
    public record Space(Kind kind, String slug) {

        /** The space's name in the API. */
        public String name() {
            return switch (kind) {
                case USER -> "user";
                case ACCOUNT -> "account:" + slug;
                case PUBLIC -> "public";
            };
        }

        /** Its folder relative to the spaces root ({@code users/<slug>}, {@code accounts/<slug>}, {@code public}). */
        public String folder() {
            return switch (kind) {
                case USER -> "users/" + slug;
                case ACCOUNT -> "accounts/" + slug;
                case PUBLIC -> "public";
            };
        }
    }

    /**
     * The caller, as far as file access needs to know them.
     *
     * @param userSlug the caller's slug (their space's folder)
     * @param fileAccess the caller's accounts: slug → {@code rw} or {@code ro}
     */
    public record Viewer(String userSlug, boolean platformAdmin, Map<String, String> fileAccess) {
        public Viewer {
            fileAccess = fileAccess == null ? Map.of() : Map.copyOf(fileAccess);
        }
    }

    /** Slugs are lowercase letters, digits and inner dashes (as accounts and users are made). */
    private static final java.util.regex.Pattern SLUG =
            java.util.regex.Pattern.compile("[a-z0-9]([a-z0-9.-]{0,61}[a-z0-9])?");

    /**
     * Reads a space's API name for a viewer: {@code user} is their own space. Null when the name is not one a
     * space can have (the API answers 404 then, as for a space that is not the caller's).
     */
    public static Space parse(String name, Viewer viewer) {
        if (name == null) {
            return null;
        }
        if (name.equals("user")) {
            return new Space(Kind.USER, viewer.userSlug());
        }
        if (name.equals("public")) {
            return new Space(Kind.PUBLIC, null);
        }
        if (name.startsWith("account:") && SLUG.matcher(name.substring(8)).matches()) {
            return new Space(Kind.ACCOUNT, name.substring(8));
        }
        return null;
    }

    /** What the viewer may do in the space. */
    public static Level of(Space space, Viewer viewer) {
        if (space == null) {
            return Level.NONE;
        }
        return switch (space.kind()) {
            case USER -> space.slug() != null && space.slug().equals(viewer.userSlug()) ? Level.WRITE : Level.NONE;
            case PUBLIC -> viewer.platformAdmin() ? Level.WRITE : Level.READ;
            case ACCOUNT ->
                switch (viewer.fileAccess().getOrDefault(space.slug(), "")) {
                    case "rw" -> Level.WRITE;
                    case "ro" -> Level.READ;
                    default -> Level.NONE;
                };
        };
    }
}
